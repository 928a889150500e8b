"""Kernels that are indefinite, overflow or have no real value: refused by name before any
solver, for every kernel estimator, never a silent NaN."""

import re

import numpy as np
import pytest

from kernelkit.decomposition import KernelPCA
from kernelkit.discriminant_analysis import KernelFisherDiscriminantAnalysis
from kernelkit.kernel_approximation import KernelNystroem
from kernelkit.kernel_ridge import KernelLogisticRegression, KernelRidge
from kernelkit.kernels import VectorKernel, pairwise_kernels, polynomial_kernel
from kernelkit.linear_model import NearestCentroid
from kernelkit.neighbors import KNeighborsClassifier, KNeighborsRegressor
from kernelkit.svm import SVC, SVR, SquaredEpsilonSVR, SquaredHingeSVC
from kernelkit.utils import _gram
from kernelkit.utils._gram import check_gram_range, check_precomputed_gram
from kernelkit.utils._kernels import resolve_kernel


def _vector_params(**params):
    return params


def _neighbors_params(**params):
    # k-NN takes the vector kernel's parameters through kernel_params
    return {"kernel_params": params or None}


# name → (constructor, how it takes gamma/degree/coef0, target: "class", "real" or None)
KERNEL_ESTIMATORS = {
    "SVC": (SVC, _vector_params, "class"),
    "SVR": (SVR, _vector_params, "real"),
    "KernelRidge": (KernelRidge, _vector_params, "real"),
    "KernelLogisticRegression": (KernelLogisticRegression, _vector_params, "class"),
    "SquaredHingeSVC": (SquaredHingeSVC, _vector_params, "class"),
    "SquaredEpsilonSVR": (SquaredEpsilonSVR, _vector_params, "real"),
    "KernelFisherDiscriminantAnalysis": (KernelFisherDiscriminantAnalysis, _vector_params,
                                         "class"),
    "KernelPCA": (lambda **kw: KernelPCA(n_components=2, **kw), _vector_params, None),
    "KernelNystroem": (lambda **kw: KernelNystroem(n_components=30, random_state=0, **kw),
                       _vector_params, None),
    "NearestCentroid": (NearestCentroid, _vector_params, "class"),
    "KNeighborsClassifier": (KNeighborsClassifier, _neighbors_params, "class"),
    "KNeighborsRegressor": (KNeighborsRegressor, _neighbors_params, "real"),
}
# solvers that assume a p.s.d. kernel and diverge (or lose their meaning) otherwise
NEEDS_PSD = ["KernelRidge", "KernelLogisticRegression", "SquaredHingeSVC", "SquaredEpsilonSVR",
             "KernelFisherDiscriminantAnalysis", "NearestCentroid", "KNeighborsClassifier",
             "KNeighborsRegressor"]


def _data(n_samples=30):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n_samples, 3))
    return X, (X[:, 0] > 0).astype(int), rng.uniform(0, 4, n_samples)


def _fit(name, kernel, **params):
    make, takes, target = KERNEL_ESTIMATORS[name]
    X, labels, values = _data()
    model = make(kernel=kernel, **takes(**params))
    if target is None:
        return model.fit(X), X
    return model.fit(X, labels if target == "class" else values), X


def _output(model, X):
    return model.transform(X) if hasattr(model, "transform") else model.predict(X)


def nan_kernel(X, Y):
    return np.full((X.shape[0], Y.shape[0]), np.nan)


@pytest.mark.parametrize("degree, coef0", [(2.5, 0.0), (0.5, 1.0), (1.5, -1.0)])
def test_non_integer_degree_with_a_negative_base_names_degree_and_coef0(degree, coef0):
    X = _data()[0]
    with pytest.raises(ValueError, match=rf"coef0={coef0:g}, degree={degree:g}\) has NaN values"):
        polynomial_kernel(X, degree=degree, coef0=coef0)
    with pytest.raises(ValueError, match="no real non-integer power"):
        VectorKernel("poly", degree=degree, coef0=coef0).fit_transform(X)


def test_non_integer_degree_is_the_real_power_where_the_base_is_non_negative():
    X = np.abs(_data()[0])
    K = polynomial_kernel(X, degree=2.5, gamma=0.5, coef0=0.0)
    np.testing.assert_allclose(K, (0.5 * X @ X.T) ** 2.5, rtol=1e-12)


