"""One rule for every kernel with explicit features (``transform_features``), found by walking
``kernelkit.kernels.__all__`` so that a new kernel cannot be missed.

The rule: ``Φ(Y) Φ(X_fit)ᵀ = transform(Y)`` and ``Φ(X_fit) Φ(X_fit)ᵀ = fit_transform(X_fit)``,
with ``normalize`` false and true (rows scaled by ``1/√k(x, x)``, a row with ``k(x, x) = 0``
left at zero). What holds beyond the fitted objects depends on the feature space: fixed by the
parameters (string kernels, graphlets), ``Φ(Y) Φ(Y')ᵀ = K(Y, Y')`` for any objects; learned at
``fit`` (label and bin vocabularies, WL-OA's indicator columns up to the fitted counts), features
outside it have no column, so ``Φ(Y) Φ(Y')ᵀ ≤ K(Y, Y')`` for non-negative features.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from kernelkit import kernels
from kernelkit.kernels import (
    GappyPairKernel,
    GraphHopperKernel,
    GraphletKernel,
    MismatchKernel,
    NeighborhoodSubgraphPairwiseDistanceKernel,
    PropagationKernel,
    SpectrumKernel,
    WeightedDegreeKernel,
    WeisfeilerLehmanKernel,
    WeisfeilerLehmanOptimalAssignmentKernel,
)

EXPLICIT_CLASSES = sorted(
    (getattr(kernels, name) for name in kernels.__all__
     if isinstance(getattr(kernels, name), type)
     and hasattr(getattr(kernels, name), "transform_features")),
    key=lambda cls: cls.__name__)

# Variants whose features take other code paths than the defaults'.
VARIANTS = [
    GraphHopperKernel(node_attributes=None, node_label="label"),
    PropagationKernel(node_label=None, node_attributes="attributes", w=0.5),
    PropagationKernel(distance="hellinger", w=0.3),
    WeisfeilerLehmanKernel(n_iter=2, edge_label="label"),
    NeighborhoodSubgraphPairwiseDistanceKernel(r=2, d=2, edge_label="label"),
    GraphletKernel(k=4, n_graphlet_samples=30),
    MismatchKernel(k=3, m=1),
    WeightedDegreeKernel(degree=3, unknown="skip", alphabet="ACDEFGHIK"),
]
# Feature spaces fixed by the parameters, not learned at fit.
FIXED_SPACE = (SpectrumKernel, MismatchKernel, GappyPairKernel, WeightedDegreeKernel,
               GraphletKernel)


def _seeded(kernel):
    """Random hashes and samples drawn from a fixed seed."""
    if "random_state" in kernel.get_params():
        kernel = clone(kernel).set_params(random_state=0)
    return kernel


# Classes whose default parameters have no explicit features (GappedKmerKernel: only the gapped
# k-mer kernel with every mismatch counted; the data below are proteins, not DNA).
FEATURE_DEFAULTS = {
    "GappedKmerKernel": lambda cls: cls(l=4, k=2, d=2, kernel_type="gkm",
                                        reverse_complement=False),
}


def _default(cls):
    return FEATURE_DEFAULTS.get(cls.__name__, lambda cls: cls())(cls)


CASES = [_seeded(_default(cls)) for cls in EXPLICIT_CLASSES] + [_seeded(k) for k in VARIANTS]
IDS = [repr(kernel) for kernel in CASES]


def _graph(rng, n, labels="CNO"):
    upper = np.triu(rng.random((n, n)) < 0.45, 1)
    edge_labels = np.triu(rng.integers(1, 3, size=(n, n)), 1)
    return ((upper | upper.T).astype(int), list(rng.choice(list(labels), size=n)),
            edge_labels + edge_labels.T, rng.normal(size=(n, 2)))


def _data(kernel, rng):
    """``(train, test)``: equal-length protein strings, or small graphs with node labels, edge
    labels and attributes; the test objects hold letters or labels unseen at fit where the kernel
    accepts them."""
    if kernel.__sklearn_tags__().input_tags.string:
        letters = np.array(list("ACDEFGH"))
        # letters outside an explicit alphabet are skipped; an inferred one has no such letter
        unseen = np.array(list("ACDEFGHLM")) if kernel.get_params()["alphabet"] else letters

        def strings(n, alphabet):
            return ["".join(rng.choice(alphabet, size=14)) for _ in range(n)]
        return strings(9, letters), strings(5, letters) + strings(2, unseen)
    return ([_graph(rng, int(rng.integers(1, 7)), "CN") for _ in range(9)],
            [_graph(rng, int(rng.integers(1, 7)), "CNOS") for _ in range(6)])


def _assert_equal_grams(actual, expected):
    """Equal to 1e-10 of the largest entry (zero entries may come out as rounding noise)."""
    scale = max(float(np.abs(expected).max()), np.finfo(float).tiny)
    np.testing.assert_allclose(actual, expected, rtol=1e-10, atol=1e-10 * scale)


def _fitted_features(kernel, train, test):
    fitted = clone(kernel).fit(train)
    return fitted, fitted.transform_features(train), fitted.transform_features(test)


def test_every_kernel_with_features_is_found():
    # the walk sees the kernels of both families (a broken walk would make the tests vacuous)
    names = {cls.__name__ for cls in EXPLICIT_CLASSES}
    assert {"SpectrumKernel", "WeightedDegreeKernel", "WeisfeilerLehmanKernel",
            "PropagationKernel", "WeisfeilerLehmanOptimalAssignmentKernel"} <= names
    for kernel in VARIANTS:
        assert type(kernel) in EXPLICIT_CLASSES


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("kernel", CASES, ids=IDS)
def test_features_give_the_gram_matrices(kernel, normalize, rng):
    kernel = clone(kernel).set_params(normalize=normalize)
    train, test = _data(kernel, rng)
    fitted, phi_train, phi_test = _fitted_features(kernel, train, test)
    for phi, n_rows in ((phi_train, len(train)), (phi_test, len(test))):
        assert isinstance(phi, sp.csr_array) and phi.dtype == np.float64
        assert phi.shape[0] == n_rows and phi.has_canonical_format
    _assert_equal_grams((phi_test @ phi_train.T).toarray(), fitted.transform(test))
    _assert_equal_grams((phi_train @ phi_train.T).toarray(), clone(kernel).fit_transform(train))
    if normalize:
        norms = np.sqrt(phi_test.multiply(phi_test).sum(axis=1))
        assert np.all(norms <= 1 + 1e-12)


@pytest.mark.parametrize("kernel, objects", [
    (SpectrumKernel(k=3), ["ACDAC", "AC"]),
    (MismatchKernel(k=3, m=1), ["ACDAC", "AC"]),
    (GappyPairKernel(k=1, g=1), ["ACDAC", "A"]),
    (GraphletKernel(k=3), [(np.ones((3, 3)) - np.eye(3), None), (np.zeros((2, 2)), None)]),
], ids=["spectrum", "mismatch", "gappy", "graphlet"])
def test_a_row_without_features_stays_zero(kernel, objects):
    # the second object has k(x, x) = 0: its normalised Gram entries are 0, and so is its row
    fitted = clone(kernel).set_params(normalize=True).fit(objects)
    phi = fitted.transform_features(objects)
    assert phi[[1]].nnz == 0
    np.testing.assert_array_equal(fitted.transform(objects)[1], 0.0)
    _assert_equal_grams((phi @ phi.T).toarray(), fitted.transform(objects))


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("kernel", [k for k in CASES if isinstance(k, FIXED_SPACE)],
                         ids=[repr(k) for k in CASES if isinstance(k, FIXED_SPACE)])
def test_a_fixed_feature_space_gives_the_kernel_of_any_two_objects(kernel, normalize, rng):
    kernel = clone(kernel).set_params(normalize=normalize)
    train, test = _data(kernel, rng)
    left, right = test[:4], test[4:]
    fitted = clone(kernel).fit(train)
    phi_left, phi_right = fitted.transform_features(left), fitted.transform_features(right)
    _assert_equal_grams((phi_left @ phi_right.T).toarray(),
                        clone(kernel).fit(train + right).transform(left)[:, len(train):])


def _nonnegative(kernel):
    # GraphHopper's attribute features are real vectors: no inequality between products
    return not (isinstance(kernel, GraphHopperKernel) and kernel.node_attributes is not None)


FITTED_SPACE = [k for k in CASES if not isinstance(k, FIXED_SPACE) and _nonnegative(k)]


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("kernel", FITTED_SPACE, ids=[repr(k) for k in FITTED_SPACE])
def test_a_fitted_feature_space_leaves_out_what_was_not_fitted(kernel, normalize, rng):
    # features outside the fitted space (unseen labels, bins, counts above WL-OA's fitted
    # maxima) have no column: two other objects' products can only lose what they share there
    kernel = clone(kernel).set_params(normalize=normalize)
    train, test = _data(kernel, rng)
    left, right = test[:3], test[3:]
    fitted = clone(kernel).fit(train)
    product = (fitted.transform_features(left) @ fitted.transform_features(right).T).toarray()
    exact = clone(kernel).fit(train + right).transform(left)[:, len(train):]
    assert np.all(product <= exact + 1e-12 * max(1.0, float(np.abs(exact).max())))


def test_wl_optimal_assignment_counts_are_cut_at_the_fitted_maxima():
    star = (np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]),
            ["N", "C", "C", "C"])
    pair = (np.array([[0, 1], [1, 0]]), ["N", "C"])
    kernel = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=0).fit([pair])
    # N and C fitted at most once each: the star's three C count once, against itself too
    phi = kernel.transform_features([star])
    np.testing.assert_array_equal(phi.toarray(), [[1, 1]])
    assert (phi @ phi.T).toarray()[0, 0] == 2
    assert kernel.fit([star]).transform([star])[0, 0] == 4     # (n_iter + 1) |V|


@pytest.mark.parametrize("kernel, fix", [
    (SpectrumKernel(k=12, alphabet="protein"), "lower k or give a smaller alphabet"),
    (MismatchKernel(k=12, m=1, alphabet="protein"), "lower k or give a smaller alphabet"),
    (GappyPairKernel(k=6, g=3, alphabet="protein"), "lower k or g"),
    (WeightedDegreeKernel(degree=10, alphabet="protein"), "lower degree"),
], ids=["spectrum", "mismatch", "gappy", "weighted-degree"])
def test_a_feature_space_too_wide_to_use_is_refused_with_the_estimate(kernel, fix):
    # 20^12 columns and more: Φ Φᵀ would transpose Φ over every column; the Gram still works
    X = ["ACDEFGHIKLMNPQRSTVWYACDEF", "ACDEFGHIKLMNPQRSTVWYACDEG"]
    fitted = clone(kernel).fit(X)
    with pytest.raises(ValueError, match=rf"columns .*would need .* of memory.*{fix}"):
        fitted.transform_features(X)
    K = fitted.transform(X)
    assert np.all(np.isfinite(K)) and K[0, 0] > 0


def test_more_columns_than_64_bit_indices_is_refused():
    fitted = SpectrumKernel(k=40, alphabet="dna").fit(["ACGT" * 12])
    with pytest.raises(ValueError, match=r"about 1\.2e\+24 columns do not fit 64-bit .*lower k"):
        fitted.transform_features(["ACGT" * 12])


def test_no_explicit_features_for_the_kernels_without_a_finite_map():
    with pytest.raises(ValueError, match="shift=0 only"):
        WeightedDegreeKernel(degree=2, shift=1).fit(["ACGT"]).transform_features(["ACGT"])
    graph = (np.array([[0, 1], [1, 0]]), None, None, np.ones((2, 1)))
    with pytest.raises(ValueError, match="kernel='gaussian' has no explicit features"):
        GraphHopperKernel(kernel="gaussian").fit([graph]).transform_features([graph])
