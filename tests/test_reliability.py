"""Regression tests of the reliability issue (17): crashes and silent garbage found by fuzzing."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.cluster.hierarchy import is_valid_linkage

from kernelkit._core._linkage import mst_single_linkage, nn_chain_linkage
from kernelkit.cluster import (
    DBSCAN,
    AgglomerativeClustering,
    GaussianMixture,
    KMeans,
    SpectralClustering,
)
from kernelkit.decomposition import PCA
from kernelkit.manifold import MDS, SpectralEmbedding


def _huge(n_normal=5, n_huge=5, value=1e200):
    rng = np.random.default_rng(0)
    return np.vstack([rng.normal(size=(n_normal, 3)), np.full((n_huge, 3), value)])


def test_prim_with_infinite_distances_gives_a_valid_tree():
    # item 1: `nearest[j]` was left uninitialised when no distance to the tree was finite and
    # then used as an index (SIGSEGV)
    D = np.ones((6, 6))
    D[:3, 3:] = D[3:, :3] = np.inf
    np.fill_diagonal(D, 0.0)
    Z = np.empty((5, 4))
    mst_single_linkage(D, Z, "precomputed")
    assert is_valid_linkage(Z)
    assert np.sum(np.isinf(Z[:, 2])) == 1 and Z[-1, 3] == 6


@pytest.mark.parametrize("method", ["complete", "average", "ward"])
def test_nn_chain_with_no_finite_distance_merges_distinct_clusters(method):
    # item 3: a stale index made D[-1] readable and produced self-merges
    n = 5
    Z = np.empty((n - 1, 4))
    nn_chain_linkage(np.full(n * (n - 1) // 2, np.inf), n, Z, method)
    assert is_valid_linkage(Z)
    assert np.all(Z[:, 0] != Z[:, 1]) and Z[-1, 3] == n


@pytest.mark.parametrize("estimator", [
    AgglomerativeClustering(linkage="single"),
    AgglomerativeClustering(linkage="ward"),
    SpectralClustering(2, affinity="epsilon", random_state=0),
    SpectralEmbedding(affinity="epsilon", random_state=0),
    DBSCAN(),
    KMeans(2, random_state=0),
    GaussianMixture(2, random_state=0),
    PCA(2),
    MDS(random_state=0),
], ids=lambda est: type(est).__name__)
def test_values_near_the_float_maximum_are_refused(estimator):
    # item 5: distances overflow to inf, then NaN or a crash; now a clear error
    with pytest.raises(ValueError, match="overflow float64"):
        estimator.fit(_huge())
    with pytest.raises(ValueError, match="overflow float64"):
        AgglomerativeClustering(linkage="single", metric="manhattan").fit(_huge(value=1e307))


def _graph(n, dense=False):
    A = np.ones((n, n)) - np.eye(n) if dense else np.diag(np.ones(n - 1), 1)
    A = np.maximum(A, A.T)
    return (A, [0] * n)


def test_geometric_walk_checks_the_new_graphs_with_themselves():
    # item 4: with normalize, K(test, test) diverged and cosines came out above 1
    from kernelkit.kernels import GeometricWalkKernel

    # λ·1·5 < 1 with the training graph, but λ·5·5 > 1 for the new graph with itself
    model = GeometricWalkKernel(lambda_=0.1, normalize=True).fit([_graph(2)])
    with pytest.raises(ValueError, match="too large"):
        model.transform([_graph(6, dense=True)])


def test_subtree_checks_the_degree_of_new_graphs_with_normalize():
    # item 4: a dense new graph sized a 2^degree matching table and the transform hung
    from kernelkit.kernels import SubtreeKernel

    model = SubtreeKernel(depth=2, normalize=True).fit([_graph(3)])
    with pytest.raises(ValueError, match="variant='subsets'"):
        model.transform([_graph(40, dense=True)])


@pytest.mark.parametrize("kernel", ["walk", "subtree"])
def test_overflowing_graph_kernels_raise(kernel):
    from kernelkit.kernels import SubtreeKernel, WalkKernel

    model = (WalkKernel(n=400) if kernel == "walk"
             else SubtreeKernel(depth=200, lambda_=50.0, variant="subsets"))
    with pytest.raises(ValueError, match="overflow float64"):
        model.fit_transform([_graph(12, dense=True)])


@pytest.mark.filterwarnings("ignore:RandomWalkKernel. conjugate gradients did not reach")
def test_random_walk_with_a_tolerance_below_rounding_is_finite():
    # item 4: with tol=1e-300 the residual underflowed to zero and CG divided 0 by 0 (314 NaN
    # entries of 400 on these molecules)
    from kernelkit.datasets import load_mutag
    from kernelkit.kernels import RandomWalkKernel

    graphs = load_mutag().graphs[:20]
    K = RandomWalkKernel(tol=1e-300).fit_transform(graphs)
    assert np.all(np.isfinite(K))
    np.testing.assert_allclose(K, RandomWalkKernel(tol=1e-12).fit_transform(graphs), rtol=1e-6)


def test_substring_underflow_is_reported():
    # item 4: the normalised Gram was silently all zero
    from kernelkit.kernels import SubstringKernel

    with pytest.raises(ValueError, match="underflows float64"):
        SubstringKernel(k=40, lambda_=1e-5, normalize=True).fit_transform(["ACDEFGHIKL" * 5])


def test_kmeans_with_fewer_weighted_samples_than_clusters_raises():
    # item 5: empty clusters were re-seeded with weightless samples, giving NaN centres
    X = np.random.default_rng(0).normal(size=(50, 2))
    weights = np.zeros(50)
    weights[:3] = 1.0
    with pytest.raises(ValueError, match="Only 3 samples have a positive weight"):
        KMeans(5, random_state=0).fit(X, sample_weight=weights)


def test_gaussian_mixture_pickle_round_trip_is_bit_identical():
    # item 10: the factors changed memory layout in the round trip and scores moved by 1e-15
    import pickle

    X = np.random.default_rng(0).normal(size=(200, 4))
    for covariance_type in ("full", "tied", "diag", "spherical"):
        model = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
        restored = pickle.loads(pickle.dumps(model))
        np.testing.assert_array_equal(restored.score_samples(X), model.score_samples(X))
        assert restored.precisions_cholesky_.flags.c_contiguous


def test_absurd_requests_are_refused_with_an_estimate():
    # item 7: these ran out of memory or looped for hours, uninterruptibly
    from kernelkit.decomposition import SparseRandomProjection
    from kernelkit.kernels import MismatchKernel, ShortestPathKernel

    with pytest.raises(ValueError, match=r"GiB of memory.*lower m"):
        MismatchKernel(k=10, m=5, alphabet="protein").fit(["ACDEFGHIKLMNPQ"] * 200)
    n = 10**5
    path = sp.diags_array([np.ones(n - 1), np.ones(n - 1)], offsets=[-1, 1], format="csr")
    with pytest.raises(ValueError, match=r"graphs of up to 100000 nodes would need .* GiB"):
        ShortestPathKernel().fit([(path, [0] * n)])
    with pytest.raises(ValueError, match=r"n_components=1000000000 .*GiB"):
        SparseRandomProjection(n_components=10**9).fit(np.ones((3, 1000)))


@pytest.mark.parametrize("make", [
    lambda: DBSCAN(min_samples=2**63),
    lambda: __import__("kernelkit.tree", fromlist=["x"]).DecisionTreeClassifier(
        min_samples_leaf=2**63),
    lambda: __import__("kernelkit.kernels", fromlist=["x"]).WalkKernel(n=2**63),
])
def test_integers_beyond_int64_are_refused_by_the_parameter_check(make):
    # an unbounded Interval(Integral) let 2**63 through to the C conversion (OverflowError)
    X, y = np.random.default_rng(0).normal(size=(6, 2)), np.array([0, 1] * 3)
    estimator = make()
    with pytest.raises(ValueError, match="must be an int in the range"):
        estimator.fit(X, y) if hasattr(estimator, "predict") else estimator.fit(X)


def test_dbscan_with_a_tiny_eps_falls_back_from_the_grid():
    # (range / eps) cells overflowed int64 in the grid's extent (OverflowError)
    X = np.random.default_rng(0).normal(size=(30, 2))
    np.testing.assert_array_equal(DBSCAN(eps=1e-300, min_samples=1).fit(X).labels_,
                                  np.arange(30))


def test_projections_that_overflow_are_refused():
    from kernelkit.decomposition import GaussianRandomProjection, SparseRandomProjection
    from kernelkit.kernel_approximation import RandomFourierFeatures

    X = np.random.default_rng(0).normal(size=(10, 5))
    for model in (GaussianRandomProjection(3, random_state=0),
                  SparseRandomProjection(3, random_state=0),
                  RandomFourierFeatures(random_state=0),
                  RandomFourierFeatures(kernel="sinc", random_state=0)):
        model.fit(X)
        W = (model.components_.T.toarray() if hasattr(model.components_, "toarray")
             else model.components_.T) if hasattr(model, "components_") else model.random_weights_
        # a row aligned with the signs of the largest column: x·w = 1.7e308 Σ|w| overflows
        column = np.argmax(np.abs(W).sum(axis=0))
        assert np.abs(W[:, column]).sum() > 1.1
        huge = 1.7e308 * np.sign(W[:, column])[None, :]
        with pytest.raises(ValueError, match="overflows float64"):
            model.transform(huge)
    # k(x, x) = (γ/π)^d of the sinc kernel: a ValueError, not Python's OverflowError
    with pytest.raises(ValueError, match="overflows float64"):
        RandomFourierFeatures(kernel="sinc", gamma=1e300).fit(X)


@pytest.mark.parametrize("loss", ["squared_error", "absolute_error"])
def test_boosting_with_an_overflowing_step_raises(loss):
    from kernelkit.ensemble import GradientBoostingRegressor

    X = np.random.default_rng(0).normal(size=(50, 3))
    with pytest.raises(ValueError, match="learning_rate"):
        GradientBoostingRegressor(n_estimators=5, learning_rate=1e300, loss=loss).fit(
            X, X[:, 0])


def test_simple_mkl_regressor_refuses_targets_whose_objective_overflows():
    # the boundary moves of the reduced gradient looped forever on NaN objectives
    from kernelkit.mkl import SimpleMKLRegressor

    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.where(np.arange(20) % 2, 1e300, -1e300)
    with pytest.raises(ValueError, match="y has entries as large as"):
        SimpleMKLRegressor(["linear", "rbf"]).fit(X, y)


def test_a_single_graph_instead_of_a_list_is_named():
    # item 8: a networkx graph iterates over its nodes ("graph 0 is a int")
    import networkx as nx

    from kernelkit.kernels import WeisfeilerLehmanKernel

    g = nx.path_graph(4)
    nx.set_node_attributes(g, "a", "label")
    single = (np.eye(3), ["a", "b", "a"])
    for X in (g, single):
        with pytest.raises(TypeError, match="single graph"):
            WeisfeilerLehmanKernel().fit_transform(X)
    assert WeisfeilerLehmanKernel().fit_transform([g]).shape == (1, 1)


def test_numpy_integers_are_accepted_as_n_jobs():
    # item 8: grid searches pass numpy integers
    from kernelkit.kernels import SpectrumKernel
    from kernelkit.svm import SVC

    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.arange(20) % 2
    np.testing.assert_array_equal(SVC(n_jobs=np.int64(2)).fit(X, y).predict(X),
                                  SVC(n_jobs=1).fit(X, y).predict(X))
    assert KMeans(2, n_jobs=np.int64(2), n_init=1, random_state=0).fit(X).n_iter_ >= 1
    K = SpectrumKernel(k=2, n_jobs=np.int64(2)).fit_transform(["ACDE", "ACDF"])
    np.testing.assert_array_equal(K, SpectrumKernel(k=2, n_jobs=1).fit_transform(["ACDE",
                                                                                  "ACDF"]))


@pytest.mark.parametrize("y_kind", ["constant", "inside the tube"])
def test_svr_without_support_vectors_predicts_the_intercept(y_kind):
    # item 6: every sample inside the ε-tube leaves no support vector
    from kernelkit.svm import SVR

    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.full(30, 2.5) if y_kind == "constant" else 0.01 * X[:, 0]
    model = SVR(epsilon=1.0).fit(X, y)
    assert model.support_.size == 0
    prediction = model.predict(X)
    assert np.isfinite(prediction).all() and np.ptp(prediction) == 0.0
    assert abs(prediction[0] - np.median(y)) <= 1.0 + 1e-12


@pytest.mark.parametrize("X", [np.ones((10, 2)), np.repeat([[0.0, 0.0], [1.0, 1.0]], 5, axis=0)])
def test_kmedoids_on_duplicated_points(X):
    # the bounds-checked build stopped at the first row of an empty selection of clusters to
    # update (every cluster unchanged): in-cluster costs of no sample now return at once
    from kernelkit.cluster import KMedoids

    model = KMedoids(n_clusters=3, random_state=0).fit(X)
    assert model.inertia_ == 0.0
    assert set(np.unique(model.labels_)) <= {0, 1, 2}


@pytest.mark.parametrize("score", [1000.0, 1e300])
def test_local_alignment_with_large_scores_is_finite_or_refused(score):
    # item 5: scores all equal (spread 0) passed the spread check, then exp(beta * S) or the rows
    # it multiplies overflowed: NaN Gram (1000) or an overflow warning (1e300)
    from kernelkit.kernels import LocalAlignmentKernel

    letters = "ACDEFG"
    substitution = (letters, np.full((6, 6), score))
    sequences = ["ACDEFG", "ACD", "GFE"]
    if score > 1e3:
        with pytest.raises(ValueError, match="too large for these scores"):
            LocalAlignmentKernel(substitution=substitution).fit(sequences)
        return
    K = LocalAlignmentKernel(substitution=substitution, log=True, normalize=False)
    log_k = K.fit_transform(sequences)
    assert np.isfinite(log_k).all()
    # the best alignment of x with itself matches all its letters: log K >= beta * score * |x|
    assert log_k[0, 0] >= 0.5 * score * 6
    normalized = LocalAlignmentKernel(substitution=substitution).fit_transform(sequences)
    np.testing.assert_allclose(np.diag(normalized), 1.0)


@pytest.mark.parametrize("X", [np.zeros((12, 3)), np.ones((12, 3))])
def test_kernel_pca_with_arpack_on_identical_samples(X):
    # item 8: the centred Gram of identical samples is zero, ARPACK's Krylov space collapsed and
    # scipy's ArpackError ("Starting vector is zero") escaped
    from kernelkit.decomposition import KernelPCA

    Z = KernelPCA(2, kernel="rbf", eigen_solver="arpack", random_state=0).fit_transform(X)
    np.testing.assert_array_equal(Z, np.zeros((12, 2)))


def test_sammon_mapping_of_tiny_distances():
    # item 8: weights 1/D of 1e160 rounded away the 11ᵀ/n term of the weighted SMACOF solver and
    # the Cholesky factorisation raised numpy's LinAlgError; Sammon's stress is scale-invariant
    from kernelkit.manifold import SammonMapping

    X = np.random.default_rng(0).normal(size=(15, 3))
    reference = SammonMapping(random_state=0).fit(X)
    model = SammonMapping(random_state=0).fit(X * 1e-160)
    assert np.isfinite(model.embedding_).all()
    # same stress up to the stopping rule's tolerance
    np.testing.assert_allclose(model.stress_, reference.stress_, rtol=1e-2)


def test_absurd_walk_lengths_end_early():
    # item 7: WalkKernel(n=10**9) ran 10⁹ mat-vecs per pair, uninterruptibly; the counts are
    # non-negative, so once they overflow (any path) or vanish (no edges) the walk stops
    import networkx as nx

    from kernelkit.kernels import WalkKernel

    path = nx.path_graph(3)
    empty = nx.empty_graph(3)
    for g in (path, empty):
        nx.set_node_attributes(g, "a", "label")
    with pytest.raises(ValueError, match="overflow"):
        WalkKernel(n=10**9).fit_transform([path, path])
    np.testing.assert_array_equal(WalkKernel(n=10**9).fit_transform([empty, empty]),
                                  np.zeros((2, 2)))