# degree is an integer parameter of the SMO and dual CD estimators
@pytest.mark.parametrize("name", [name for name in KERNEL_ESTIMATORS if name not in (
    "SVC", "SVR", "SquaredHingeSVC", "SquaredEpsilonSVR")])
def test_non_integer_degree_with_a_negative_base_is_refused_by_every_estimator(name):
    with pytest.raises(ValueError, match=r"poly kernel \(.*degree=2.5\) has NaN values"):
        _fit(name, "poly", degree=2.5, coef0=0.0)


@pytest.mark.parametrize("name", list(KERNEL_ESTIMATORS))
def test_a_callable_returning_nan_is_refused_by_name(name):
    with pytest.raises(ValueError, match="kernel callable nan_kernel.* NaN or infinite"):
        _fit(name, nan_kernel)


@pytest.mark.parametrize("name", list(KERNEL_ESTIMATORS))
def test_an_exponential_gram_spanning_300_decades_is_refused_before_the_solver(name):
    # exp(100 x·y) on normal points: k(x, x) from e^10 to 1e304; SVR once spent 21 s on it
    # and predicted -4e65
    with pytest.raises(ValueError, match=r"exponential kernel \(gamma=100\) spans values"):
        _fit(name, "exponential", gamma=100.0)


@pytest.mark.parametrize("name", NEEDS_PSD)
@pytest.mark.parametrize("gamma, coef0", [(1e6, 1e6), (1.0, 5.0)])
def test_solvers_needing_a_psd_kernel_refuse_an_indefinite_sigmoid(name, gamma, coef0):
    # these once predicted NaN or ~1e150 silently (dual CD diverges on an indefinite Gram)
    parameters = re.escape(f"(gamma={gamma:g}, coef0={coef0:g})")
    with pytest.raises(ValueError, match=f"sigmoid kernel {parameters}.* not positive semi-defi"):
        _fit(name, "sigmoid", gamma=gamma, coef0=coef0)


@pytest.mark.parametrize("name", ["SVC", "SVR", "KernelPCA", "KernelNystroem"])
@pytest.mark.parametrize("gamma, coef0", [(1e6, 1e6), (1.0, 5.0)])
def test_methods_defined_for_indefinite_kernels_stay_finite(name, gamma, coef0):
    # SMO clips each step by the pair's curvature; kernel PCA and Nystroem drop negative
    # eigenvalues: the sigmoid is accepted, and the output is finite
    model, X = _fit(name, "sigmoid", gamma=gamma, coef0=coef0)
    assert np.isfinite(_output(model, X)).all()


@pytest.mark.parametrize("name", NEEDS_PSD)
def test_positive_definite_kernels_are_not_tested_for_definiteness(name, monkeypatch):
    # rbf, integer-degree poly with coef0 >= 0, ...: positive definite by construction, so
    # their fit never factorises a Gram for the test
    def fail(*args, **kwargs):
        raise AssertionError("definiteness test run on a p.d. kernel")

    monkeypatch.setattr("kernelkit.utils._kernels.check_precomputed_gram", fail)
    for kernel, params in [("rbf", {"gamma": 0.5}), ("poly", {"degree": 2, "coef0": 1.0})]:
        model, X = _fit(name, kernel, **params)
        assert np.isfinite(_output(model, X)).all()


def test_large_grams_are_tested_on_an_evenly_spaced_principal_submatrix(monkeypatch):
    # unit vectors in 20 dimensions: the Gram has rank 20, so K − 0.05 I has eigenvalue −0.05
    # on every principal submatrix of more than 20 samples, while |K_ij| <= sqrt(K_ii K_jj)
    # holds and the O(n²) checks pass
    monkeypatch.setattr(_gram, "PSD_CHECK_MAX_SAMPLES", 60)
    rng = np.random.default_rng(0)
    U = rng.standard_normal((300, 20))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    K = U @ U.T - 0.05 * np.eye(300)
    np.testing.assert_array_equal(_gram.definiteness_sample(300, "auto"),
                                  np.linspace(0, 299, 60).round().astype(np.intp))
    assert _gram.definiteness_sample(300, "full") is None
    with pytest.raises(ValueError, match="not positive semi-definite"):
        check_precomputed_gram(K, psd="auto")
    check_precomputed_gram(K + 0.1 * np.eye(300), psd="auto")


