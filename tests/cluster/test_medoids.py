"""k-medoids and k-medians (Sangnier §2.2.2, coverage entry B3): the compiled core against its twin
and the kmedoids package, the seed's properties (medoid update = brute force, monotone objective,
centres are data points), PAM against the alternate method, kernel distances on graphs and
strings."""

import numpy as np
import pytest
from sklearn.datasets import load_digits, make_blobs
from sklearn.metrics import pairwise_distances
from threadpoolctl import threadpool_limits

from kernelkit._core import _fasterpam, _kmedians
from kernelkit._core import _kmedoids as core
from kernelkit.cluster import KMedians, KMedoids
from kernelkit.datasets import load_mutag, load_secreted_proteins
from kernelkit.kernels import (
    SpectrumKernel,
    WeisfeilerLehmanKernel,
    kernel_distances,
    linear_kernel,
)
from kernelkit.reference import kmedoids as twin

EMPTY_MATRIX, EMPTY_VECTOR = np.empty((0, 0)), np.empty(0)
PRECOMPUTED = core.METRICS["precomputed"]


def _pam(module, D, medoids, *, X=EMPTY_MATRIX, metric=PRECOMPUTED, max_iter=100, n_threads=1):
    n = D.shape[0] if metric == PRECOMPUTED else X.shape[0]
    medoids = np.array(medoids, dtype=np.intp)
    labels, distances, history = np.empty(n, np.int32), np.empty(n), np.empty(max_iter)
    sqnorms = EMPTY_VECTOR if metric == PRECOMPUTED else np.einsum("ij,ij->i", X, X)
    loss, n_iter, n_swaps = module.fasterpam(D, X, sqnorms, metric, medoids, labels, distances,
                                             history, max_iter, n_threads)
    return medoids, labels, distances, loss, n_iter, n_swaps, history[:n_iter]


def _loss(D, medoids):
    return D[medoids].min(axis=0).sum()


def _is_swap_optimal(D, medoids):
    """PAM's fixed point: no single (medoid, non-medoid) swap lowers the loss."""
    best = _loss(D, medoids)
    for slot in range(len(medoids)):
        others = D[np.delete(medoids, slot)].min(axis=0, initial=np.inf)
        swapped = np.minimum(others[None, :], D).sum(axis=1)   # every candidate at once
        if np.min(swapped) < best * (1 - 1e-12):
            return False
    return True


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("k", [1, 2, 6])
def test_fasterpam_equals_the_twin(rng, dtype, k):
    X = rng.normal(size=(150, 3))
    D = pairwise_distances(X).astype(dtype)
    init = rng.choice(150, k, replace=False)
    fast = KMedoids(k, metric="precomputed", method="pam", init=init, max_iter=100).fit(D)
    slow = _pam(twin, D, init)
    rel = 1e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_array_equal(fast.medoid_indices_, slow[0])
    np.testing.assert_array_equal(fast.labels_, slow[1])
    assert fast.inertia_ == pytest.approx(slow[3], rel=rel)
    assert (fast.n_iter_, fast.n_swaps_) == slow[4:6]
    np.testing.assert_allclose(fast.inertia_history_, slow[6], rtol=rel)
    assert fast.inertia_ == pytest.approx(_loss(D.astype(np.float64), slow[0]), rel=1e-6)
    assert _is_swap_optimal(D.astype(np.float64), slow[0])


def test_fasterpam_on_the_fly_equals_the_precomputed_matrix(rng):
    # the on-the-fly rows are the very numbers of the precomputed matrix, so the runs coincide
    X = rng.normal(size=(300, 4))
    X -= X.mean(axis=0)
    sqnorms = np.einsum("ij,ij->i", X, X)
    init = rng.choice(300, 7, replace=False)
    for metric in ("euclidean", "sqeuclidean"):
        code = core.METRICS[metric]
        D = np.empty((300, 300))
        with threadpool_limits(limits=1, user_api="blas"):
            core.distance_matrix(X, sqnorms, code, D, 1)
            on_the_fly = _pam(_fasterpam, EMPTY_MATRIX, init, X=X, metric=code)
            matrix = _pam(_fasterpam, D, init)
        expected = pairwise_distances(X) ** (2 if metric == "sqeuclidean" else 1)
        np.testing.assert_allclose(D, expected, rtol=1e-9, atol=1e-9)
        assert np.all(np.diag(D) == 0)
        np.testing.assert_array_equal(on_the_fly[0], matrix[0])
        assert on_the_fly[3] == matrix[3]
        np.testing.assert_array_equal(on_the_fly[2], matrix[2])


