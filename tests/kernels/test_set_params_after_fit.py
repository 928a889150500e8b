"""``set_params`` on a fitted kernel: the parameters read at ``transform`` (``normalize``,
``n_jobs``, ``verbose``, ``log``, ``algorithm``) take effect as if the kernel had been fitted with
them; every other one shapes the fitted state, and changing it asks for a refit
(NotFittedError naming it), never an AttributeError."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import kernelkit.kernels
from kernelkit.kernels import (
    CoreFrameworkKernel,
    EdgeHistogramKernel,
    GappedKmerKernel,
    GappyPairKernel,
    GeometricWalkKernel,
    MarginalizedKernel,
    GraphHopperKernel,
    GraphletKernel,
    LocalAlignmentKernel,
    MismatchKernel,
    NeighborhoodHashKernel,
    NeighborhoodSubgraphPairwiseDistanceKernel,
    ODDSTKernel,
    PathKernel,
    PropagationKernel,
    PyramidMatchKernel,
    RandomWalkKernel,
    ShortestPathKernel,
    SpectrumKernel,
    StructuredKernel,
    SubstringKernel,
    SubtreeKernel,
    TreeletKernel,
    VectorKernel,
    VertexHistogramKernel,
    WalkKernel,
    WassersteinWeisfeilerLehmanKernel,
    WeightedDegreeKernel,
    WeisfeilerLehmanKernel,
    WeisfeilerLehmanOptimalAssignmentKernel,
)

# (kernel, a parameter the fitted state depends on, another value of it)
STRING_KERNELS = [
    (SpectrumKernel(k=2), "k", 3),
    (MismatchKernel(k=3, m=1), "k", 2),
    (SubstringKernel(k=2, lambda_=0.5), "k", 3),
    (LocalAlignmentKernel(beta=0.5, normalize=False), "beta", 0.2),
    (LocalAlignmentKernel(beta=0.5, normalize=True), "gap_open", 5),
    (WeightedDegreeKernel(degree=3, shift=1), "degree", 2),
    (GappyPairKernel(k=1, g=2), "g", 1),
    (GappedKmerKernel(l=4, k=2, d=1, reverse_complement=False), "d", 2),
]
GRAPH_KERNELS = [
    (WalkKernel(n=3, edge_label="label"), "n", 2),
    (GeometricWalkKernel(lambda_=0.02), "lambda_", 0.01),
    (RandomWalkKernel(p_stop=0.2), "p_stop", 0.3),
    (SubtreeKernel(depth=2, lambda_=0.5), "depth", 1),
    (WeisfeilerLehmanKernel(n_iter=3), "n_iter", 2),
    (ShortestPathKernel(), "node_label", None),
    (GraphletKernel(k=3), "k", 4),
    (GraphletKernel(k=3, n_graphlet_samples=50, random_state=0), "random_state", 1),
    (VertexHistogramKernel(), "node_label", None),
    (EdgeHistogramKernel(), "edge_label", "bond"),
    (NeighborhoodSubgraphPairwiseDistanceKernel(r=2, d=2, edge_label="label"), "r", 1),
    (ODDSTKernel(h=2, lambda_=0.5), "h", 1),
    (WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2), "n_iter", 1),
    (NeighborhoodHashKernel(R=2), "R", 1),
    (GraphHopperKernel(node_attributes=None, node_label="label"), "gamma", 0.5),
    (PropagationKernel(random_state=0), "t_max", 3),
    (PyramidMatchKernel(L=2, d=3), "L", 3),
    (CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=2)), "min_core", 0),
    (WassersteinWeisfeilerLehmanKernel(n_iter=2), "n_iter", 1),
    (PathKernel(max_length=3), "max_length", 2),
    (MarginalizedKernel(n_iter=4), "remove_totters", True),
    (TreeletKernel(), "edge_label", "label"),
]
VECTOR_KERNELS = [(VectorKernel("rbf"), "gamma", 0.3)]
CASES = STRING_KERNELS + GRAPH_KERNELS + VECTOR_KERNELS
IDS = [f"{type(kernel).__name__}-{i}" for i, (kernel, _, _) in enumerate(CASES)]


@pytest.fixture
def data(make_strings, mutag_dense, rng):
    def data_for(kernel):
        if isinstance(kernel, VectorKernel):
            return rng.standard_normal((12, 3)), rng.standard_normal((5, 3))
        if kernel.__sklearn_tags__().input_tags.string:
            # the weighted degree kernel compares sequences of one length
            strings = make_strings(14, 12, 12)
            return strings[:10], strings[10:]
        return mutag_dense[:12], mutag_dense[12:18]
    return data_for


def test_every_structured_kernel_is_covered():
    public = {cls for name in kernelkit.kernels.__all__
              if isinstance(cls := getattr(kernelkit.kernels, name), type)
              and issubclass(cls, StructuredKernel) and cls is not StructuredKernel}
    assert public == {type(kernel) for kernel, _, _ in CASES}


@pytest.mark.parametrize(("kernel", "param", "value"), CASES, ids=IDS)
def test_switching_normalize_after_fit_equals_a_fresh_fit(kernel, param, value, data):
    X, Y = data(kernel)
    for normalize in (kernel.normalize, not kernel.normalize):
        fitted = clone(kernel).set_params(normalize=normalize).fit(X)
        before = fitted.transform(Y)
        fitted.set_params(normalize=not normalize)
        fresh = clone(kernel).set_params(normalize=not normalize).fit(X)
        np.testing.assert_array_equal(fitted.transform(Y), fresh.transform(Y))
        # and back: the fitted state still gives the original Gram bit for bit
        fitted.set_params(normalize=normalize)
        np.testing.assert_array_equal(fitted.transform(Y), before)


@pytest.mark.parametrize(("kernel", "param", "value"), CASES, ids=IDS)
def test_switching_normalize_after_fit_transform(kernel, param, value, data):
    X, Y = data(kernel)
    fitted = clone(kernel)
    fitted.fit_transform(X)
    fitted.set_params(normalize=not kernel.normalize, n_jobs=1, verbose=0)
    fresh = clone(kernel).set_params(normalize=not kernel.normalize).fit(X)
    np.testing.assert_array_equal(fitted.transform(Y), fresh.transform(Y))


@pytest.mark.parametrize(("kernel", "param", "value"), CASES, ids=IDS)
def test_changing_a_fitted_parameter_requires_a_refit(kernel, param, value, data):
    X, Y = data(kernel)
    fitted = clone(kernel).fit(X)
    fitted.set_params(**{param: value})
    with pytest.raises(NotFittedError, match=f"must be refitted after changing {param} "):
        fitted.transform(Y)
    # the value it was fitted with, set back, needs no refit
    fitted.set_params(**{param: getattr(kernel, param)})
    np.testing.assert_array_equal(fitted.transform(Y), clone(kernel).fit(X).transform(Y))
    # refitting with the new value works and equals a fresh fit
    fresh = clone(kernel).set_params(**{param: value}).fit(X)
    np.testing.assert_array_equal(fitted.set_params(**{param: value}).fit(X).transform(Y),
                                  fresh.transform(Y))


def test_kmer_transform_features_requires_a_refit_after_changing_k(make_strings):
    X = make_strings(6, 5, 10)
    kernel = SpectrumKernel(k=2).fit(X).set_params(k=3)
    with pytest.raises(NotFittedError, match="changing k "):
        kernel.transform_features(X)


@pytest.mark.parametrize("kernel", [SpectrumKernel(k=2), MismatchKernel(k=3, m=1)],
                         ids=["spectrum", "mismatch"])
def test_kmer_algorithm_can_change_after_fit(kernel, make_strings):
    X = make_strings(10, 5, 12)
    for algorithm in ("sparse", "merge"):
        other = "merge" if algorithm == "sparse" else "sparse"
        fitted = clone(kernel).set_params(algorithm=algorithm).fit(X).set_params(algorithm=other)
        fresh = clone(kernel).set_params(algorithm=other).fit(X)
        np.testing.assert_array_equal(fitted.transform(X), fresh.transform(X))


def test_local_alignment_log_can_change_after_fit(make_strings):
    X = make_strings(8, 5, 12)
    fitted = LocalAlignmentKernel().fit(X).set_params(log=True)
    np.testing.assert_array_equal(fitted.transform(X),
                                  LocalAlignmentKernel(log=True).fit(X).transform(X))


def test_refit_after_normalize_switch_drops_the_old_diagonal(make_strings):
    X, Z = make_strings(8, 5, 12), make_strings(6, 5, 12)
    kernel = SpectrumKernel(k=2, normalize=True).fit(X)
    kernel.set_params(normalize=False).fit(Z).set_params(normalize=True)
    np.testing.assert_array_equal(kernel.transform(X),
                                  SpectrumKernel(k=2, normalize=True).fit(Z).transform(X))