def test_large_vector_grams_are_tested_on_a_sample_of_rows(monkeypatch):
    monkeypatch.setattr(_gram, "PSD_CHECK_MAX_SAMPLES", 40)
    X = np.random.default_rng(0).standard_normal((400, 3))
    with pytest.raises(ValueError, match=r"sigmoid kernel .* not positive semi-definite"):
        resolve_kernel("sigmoid", X, gamma=1.0, coef0=5.0, psd="auto")
    # "fast" (SMO) and False (kernel PCA) do not test definiteness
    for psd in ("fast", False):
        assert resolve_kernel("sigmoid", X, gamma=1.0, coef0=5.0, psd=psd).kind == "vector"


@pytest.mark.parametrize("diagonal, largest, message", [
    (np.array([1.0, 2.0, 1e40]), 1e40, "spans values from 2"),
    (np.array([1.0, 1.0, 1.0]), 1e308, "overflow float64"),
])
def test_gram_range_refusals(diagonal, largest, message):
    with pytest.raises(ValueError, match=f"^The Gram matrix .*{message}"):
        check_gram_range(largest, diagonal, diagonal.size, "The Gram matrix")


def test_gram_range_accepts_a_wide_but_meaningful_range():
    # poly degree 30 on normal points: k(x, x) from 1e-3 to 1e14, within ε² · max of each row;
    # zero rows (linear kernel on zero vectors) do not count
    check_gram_range(1e14, np.array([1e-3, 1.0, 1e14]), 3, "K")
    check_gram_range(1.0, np.array([0.0, 0.0, 0.0, 1.0]), 4, "K")


def test_precomputed_gram_with_nan_is_refused_by_name():
    with pytest.raises(ValueError, match="^The Gram matrix of X has NaN or infinite values"):
        check_precomputed_gram(np.array([[1.0, np.nan], [np.nan, 1.0]]),
                               name="The Gram matrix of X")


@pytest.mark.parametrize("psd", ["fast", "auto", False])
@pytest.mark.parametrize("entry", [(0, 0), (2, 297), (297, 2)])
def test_non_finite_gram_is_refused_by_the_callers_error(entry, psd):
    # A callable `finite`: K is not yet tested for finiteness; the scan finds the NaN (above
    # the diagonal, below it, or on it) and the caller's error is raised, before the asymmetry
    # that the matrix also has.
    class CallersError(ValueError):
        pass

    def refuse():
        raise CallersError("the caller's words")

    B = np.random.default_rng(0).normal(size=(300, 4))
    K = B @ B.T
    K[1, 200] += 1.0
    K[entry] = np.nan
    with pytest.raises(CallersError):
        check_precomputed_gram(K, psd=psd, finite=refuse)
    with pytest.raises(ValueError, match="has NaN or infinite values"):
        check_precomputed_gram(K, psd=psd)


def test_the_final_guard_names_the_kernel_and_its_parameters():
    X = _data()[0]
    fitted = resolve_kernel("sigmoid", X, gamma=2.0, coef0=-1.0, psd=False)
    values = np.ones(3)
    assert fitted.check_finite(values, "dual coefficients") is values
    with pytest.raises(ValueError, match=r"dual coefficients are not finite with the sigmoid "
                                         r"kernel \(gamma=2, coef0=-1\)"):
        fitted.check_finite(np.array([1.0, np.inf]), "dual coefficients")
    assert pairwise_kernels(X, metric="sigmoid", gamma=2.0, coef0=-1.0).shape == (30, 30)


class _NaNKernel(VectorKernel):
    """A kernel object whose Gram has a NaN (as a faulty string or graph kernel could)."""

    def _gram(self, A, B=None):
        K = super()._gram(A, B)
        K[0, -1] = np.nan
        return K


@pytest.mark.parametrize("name", list(KERNEL_ESTIMATORS))
def test_a_kernel_object_returning_nan_is_refused_with_its_parameters(name):
    with pytest.raises(ValueError, match=re.escape("_NaNKernel(gamma=0.5)") + " has NaN"):
        _fit(name, _NaNKernel(gamma=0.5))