@pytest.mark.parametrize("metric", ["precomputed", "euclidean"])
def test_results_do_not_depend_on_the_thread_count(metric):
    # 2100 samples: above the size where candidates are evaluated in parallel windows
    X, _ = make_blobs(2100, n_features=3, centers=8, random_state=0)
    X -= X.mean(axis=0)
    D = pairwise_distances(X) if metric == "precomputed" else EMPTY_MATRIX
    code = core.METRICS[metric]
    init = np.random.default_rng(0).choice(2100, 8, replace=False)
    with threadpool_limits(limits=1, user_api="blas"):
        runs = [_pam(_fasterpam, D, init, X=X if code != PRECOMPUTED else EMPTY_MATRIX,
                     metric=code, n_threads=t) for t in (1, 2)]
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert runs[0][3] == runs[1][3] and runs[0][5] == runs[1][5]
    np.testing.assert_array_equal(runs[0][2], runs[1][2])
    # the alternate method: in-cluster costs and the k-means assignment in threads
    data = D if metric == "precomputed" else X
    fits = [KMedoids(8, metric=metric, init=init, n_jobs=t).fit(data) for t in (1, 2)]
    np.testing.assert_array_equal(fits[0].medoid_indices_, fits[1].medoid_indices_)
    assert fits[0].inertia_history_.tolist() == fits[1].inertia_history_.tolist()


def test_fasterpam_equals_the_kmedoids_package_on_digits():
    kmedoids = pytest.importorskip("kmedoids")
    X = load_digits().data
    D = pairwise_distances(X)
    init = np.random.default_rng(0).choice(len(X), 10, replace=False)
    ours = _pam(_fasterpam, D, init, n_threads=2)
    theirs = kmedoids.fasterpam(D, init.copy(), max_iter=100, n_cpu=1)
    np.testing.assert_array_equal(ours[0], np.asarray(theirs.medoids, dtype=np.intp))
    assert ours[3] == pytest.approx(theirs.loss, rel=1e-12)
    assert ours[5] == theirs.n_swap
    model = KMedoids(10, method="pam", init=init).fit(X)
    assert model.inertia_ == pytest.approx(theirs.loss, rel=1e-9)


@pytest.mark.parametrize("metric", ["precomputed", "euclidean"])
def test_build_and_assignment_equal_the_twin(rng, metric):
    X = rng.normal(size=(120, 3))
    X -= X.mean(axis=0)
    sqnorms = np.einsum("ij,ij->i", X, X)
    code = core.METRICS[metric]
    D = pairwise_distances(X) if metric == "precomputed" else EMPTY_MATRIX
    args = (D, X if metric != "precomputed" else EMPTY_MATRIX,
            sqnorms if metric != "precomputed" else EMPTY_VECTOR, code)
    medoids = [np.empty(5, dtype=np.intp) for _ in range(2)]
    core.build_medoids(*args, medoids[0], 1)
    twin.build_medoids(*args, medoids[1])
    np.testing.assert_array_equal(*medoids)
    outputs = [(np.empty(120, np.int32), np.empty(120)) for _ in range(2)]
    losses = [module.assign_medoids(*args, medoids[0], *out, 1)
              for module, out in zip((core, twin), outputs)]
    np.testing.assert_array_equal(outputs[0][0], outputs[1][0])
    np.testing.assert_allclose(outputs[0][1], outputs[1][1], rtol=1e-9, atol=1e-12)
    assert losses[0] == pytest.approx(losses[1], rel=1e-12)


