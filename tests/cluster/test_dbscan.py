"""DBSCAN: oracles are scikit-learn's DBSCAN, the reference twin, single linkage (Sangnier
Remark 2.4.1) and the order invariance of core and noise points (Sangnier §2.4)."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.cluster import DBSCAN as SklearnDBSCAN
from sklearn.datasets import load_digits, load_iris, load_wine, make_blobs, make_moons
from sklearn.metrics import adjusted_rand_score, pairwise_distances
from sklearn.neighbors import radius_neighbors_graph
from sklearn.preprocessing import StandardScaler

from kernelkit import reference
from kernelkit._core import _dbscan_expansion, _dbscan_gemm
from kernelkit.cluster import DBSCAN, AgglomerativeClustering


def _core_mask(model, n):
    mask = np.zeros(n, dtype=bool)
    mask[model.core_sample_indices_] = True
    return mask


def _datasets():
    rng = np.random.default_rng(0)
    iris = load_iris().data
    wine = StandardScaler().fit_transform(load_wine().data)
    digits = load_digits().data
    moons = make_moons(600, noise=0.08, random_state=0)[0]
    blobs3 = make_blobs(800, n_features=3, centers=4, cluster_std=0.6, random_state=1)[0]
    uniform2 = rng.uniform(size=(1500, 2))
    # (name, X, {metric: eps}, min_samples), radii giving several clusters and some noise
    return [
        ("iris", iris, {"euclidean": 0.5, "manhattan": 0.9}, 5),
        ("wine", wine, {"euclidean": 2.07, "manhattan": 5.52}, 5),
        ("digits", digits, {"euclidean": 18.9, "manhattan": 54.6}, 6),
        ("moons", moons, {"euclidean": 0.1, "manhattan": 0.12}, 5),
        ("blobs3", blobs3, {"euclidean": 0.5, "manhattan": 0.8}, 8),
        ("uniform2", uniform2, {"euclidean": 0.024, "manhattan": 0.03}, 4),
    ]


@pytest.mark.parametrize("name, X, radii, min_samples", _datasets(),
                         ids=[case[0] for case in _datasets()])
@pytest.mark.parametrize("metric", ["euclidean", "manhattan"])
def test_matches_sklearn_on_real_and_synthetic_data(name, X, radii, min_samples, metric):
    eps = radii[metric]
    ours = DBSCAN(eps=eps, min_samples=min_samples, metric=metric).fit(X)
    theirs = SklearnDBSCAN(eps=eps, min_samples=min_samples, metric=metric).fit(X)
    n = X.shape[0]
    assert ours.labels_.max() >= 1, "case too easy: fewer than two clusters"
    np.testing.assert_array_equal(_core_mask(ours, n), _core_mask(theirs, n))
    np.testing.assert_array_equal(ours.labels_ == -1, theirs.labels_ == -1)
    # Same growth order (clusters from core points in sample order, border to the first
    # cluster reaching it) gives the very same labels.
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(ours.components_, X[ours.core_sample_indices_])


@pytest.mark.parametrize("n_features", [1, 2, 3, 5])
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "chebyshev"])
@pytest.mark.parametrize("algorithm", ["grid", "kd_tree"])
def test_compiled_matches_reference(random_seed, n_features, metric, algorithm):
    rng = np.random.default_rng(random_seed)
    X = rng.normal(size=(300, n_features))
    X[:20] = X[20:40]  # duplicates
    eps = {1: 0.05, 2: 0.25, 3: 0.45, 5: 0.9}[n_features]
    out = [(np.empty(300, np.intp), np.empty(300, np.uint8)) for _ in range(2)]
    n_ours = _dbscan_expansion.dbscan_dense(X, eps, 4, *out[0], metric=metric,
                                            algorithm=algorithm, n_threads=2)
    n_ref = reference.dbscan_dense(X, eps, 4, *out[1], metric=metric)
    assert n_ours == n_ref
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_array_equal(out[0][1], out[1][1])


@pytest.mark.parametrize("n_features", [2, 3])
def test_sparse_grid_layout_matches_reference(rng, n_features):
    # tight groups far apart: the grid has far more cells than points, so occupied cells are
    # found by bisection instead of the direct table
    centres = rng.uniform(size=(60, n_features))
    X = np.repeat(centres, 5, axis=0) + rng.normal(scale=1e-3, size=(300, n_features))
    out = [(np.empty(300, np.intp), np.empty(300, np.uint8)) for _ in range(2)]
    n_ours = _dbscan_expansion.dbscan_dense(X, 2.5e-3, 3, *out[0], algorithm="grid")
    assert n_ours == reference.dbscan_dense(X, 2.5e-3, 3, *out[1]) > 10
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_array_equal(out[0][1], out[1][1])


def test_precomputed_entries_match_reference(rng):
    X = rng.normal(size=(200, 2))
    D = pairwise_distances(X)
    graph = radius_neighbors_graph(X, 0.5, mode="distance")
    for compiled, ref, args in [
        (_dbscan_expansion.dbscan_precomputed_dense, reference.dbscan_precomputed_dense, (D,)),
        (_dbscan_expansion.dbscan_precomputed_sparse, reference.dbscan_precomputed_sparse,
         (graph.data, graph.indices.astype(np.intp), graph.indptr.astype(np.intp))),
    ]:
        out = [(np.empty(200, np.intp), np.empty(200, np.uint8)) for _ in range(2)]
        assert compiled(*args, 0.3, 5, *out[0]) == ref(*args, 0.3, 5, *out[1])
        np.testing.assert_array_equal(out[0][0], out[1][0])
        np.testing.assert_array_equal(out[0][1], out[1][1])


@given(
    X=arrays(np.float64, st.tuples(st.integers(1, 40), st.integers(1, 4)),
             elements=st.integers(-6, 6).map(lambda v: v / 4)),
    eps=st.sampled_from([0.2, 0.25, 0.5, 1.0]),
    min_samples=st.integers(1, 5),
)
def test_property_compiled_matches_reference_on_lattices(X, eps, min_samples):
    # Lattice points put many distances exactly at eps: the ≤ boundary and ties are exercised.
    n = X.shape[0]
    for algorithm in ("grid", "kd_tree"):
        out = [(np.empty(n, np.intp), np.empty(n, np.uint8)) for _ in range(2)]
        _dbscan_expansion.dbscan_dense(X, eps, min_samples, *out[0], algorithm=algorithm)
        reference.dbscan_dense(X, eps, min_samples, *out[1])
        np.testing.assert_array_equal(out[0][0], out[1][0])
        np.testing.assert_array_equal(out[0][1], out[1][1])


def test_min_samples_two_is_single_linkage_cut_at_eps(random_seed):
    # Seed 003 Remark 2.4.1: clusters of size ≥ 2 are the single-linkage clusters with merges at
    # height ≤ eps; single-linkage singletons are DBSCAN noise.
    rng = np.random.default_rng(random_seed)
    X = rng.uniform(size=(400, 2))
    eps = 0.03
    labels = DBSCAN(eps=eps, min_samples=2).fit(X).labels_
    cut = AgglomerativeClustering(n_clusters=None, linkage="single",
                                  distance_threshold=np.nextafter(eps, np.inf)).fit(X).labels_
    sizes = np.bincount(cut)
    np.testing.assert_array_equal(labels == -1, sizes[cut] == 1)
    clustered = labels != -1
    assert adjusted_rand_score(labels[clustered], cut[clustered]) == 1.0


def test_core_and_noise_invariant_to_row_order(random_seed):
    rng = np.random.default_rng(random_seed)
    X = make_blobs(500, centers=3, cluster_std=1.5, random_state=random_seed)[0]
    perm = rng.permutation(500)
    a = DBSCAN(eps=0.6, min_samples=6).fit(X)
    b = DBSCAN(eps=0.6, min_samples=6).fit(X[perm])
    np.testing.assert_array_equal(_core_mask(a, 500)[perm], _core_mask(b, 500))
    np.testing.assert_array_equal((a.labels_ == -1)[perm], b.labels_ == -1)
    core = _core_mask(b, 500)
    assert adjusted_rand_score(a.labels_[perm][core], b.labels_[core]) == 1.0


def test_every_point_within_eps_of_a_core_point_is_clustered(rng):
    X = rng.normal(size=(400, 3))
    model = DBSCAN(eps=0.4, min_samples=5).fit(X)
    D = pairwise_distances(X, X[model.core_sample_indices_])
    near_core = (D <= 0.4).any(axis=1)
    np.testing.assert_array_equal(model.labels_ != -1, near_core)


def test_result_does_not_depend_on_threads_or_algorithm(rng):
    X = rng.normal(size=(3000, 2))
    results = [DBSCAN(eps=0.1, min_samples=5, n_jobs=n_jobs, algorithm=algorithm).fit(X).labels_
               for n_jobs in (1, 2) for algorithm in ("grid", "kd_tree")]
    for labels in results[1:]:
        np.testing.assert_array_equal(labels, results[0])


def test_precomputed_dense_and_sparse_match_euclidean(rng):
    X = rng.normal(size=(300, 2))
    expected = DBSCAN(eps=0.3, min_samples=5).fit(X).labels_
    dense = DBSCAN(eps=0.3, min_samples=5, metric="precomputed").fit(pairwise_distances(X))
    np.testing.assert_array_equal(dense.labels_, expected)
    # a graph built once at a larger radius serves every smaller eps
    graph = radius_neighbors_graph(X, 0.5, mode="distance")
    for eps in (0.2, 0.3, 0.5):
        labels = DBSCAN(eps=eps, min_samples=5, metric="precomputed").fit(graph).labels_
        np.testing.assert_array_equal(labels, DBSCAN(eps=eps, min_samples=5).fit(X).labels_)


def test_other_metrics_go_through_a_radius_graph(rng):
    X = rng.normal(size=(200, 4))
    ours = DBSCAN(eps=0.2, min_samples=4, metric="cosine").fit(X)
    theirs = SklearnDBSCAN(eps=0.2, min_samples=4, metric="cosine").fit(X)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)


def test_grid_falls_back_to_kd_tree_for_tiny_eps():
    X = np.array([[0.0, 0.0], [1e-12, 0.0], [1e9, 1e9], [1e9, 1e9 + 1e-12]])
    labels = DBSCAN(eps=1e-11, min_samples=2, algorithm="grid").fit(X).labels_
    np.testing.assert_array_equal(labels, [0, 0, 1, 1])


def test_min_samples_one_makes_every_point_core():
    X = np.array([[0.0], [10.0], [20.0]])
    model = DBSCAN(eps=1.0, min_samples=1).fit(X)
    np.testing.assert_array_equal(model.labels_, [0, 1, 2])
    np.testing.assert_array_equal(model.core_sample_indices_, [0, 1, 2])


@pytest.mark.parametrize("params, match", [
    (dict(eps=0.0), "eps"),
    (dict(eps=-1.0), "eps"),
    (dict(min_samples=0), "min_samples"),
    (dict(metric="nope"), "metric"),
])
def test_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        DBSCAN(**params).fit(np.zeros((5, 2)))


def test_bad_input():
    with pytest.raises(ValueError, match="NaN"):
        DBSCAN().fit(np.array([[0.0, np.nan], [1.0, 1.0]]))
    with pytest.raises(ValueError, match="square"):
        DBSCAN(metric="precomputed").fit(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="negative"):
        DBSCAN(metric="precomputed").fit(-np.ones((3, 3)))
    with pytest.raises(ValueError, match="negative"):
        DBSCAN(metric="precomputed").fit(sp.csr_matrix(-np.ones((3, 3))))
    with pytest.raises(TypeError, match="[Ss]parse"):
        DBSCAN().fit(sp.csr_matrix(np.ones((3, 3))))
    with pytest.raises(ValueError, match="empty|0 sample"):
        DBSCAN().fit(np.zeros((0, 2)))


def test_grid_extent_and_cell_keys_agree():
    # The grid's extent and the cell keys must come from the same floor of the quotient: computed
    # two ways (Python's float // and C's floor) they disagree by one here, the second point's key
    # runs past its axis and the two neighbours are not found (labels [0, -1]).
    model = DBSCAN(eps=0.01, min_samples=1).fit([[0.0], [0.14000014]])
    np.testing.assert_array_equal(model.labels_, [0, 1])
    rng = np.random.default_rng(0)
    for eps in (0.01, 0.07, 0.14000014 / 7, 0.3):
        X = np.round(rng.uniform(0, 1, size=(2000, 2)) / eps) * eps   # points on cell borders
        np.testing.assert_array_equal(DBSCAN(eps=eps, min_samples=3).fit(X).labels_,
                                      DBSCAN(eps=eps, min_samples=3, algorithm="kd_tree")
                                      .fit(X).labels_)


@pytest.mark.parametrize("metric", ["euclidean", "braycurtis"])
def test_verbose_prints_one_line_and_changes_nothing(metric, capsys):
    X, _ = make_blobs(300, centers=3, random_state=0)
    quiet = DBSCAN(eps=0.8, metric=metric).fit(X)
    assert capsys.readouterr().err == ""
    loud = DBSCAN(eps=0.8, metric=metric, verbose=1).fit(X)
    np.testing.assert_array_equal(quiet.labels_, loud.labels_)
    lines = capsys.readouterr().err.splitlines()
    n_clusters = quiet.labels_.max() + 1
    assert lines[-1].startswith(f"[DBSCAN] {n_clusters} clusters, "
                                f"{quiet.core_sample_indices_.size} core samples, ")
    # a metric without a compiled index builds the neighbourhood graph in its own stage
    assert len(lines) == (1 if metric == "euclidean" else 2)


def test_tiny_eps_falls_back_from_the_grid():
    # (range / eps) grid cells overflowed int64 in the grid's extent (OverflowError)
    X = np.random.default_rng(0).normal(size=(30, 2))
    np.testing.assert_array_equal(DBSCAN(eps=1e-300, min_samples=1).fit(X).labels_,
                                  np.arange(30))


def test_malformed_sparse_distances_are_refused(sparse_inputs):
    """Inconsistent index arrays of a precomputed graph are refused before the compiled
    neighbourhood search reads them."""
    sparse_inputs.assert_refused("""
        from sklearn.neighbors import radius_neighbors_graph
        from kernelkit.cluster import DBSCAN
        Z = np.random.default_rng(0).normal(size=(30, 2))
        def make():
            return radius_neighbors_graph(Z, 1.0, mode="distance")
        """, ["DBSCAN(eps=0.5, min_samples=3, metric='precomputed').fit(X)"])


def test_every_sparse_layout_gives_the_clusters_of_the_csr_graph(rng, sparse_inputs):
    graph = radius_neighbors_graph(rng.normal(size=(60, 2)), 0.6, mode="distance")
    expected = DBSCAN(eps=0.4, min_samples=4, metric="precomputed").fit(graph)
    for case, given in sparse_inputs.equivalent(graph):
        model = DBSCAN(eps=0.4, min_samples=4, metric="precomputed").fit(given)
        np.testing.assert_array_equal(model.labels_, expected.labels_, err_msg=case)
        np.testing.assert_array_equal(model.core_sample_indices_,
                                      expected.core_sample_indices_, err_msg=case)
def _run_core(entry, X, eps, min_samples, progress, **options):
    """``(labels, is_core, calls)`` of a core entry; ``progress`` gets each call recorded."""
    n = X.shape[0]
    labels, is_core, calls = np.empty(n, np.intp), np.empty(n, np.uint8), []

    def record(stage, done, total):
        calls.append((stage, done, total))
        if progress is not None:
            progress(stage, done, total)

    if entry == "sparse":
        X = sp.csr_matrix(X)
        _dbscan_expansion.dbscan_precomputed_sparse(X.data, X.indices.astype(np.intp),
                                                    X.indptr.astype(np.intp), eps, min_samples,
                                                    labels, is_core, 2, progress=record)
    elif entry == "gemm":
        _dbscan_gemm.dbscan_gemm(X, eps, min_samples, labels, is_core, n_threads=2,
                                 progress=record, **options)
    elif entry == "precomputed":
        _dbscan_expansion.dbscan_precomputed_dense(X, eps, min_samples, labels, is_core, 2,
                                                   progress=record)
    else:
        _dbscan_expansion.dbscan_dense(X, eps, min_samples, labels, is_core, n_threads=2,
                                       progress=record, **options)
    return labels, is_core, calls


_PASSES = [  # (entry, options, data, stages reported)
    ("dense", dict(algorithm="grid"), "blobs2", {0, 1}),
    ("dense", dict(algorithm="kd_tree", metric="manhattan"), "blobs5", {0, 1}),
    ("gemm", {}, "blobs20", {0}),   # the ε-graph's bitmap: one pass
    ("gemm", dict(max_graph_bytes=0), "blobs20", {0, 1, 2}),
    ("precomputed", {}, "distances", {0, 1}),
    ("sparse", {}, "graph", {0, 1}),
]


def _progress_data(name):
    n_features = {"blobs2": 2, "blobs5": 5}.get(name, 20)
    X = make_blobs(1500, n_features=n_features, centers=4, cluster_std=0.7, random_state=0)[0]
    eps = {"blobs2": 0.35, "blobs5": 1.2}.get(name, 3.5)
    if name == "distances":
        return pairwise_distances(X), eps
    if name == "graph":
        return radius_neighbors_graph(X, 2 * eps, mode="distance").toarray(), eps
    return X, eps


@pytest.mark.parametrize("entry, options, data, stages", _PASSES,
                         ids=["grid", "kd_tree", "gemm", "gemm-core-passes", "precomputed",
                              "sparse"])
def test_core_reports_every_pass_in_chunks(entry, options, data, stages):
    X, eps = _progress_data(data)
    labels, is_core, calls = _run_core(entry, X, eps, 5, None, **options)
    expected_labels, expected_core = np.empty_like(labels), np.empty_like(is_core)
    if entry in ("dense", "gemm"):
        reference.dbscan_dense(X, eps, 5, expected_labels, expected_core,
                               metric=options.get("metric", "euclidean"))
    else:   # the graph's absent entries are no neighbours
        distances = X if entry == "precomputed" else np.where(X > 0, X, np.inf)
        np.fill_diagonal(distances, 0.0)
        reference.dbscan_precomputed_dense(distances, eps, 5, expected_labels, expected_core)
    np.testing.assert_array_equal(is_core, expected_core)
    assert adjusted_rand_score(labels, expected_labels) == 1.0
    assert 0 < labels.max() and 0 < is_core.sum() < len(X)   # clusters, border points or noise
    assert {stage for stage, _, _ in calls} == stages
    for stage in stages:
        done = [d for s, d, _ in calls if s == stage]
        totals = {t for s, _, t in calls if s == stage}
        # at most 20 reports a pass, increasing, the last one at the total
        assert 1 <= len(done) <= 20 and done == sorted(set(done)) and done[-1] == totals.pop()
        assert not totals
    assert len([stage for stage, _, _ in calls if stage == 0]) > 1


@pytest.mark.parametrize("entry, options, data, stages", _PASSES[:2] + _PASSES[3:4],
                         ids=["grid", "kd_tree", "gemm-core-passes"])
@pytest.mark.parametrize("raise_at", [0, 1])
def test_what_progress_raises_stops_the_core_and_propagates(entry, options, data, stages,
                                                            raise_at):
    X, eps = _progress_data(data)

    def stop(stage, done, total):
        if stage == raise_at:
            raise RuntimeError(f"stopped in stage {stage} at {done}/{total}")

    with pytest.raises(RuntimeError, match=f"stopped in stage {raise_at} at "):
        _run_core(entry, X, eps, 5, stop, **options)
    # the core is usable again (nothing left set)
    labels, _, _ = _run_core(entry, X, eps, 5, None, **options)
    assert labels.max() > 0


@pytest.mark.parametrize("metric, algorithm, n_features",
                         [("euclidean", "auto", 2), ("euclidean", "kd_tree", 5),
                          ("euclidean", "brute", 20), ("precomputed", "auto", 2),
                          ("braycurtis", "auto", 2)])
def test_verbose_prints_progress_lines_during_the_fit(metric, algorithm, n_features, capsys,
                                                      monkeypatch):
    from kernelkit.utils import _progress

    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "INTERVAL", 0.0)
    X = make_blobs(1500, n_features=n_features, centers=4, cluster_std=0.7, random_state=0)[0]
    eps = {2: 0.35, 5: 1.2, 20: 3.5}[n_features] if metric != "braycurtis" else 0.05
    if metric == "precomputed":
        X = pairwise_distances(X)
    quiet = DBSCAN(eps=eps, metric=metric, algorithm=algorithm).fit(X)
    assert capsys.readouterr().err == ""
    loud = DBSCAN(eps=eps, metric=metric, algorithm=algorithm, verbose=1).fit(X)
    np.testing.assert_array_equal(quiet.labels_, loud.labels_)
    lines = capsys.readouterr().err.splitlines()
    counting = [line for line in lines if line.startswith("[DBSCAN] counting neighbours: ")]
    assert 1 < len(counting) <= 20
    assert counting[-1].startswith("[DBSCAN] counting neighbours: 1500/1500 samples, ")
    if algorithm != "brute":
        assert any(line.startswith("[DBSCAN] growing clusters: ") for line in lines)
    assert lines[-1].startswith(f"[DBSCAN] {quiet.labels_.max() + 1} clusters, ")
