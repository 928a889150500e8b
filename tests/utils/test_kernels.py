"""The shared kernel layer: the compiled vector Gram, kernel resolution, Gram validation."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import pairwise as sklearn_pairwise
from sklearn.pipeline import make_pipeline

from kernelkit._core._gram import VECTOR_KERNELS, check_gram, vector_gram
from kernelkit._core._smo_solver import PRECOMPUTED_KERNEL
from kernelkit.datasets import load_mutag, load_secreted_proteins
from kernelkit.decomposition import KernelPCA
from kernelkit.kernel_ridge import KernelRidge
from kernelkit.kernels import SpectrumKernel, WeisfeilerLehmanKernel, pairwise_kernels
from kernelkit.linear_model import NearestCentroid
from kernelkit.neighbors import KNeighborsClassifier
from kernelkit.reference.gram import KERNEL_CODES
from kernelkit.reference.gram import check_gram as reference_check_gram
from kernelkit.reference.gram import vector_gram as reference_vector_gram
from kernelkit.svm import SVC, SVR
from kernelkit.utils._gram import check_precomputed_gram
from kernelkit.utils._kernels import kernel_kind, resolve_gamma, resolve_kernel

NAMES = sorted(VECTOR_KERNELS)


def test_kernel_codes_agree_with_the_reference():
    vector_codes = {name: code for name, code in KERNEL_CODES.items() if name != "precomputed"}
    # "polynomial" is an alias of "poly"
    assert vector_codes == {name: code for name, code in VECTOR_KERNELS.items()
                            if name != "polynomial"}
    assert KERNEL_CODES["precomputed"] == PRECOMPUTED_KERNEL


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("symmetric", [True, False])
def test_vector_gram_equals_reference(name, symmetric, rng):
    # 150 rows: three row blocks of the core, the last one partial.
    X, Y = rng.normal(size=(150, 7)), rng.normal(size=(40, 7))
    X[3] = 0.0   # a zero vector (cosine's special case)
    args = (VECTOR_KERNELS[name], 0.3, 0.5, 3.0)
    got, want = np.empty((150, 150 if symmetric else 40)), np.empty((150, 150 if symmetric else 40))
    vector_gram(X, X if symmetric else Y, symmetric, *args, got, 2)
    reference_vector_gram(X, X if symmetric else Y, symmetric, *args, want, 1)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    if symmetric:
        np.testing.assert_array_equal(got, got.T)


@pytest.mark.parametrize("name", ["linear", "poly", "rbf", "sigmoid", "laplacian"])
def test_pairwise_kernels_equal_scikit_learn(name, rng):
    X, Y = rng.normal(size=(30, 5)), rng.normal(size=(20, 5))
    params = {} if name == "linear" else {"gamma": 0.2}
    if name in ("poly", "sigmoid"):
        params["coef0"] = 0.7
    np.testing.assert_allclose(pairwise_kernels(X, Y, metric=name, **params),
                               sklearn_pairwise.pairwise_kernels(X, Y, metric=name, **params),
                               rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", NAMES)
def test_vector_gram_independent_of_threads(name, rng):
    X = rng.normal(size=(700, 60))   # enough work for the parallel path
    one, two = np.empty((700, 700)), np.empty((700, 700))
    vector_gram(X, X, True, VECTOR_KERNELS[name], 0.01, 0.5, 2.0, one, 1)
    vector_gram(X, X, True, VECTOR_KERNELS[name], 0.01, 0.5, 2.0, two, 2)
    np.testing.assert_array_equal(one, two)


def test_vector_gram_edge_shapes():
    out = np.empty((0, 3))
    vector_gram(np.zeros((0, 2)), np.zeros((3, 2)), False, VECTOR_KERNELS["rbf"], 1.0, 0.0,
                3.0, out, 1)
    out = np.empty((2, 2))
    vector_gram(np.zeros((2, 0)), np.zeros((2, 0)), True, VECTOR_KERNELS["linear"], 1.0, 0.0,
                3.0, out, 1)
    np.testing.assert_array_equal(out, 0.0)
    with pytest.raises(ValueError, match="features"):
        vector_gram(np.zeros((2, 2)), np.zeros((2, 3)), False, 0, 1.0, 0.0, 3.0, out, 1)
    with pytest.raises(ValueError, match="out has shape"):
        vector_gram(np.zeros((3, 2)), np.zeros((2, 2)), False, 0, 1.0, 0.0, 3.0, out, 1)


@pytest.mark.parametrize("n_threads", [1, 2])
def test_check_gram_equals_reference(n_threads, rng):
    # 300 samples: several 128×128 tiles, defects off the diagonal tiles and in the last one
    B = rng.normal(size=(300, 5))
    gram = B @ B.T
    cases = [gram]
    for i, j, value in ((3, 290, None), (10, 270, "minor"), (150, 150, -1.0), (290, 3, np.nan),
                        (299, 298, np.inf), (7, 7, np.nan), (7, 7, -np.inf)):
        K = gram.copy()
        if value is None:
            K[i, j] += 1e-3
        elif value == "minor":
            K[i, j] = K[j, i] = 2 * np.sqrt(gram[i, i] * gram[j, j])
        else:
            K[i, j] = value
        cases.append(K)
    got = [check_gram(K, 1e-10, n_threads) for K in cases]
    assert got == [reference_check_gram(K, 1e-10) for K in cases]
    # a negative diagonal entry also fails its 2×2 minors (its square root is taken as 0)
    assert got[:4] == [0, 2, 4, 1 | 4] and all(flags & 8 for flags in got[4:])


def test_resolve_gamma():
    X = np.array([[0.0, 2.0], [2.0, 0.0]])
    assert resolve_gamma("scale", X) == pytest.approx(1 / (2 * X.var()))
    assert resolve_gamma("auto", X) == resolve_gamma(None, X) == 0.5
    assert resolve_gamma(0.25, X) == 0.25
    assert resolve_gamma("scale", np.ones((3, 2))) == 1.0   # constant data: no division by 0


def test_kernel_kind():
    assert kernel_kind("rbf") == "vector"
    assert kernel_kind("precomputed") == "precomputed"
    assert kernel_kind(lambda A, B: A @ B.T) == "callable"
    assert kernel_kind(SpectrumKernel(k=2)) == "structured"
    with pytest.raises(ValueError, match="Unknown kernel 'histogram'"):
        kernel_kind("histogram")
    with pytest.raises(TypeError, match="kernel must be"):
        kernel_kind(3)


@pytest.mark.parametrize("K, message", [
    (np.ones((2, 3)), "should be square"),
    (np.array([[1.0, 0.5], [0.0, 1.0]]), "not symmetric"),
    (np.array([[1.0, 2.0], [2.0, 1.0]]), r"sqrt\(K_ii K_jj\)"),
    (np.array([[-1.0, 0.0], [0.0, 1.0]]), "negative diagonal"),
    (np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]]), "negative eigenvalue"),
    (np.array([[1.0, np.nan], [np.nan, 1.0]]), "NaN"),
])
def test_check_precomputed_gram_names_the_problem(K, message):
    with pytest.raises(ValueError, match=message):
        check_precomputed_gram(K)


def test_check_precomputed_gram_without_psd_accepts_indefinite():
    K = np.array([[1.0, 2.0], [2.0, 1.0]])
    np.testing.assert_array_equal(check_precomputed_gram(K, psd=False), K)
    with pytest.raises(ValueError, match="y has 3 samples"):
        check_precomputed_gram(K, n_samples=3)


def test_kernel_objects_definite_by_construction_skip_the_factorisation(monkeypatch, rng):
    # VectorKernel("rbf") is checked as "rbf" is; VectorKernel("sigmoid") is still factorised
    from kernelkit.kernels import VectorKernel
    from kernelkit.utils import _gram

    factorised = []
    cholesky = _gram._check_cholesky
    monkeypatch.setattr(_gram, "_check_cholesky",
                        lambda K, *args: (factorised.append(K.shape[0]), cholesky(K, *args)))
    X = rng.normal(size=(30, 3))
    for kernel in ("rbf", VectorKernel("rbf"), VectorKernel("poly", degree=2, coef0=1.0)):
        resolve_kernel(kernel, X, psd="auto")
    assert factorised == []
    # a sigmoid is not a kernel in general: its Gram matrix is factorised, as its name's is
    for kernel in ("sigmoid", VectorKernel("sigmoid", gamma=0.01, coef0=0.0)):
        with pytest.raises(ValueError, match="not positive semi-definite"):
            resolve_kernel(kernel, X, gamma=0.01, coef0=0.0, psd="auto")
    assert factorised == [30, 30]


def test_fitted_kernel_pickles_and_subsets(rng):
    X = rng.normal(size=(20, 3))
    fitted = resolve_kernel("rbf", X, gamma="scale")
    support = np.array([1, 5, 7])
    kept = pickle.loads(pickle.dumps(fitted.subset(support)))
    Z = rng.normal(size=(4, 3))
    np.testing.assert_allclose(kept.cross(Z), pairwise_kernels(Z, X[support], metric="rbf",
                                                               gamma=fitted.gamma))


def _proteins(n=60):
    sequences, labels, _ = load_secreted_proteins()
    rng = np.random.default_rng(0)
    rows = np.concatenate([rng.choice(np.flatnonzero(labels == c), n // 2, replace=False)
                           for c in np.unique(labels)])
    return [sequences[i] for i in rows], labels[rows]


def test_svc_trains_on_strings_with_a_kernel_object():
    # A kernel object is cloned and fitted on the training strings: the same classifier as the
    # pipeline kernel → precomputed SVC, without the user computing any Gram matrix.
    sequences, labels = _proteins()
    train, test = slice(0, None, 2), slice(1, None, 2)
    X_train, y_train = sequences[train], labels[train]
    X_test = sequences[test]
    kernel = SpectrumKernel(k=3, normalize=True)
    direct = SVC(kernel=kernel, C=10).fit(X_train, y_train)
    piped = make_pipeline(SpectrumKernel(k=3, normalize=True),
                          SVC(kernel="precomputed", C=10)).fit(X_train, y_train)
    assert not hasattr(kernel, "X_fit_")   # the parameter itself stays unfitted
    np.testing.assert_array_equal(direct.support_, piped[-1].support_)
    np.testing.assert_allclose(direct.dual_coef_, piped[-1].dual_coef_, atol=1e-12)
    np.testing.assert_allclose(direct.decision_function(X_test),
                               piped.decision_function(X_test), atol=1e-10)
    np.testing.assert_array_equal(direct.predict(X_test), piped.predict(X_test))
    restored = pickle.loads(pickle.dumps(direct))
    np.testing.assert_array_equal(restored.predict(X_test), direct.predict(X_test))


def test_svr_and_kernel_pca_on_graphs_with_a_kernel_object():
    mutag = load_mutag()
    graphs, target = mutag.graphs[:80], mutag.target[:80].astype(float)
    K = WeisfeilerLehmanKernel(n_iter=2, normalize=True).fit_transform(graphs)
    direct = SVR(kernel=WeisfeilerLehmanKernel(n_iter=2, normalize=True)).fit(graphs, target)
    precomputed = SVR(kernel="precomputed").fit(K, target)
    np.testing.assert_allclose(direct.predict(graphs), precomputed.predict(K), atol=1e-10)
    embedding = KernelPCA(n_components=3, kernel=WeisfeilerLehmanKernel(n_iter=2)).fit(graphs)
    reference = KernelPCA(n_components=3, kernel="precomputed").fit(
        WeisfeilerLehmanKernel(n_iter=2).fit_transform(graphs))
    np.testing.assert_allclose(np.abs(embedding.transform(mutag.graphs[80:90])),
                               np.abs(reference.transform(WeisfeilerLehmanKernel(n_iter=2).fit(
                                   graphs).transform(mutag.graphs[80:90]))), atol=1e-8)


def test_kernel_object_errors():
    sequences, labels = _proteins(10)
    with pytest.raises(ValueError, match="requires y"):
        SVC(kernel=SpectrumKernel(k=2)).fit(sequences, None)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        SVC(kernel=SpectrumKernel(k=2)).fit(sequences, labels[:-1])
    with pytest.raises(TypeError, match="sequence of objects"):
        SVC(kernel=SpectrumKernel(k=2)).fit("ACGT", [0])


def _sparse_linear(A, B):
    return sp.csr_matrix(A @ B.T)


@pytest.mark.parametrize("make", [
    lambda kernel: SVC(kernel=kernel),
    lambda kernel: KernelPCA(2, kernel=kernel),
    lambda kernel: KernelRidge(kernel=kernel),
    lambda kernel: KNeighborsClassifier(3, kernel=kernel),
    lambda kernel: NearestCentroid(kernel=kernel),
], ids=["SVC", "KernelPCA", "KernelRidge", "KNeighborsClassifier", "NearestCentroid"])
def test_a_kernel_callable_may_return_a_sparse_gram(make, rng):
    X = rng.normal(size=(30, 4))
    y = (X[:, 0] > 0).astype(int)
    dense = make(lambda A, B: A @ B.T).fit(X, y)
    sparse = make(_sparse_linear).fit(X, y)
    method = "transform" if hasattr(dense, "transform") else "predict"
    np.testing.assert_allclose(getattr(sparse, method)(X), getattr(dense, method)(X))


@pytest.mark.parametrize("returned", [None, "a string", [[1, "x"], [2, 3]]])
def test_a_kernel_callable_returning_no_matrix_is_named(returned, rng):
    X = rng.normal(size=(2, 3))
    with pytest.raises(ValueError, match="kernel callable"):
        SVC(kernel=lambda A, B: returned).fit(X, [0, 1])