@pytest.mark.parametrize("metric", ["precomputed", "euclidean", "sqeuclidean"])
def test_in_cluster_costs_equal_brute_force(rng, metric):
    X = rng.normal(size=(200, 3))
    labels = rng.integers(0, 4, 200)
    order = np.argsort(labels, kind="stable").astype(np.intp)
    offsets = np.concatenate([[0], np.cumsum(np.bincount(labels, minlength=4))]).astype(np.intp)
    D = pairwise_distances(X) ** (2 if metric == "sqeuclidean" else 1)
    costs = np.empty(200)
    if metric == "precomputed":
        core.in_cluster_costs(D, EMPTY_MATRIX, order, offsets, PRECOMPUTED, costs, 2)
    else:
        core.in_cluster_costs(EMPTY_MATRIX, np.ascontiguousarray(X[order]), order, offsets,
                              core.METRICS[metric], costs, 2)
    brute = np.array([D[i, labels == labels[i]].sum() for i in order])
    np.testing.assert_allclose(costs, brute, rtol=1e-9)
    reference = np.empty(200)
    twin.in_cluster_costs(D, X[order], order, offsets,
                          PRECOMPUTED if metric == "precomputed" else core.METRICS[metric],
                          reference)
    np.testing.assert_allclose(costs, reference, rtol=1e-9)


@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean", "precomputed"])
def test_alternate_medoid_update_is_the_brute_force_argmin(rng, metric):
    # one alternate step from given medoids: each new medoid minimises the cluster's total
    # dissimilarity over the cluster's members (the choice documented for the seed's [AMBIG])
    X = rng.normal(size=(150, 2))
    D = pairwise_distances(X) ** (2 if metric == "sqeuclidean" else 1)
    init = rng.choice(150, 4, replace=False)
    model = KMedoids(4, metric=metric, init=init, max_iter=1)
    model.fit(D if metric == "precomputed" else X)
    labels = np.argmin(D[init], axis=0)
    for c in range(4):
        members = np.flatnonzero(labels == c)
        assert model.medoid_indices_[c] == members[np.argmin(D[np.ix_(members, members)].sum(1))]


@pytest.mark.parametrize("method", ["alternate", "pam"])
@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean", "precomputed"])
def test_objective_non_increasing_and_centres_are_samples(random_seed, method, metric):
    X, _ = make_blobs(300, n_features=3, centers=5, cluster_std=2.0, random_state=random_seed)
    D = pairwise_distances(X) ** (2 if metric == "sqeuclidean" else 1)
    model = KMedoids(5, metric=metric, method=method, random_state=random_seed)
    model.fit(D if metric == "precomputed" else X)
    history = model.inertia_history_
    assert len(history) == model.n_iter_
    assert np.all(np.diff(history) <= 1e-9 * history[0])
    assert model.inertia_ <= history[-1] * (1 + 1e-12)
    assert np.unique(model.medoid_indices_).size == 5
    assert model.inertia_ == pytest.approx(_loss(D, model.medoid_indices_), rel=1e-9)
    np.testing.assert_array_equal(model.labels_, np.argmin(D[model.medoid_indices_], axis=0))
    if metric != "precomputed":
        np.testing.assert_array_equal(model.cluster_centers_, X[model.medoid_indices_])
        np.testing.assert_array_equal(model.predict(X), model.labels_)
        np.testing.assert_allclose(model.transform(X), D[model.medoid_indices_].T, rtol=1e-9,
                                   atol=1e-9)
    else:
        assert model.cluster_centers_ is None
        np.testing.assert_array_equal(model.predict(D), model.labels_)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pam_reaches_an_objective_at_most_the_alternate_one(seed):
    X = load_digits().data[seed * 500:(seed + 1) * 500]
    init = np.random.default_rng(seed).choice(500, 10, replace=False)
    alternate = KMedoids(10, init=init).fit(X)
    pam = KMedoids(10, method="pam", init=init).fit(X)
    assert pam.inertia_ <= alternate.inertia_
    # PAM started from the alternate method's medoids never does worse than them
    polished = KMedoids(10, method="pam", init=alternate.medoid_indices_).fit(X)
    assert polished.inertia_ <= alternate.inertia_
    assert _is_swap_optimal(pairwise_distances(X), pam.medoid_indices_)


def test_on_the_fly_pam_beyond_working_memory_equals_the_matrix_path():
    import sklearn

    X = load_digits().data[:400]
    init = np.arange(0, 400, 40)
    in_memory = KMedoids(10, method="pam", init=init).fit(X)
    with sklearn.config_context(working_memory=1):   # 1 MiB: the 400² matrix does not fit
        streamed = KMedoids(10, method="pam", init=init, n_jobs=2).fit(X)
    np.testing.assert_array_equal(in_memory.medoid_indices_, streamed.medoid_indices_)
    assert in_memory.inertia_ == streamed.inertia_


def test_kernel_distance_on_mutag_graphs():
    # any kernel gives a distance: k-medoids on the Weisfeiler–Lehman distance of molecules
    mutag = load_mutag()
    K = WeisfeilerLehmanKernel(n_iter=3, normalize=True).fit_transform(mutag.graphs)
    D = kernel_distances(K)
    np.testing.assert_allclose(D**2, np.diag(K)[:, None] + np.diag(K)[None, :] - 2 * K,
                               atol=1e-12)
    pam = KMedoids(2, metric="precomputed", method="pam", random_state=0).fit(D)
    alternate = KMedoids(2, metric="precomputed", random_state=0).fit(D)
    assert _is_swap_optimal(D, pam.medoid_indices_)
    assert pam.inertia_ <= alternate.inertia_
    kmedoids = pytest.importorskip("kmedoids")
    assert pam.inertia_ == pytest.approx(
        kmedoids.fasterpam(D, pam.medoid_indices_.copy(), n_cpu=1).loss, rel=1e-12)


def test_kernel_distance_on_secreted_proteins():
    sequences, _, _ = load_secreted_proteins()
    K = SpectrumKernel(k=3, normalize=True).fit_transform(sequences)
    D = kernel_distances(K).astype(np.float32)             # float32 matrices are read as is
    model = KMedoids(3, metric="precomputed", method="pam", init="build").fit(D)
    assert _is_swap_optimal(D.astype(np.float64), model.medoid_indices_)
    assert model.inertia_ == pytest.approx(_loss(D.astype(np.float64), model.medoid_indices_),
                                           rel=1e-5)


def test_kernel_distances_of_the_linear_kernel_are_euclidean(rng):
    X, Y = rng.normal(size=(10, 3)), rng.normal(size=(4, 3))
    D = kernel_distances(linear_kernel(X))
    np.testing.assert_allclose(D, pairwise_distances(X), atol=1e-7)
    np.testing.assert_array_equal(D, D.T)
    assert np.all(np.diag(D) == 0)
    cross = kernel_distances(linear_kernel(Y, X), diag_X=np.sum(X**2, axis=1),
                             diag_Y=np.sum(Y**2, axis=1))
    np.testing.assert_allclose(cross, pairwise_distances(Y, X), atol=1e-7)


def test_kmedians_update_is_the_l1_minimiser_and_objective_decreases(random_seed):
    rng = np.random.default_rng(random_seed)
    X = np.vstack([rng.standard_t(2, size=(100, 2)), rng.standard_t(2, size=(100, 2)) + 8])
    model = KMedians(2, max_iter=1, random_state=random_seed).fit(X)
    full = KMedians(2, random_state=random_seed).fit(X)
    assert np.all(np.diff(full.inertia_history_) <= 1e-12 * full.inertia_history_[0])
    # at convergence every centre is its cluster's coordinate-wise median, which beats any
    # perturbation of it in ℓ1
    for c in range(2):
        members = X[full.labels_ == c]
        np.testing.assert_allclose(full.cluster_centers_[c], np.median(members, axis=0))
        cost = np.abs(members - full.cluster_centers_[c]).sum()
        for shift in rng.normal(size=(5, 2)) * 0.1:
            assert cost <= np.abs(members - full.cluster_centers_[c] - shift).sum()
    assert full.inertia_ <= model.inertia_ + 1e-9
    assert full.inertia_ == pytest.approx(np.abs(X - full.cluster_centers_[full.labels_]).sum())
    np.testing.assert_array_equal(full.predict(X), full.labels_)


def test_manhattan_assignment_equals_the_twin(rng):
    X, centers = rng.normal(size=(300, 4)), rng.normal(size=(6, 4))
    out = [(np.empty(300, np.int32), np.empty(300)) for _ in range(2)]
    losses = [module.manhattan_assign(X, centers, *o, 2)
              for module, o in zip((_kmedians, twin), out)]
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-12)
    assert losses[0] == pytest.approx(losses[1], rel=1e-12)


@pytest.mark.parametrize("values", ["ties", "distinct"])
def test_cluster_medians_equal_numpy_median_on_any_team(values, rng):
    """Odd and even clusters (the half-sum of the two middle values), one-sample clusters, runs
    of equal values; the same centres on one thread and on a forced team."""
    n, d, k = 500, 5, 7
    X = (rng.integers(-3, 4, size=(n, d)).astype(float) if values == "ties"
         else rng.normal(size=(n, d)))
    labels = rng.permutation(np.repeat(np.arange(k), [50, 2, 3, 100, 51, 293, 1]))
    order = np.argsort(labels, kind="stable").astype(np.intp)
    offsets = np.concatenate([[0], np.cumsum(np.bincount(labels))]).astype(np.intp)
    want = np.empty((k, d))
    twin.cluster_medians(X, order, offsets, want)
    for n_threads in (1, 2):
        got = np.empty((k, d))
        _kmedians.cluster_medians(X, order, offsets, got, n_threads, 0.0)
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(want[k - 1], X[labels == k - 1][0])


def test_kmedians_passes_get_teams_sized_by_their_work(monkeypatch, rng):
    # a pass over a thousand samples takes less than waking a team: both cores are given the
    # measured cost of a region for the fit's threads (the assignment woke a team from 65 536
    # distance terms), and their results do not depend on the team they then take
    from kernelkit.cluster import _kmedians as module
    from kernelkit.utils._threads import effective_n_threads

    calls = []
    for name in ("manhattan_assign", "cluster_medians"):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, original=original, name=name: (
            calls.append((name, args[-2:])) or original(*args)))
    monkeypatch.setattr(module, "min_work_per_thread", lambda n_threads: 1e-3 * n_threads)
    X = rng.normal(size=(1000, 12))
    model = KMedians(8, random_state=0, n_jobs=2).fit(X)
    model.predict(X)
    n_threads = effective_n_threads(2)
    assert {name for name, _ in calls} == {"manhattan_assign", "cluster_medians"}
    assert all(threads == (n_threads, 1e-3 * n_threads) for _, threads in calls)
    labels, distances = np.empty(1000, np.int32), np.empty(1000)
    losses = {_kmedians.manhattan_assign(X, model.cluster_centers_, labels, distances, *team)
              for team in [(1, 0.0), (2, 0.0), (2, 1.0)]}
    assert len(losses) == 1


def test_cluster_medians_refuse_empty_clusters_and_mismatched_arrays():
    X, order = np.ones((4, 2)), np.arange(4, dtype=np.intp)
    with pytest.raises(ValueError, match="cluster 1 is empty"):
        _kmedians.cluster_medians(X, order, np.array([0, 4, 4], dtype=np.intp),
                                  np.empty((2, 2)), 1, 0.0)
    with pytest.raises(ValueError, match="do not match"):
        _kmedians.cluster_medians(X, order, np.array([0, 3], dtype=np.intp), np.empty((1, 2)),
                                  1, 0.0)
    with pytest.raises(ValueError, match="out of range"):
        _kmedians.cluster_medians(X, np.array([0, 1, 2, 9], dtype=np.intp),
                                  np.array([0, 4], dtype=np.intp), np.empty((1, 2)), 1, 0.0)


@pytest.mark.parametrize("D, match", [
    (np.array([[0.0, -1.0], [-1.0, 0.0]]), "Negative values"),
    (np.array([[0.0, np.nan], [1.0, 0.0]]), "NaN"),
    (np.ones((2, 3)), "square"),
])
def test_bad_precomputed_input(D, match):
    with pytest.raises(ValueError, match=match):
        KMedoids(1, metric="precomputed").fit(D)


@pytest.mark.parametrize("estimator", [KMedoids(2), KMedoids(2, method="pam"), KMedians(2)],
                         ids=repr)
def test_values_near_the_float_maximum_are_refused(estimator):
    X = np.vstack([np.zeros((3, 2)), np.full((3, 2), 1e200)])
    with pytest.raises(ValueError, match="overflow float64"):
        estimator.fit(X)


def test_bad_parameters():
    X = np.arange(10.0).reshape(5, 2)
    with pytest.raises(ValueError, match="distinct sample indices"):
        KMedoids(2, init=[0, 0]).fit(X)
    with pytest.raises(ValueError, match="distinct sample indices"):
        KMedoids(2, init=[0, 9]).fit(X)
    with pytest.raises(ValueError, match="n_clusters"):
        KMedoids(6).fit(X)
    with pytest.raises(ValueError, match="init should be of shape"):
        KMedians(2, init=np.zeros((3, 2))).fit(X)
    model = KMedoids(2, metric="precomputed").fit(pairwise_distances(X))
    with pytest.raises(ValueError, match="expecting 5 features"):
        model.predict(np.zeros((2, 4)))


@pytest.mark.parametrize("method", ["pam", "alternate"])
def test_kmedoids_verbose_prints_its_stages_and_changes_nothing(method, capsys):
    X = np.random.default_rng(0).normal(size=(200, 3))
    quiet = KMedoids(4, method=method, init="build", random_state=0).fit(X)
    assert capsys.readouterr().err == ""
    loud = KMedoids(4, method=method, init="build", random_state=0, verbose=1).fit(X)
    np.testing.assert_array_equal(quiet.medoid_indices_, loud.medoid_indices_)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "[KMedoids] distance matrix 200 x 200", "[KMedoids] initial medoids (build)",
        f"[KMedoids] {quiet.n_iter_} {'FasterPAM passes' if method == 'pam' else 'iterations'}"]
    detailed = KMedoids(4, method=method, init="build", random_state=0, verbose=2).fit(X)
    np.testing.assert_array_equal(quiet.medoid_indices_, detailed.medoid_indices_)
    lines = capsys.readouterr().err.splitlines()
    iterations = [line for line in lines if line.startswith("[KMedoids] iteration ")]
    assert len(iterations) == (0 if method == "pam" else quiet.n_iter_)
    assert len(lines) == len(iterations) + 3


def test_kmedians_verbose_prints_one_line_then_iterations_at_2(capsys):
    X = np.random.default_rng(0).normal(size=(200, 3))
    quiet = KMedians(3, random_state=0).fit(X)
    assert capsys.readouterr().err == ""
    loud = KMedians(3, random_state=0, verbose=1).fit(X)
    np.testing.assert_array_equal(quiet.cluster_centers_, loud.cluster_centers_)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"[KMedians] {quiet.n_iter_} iterations, ")
    KMedians(3, random_state=0, verbose=2).fit(X)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == quiet.n_iter_ + 1
    assert all(line.startswith(f"[KMedians] iteration {i}: loss ")
               for i, line in enumerate(lines[:-1], 1))


@pytest.mark.parametrize("X", [np.ones((10, 2)), np.repeat([[0.0, 0.0], [1.0, 1.0]], 5, axis=0)])
def test_kmedoids_on_duplicated_points(X):
    # with every cluster unchanged, the selection of clusters to update is empty: the bounds-
    # checked build stopped at its first row; in-cluster costs of no sample now return at once
    model = KMedoids(n_clusters=3, random_state=0).fit(X)
    assert model.inertia_ == 0.0
    assert set(np.unique(model.labels_)) <= {0, 1, 2}
