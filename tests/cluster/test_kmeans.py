"""KMeans: seed properties, compiled vs reference, threads, scikit-learn agreement, bad input."""

import numpy as np
import pytest
from sklearn.datasets import load_digits, make_blobs
from sklearn.exceptions import ConvergenceWarning

from kernelkit.cluster import KMeans, elbow_curve
from kernelkit.cluster._kmeans import kmeans_lloyd
from kernelkit.reference import kmeans_lloyd as kmeans_lloyd_reference


def _blobs(seed, n_samples=600, n_features=5, centers=6, dtype=np.float64):
    X, _ = make_blobs(n_samples=n_samples, n_features=n_features, centers=centers,
                      cluster_std=2.0, random_state=seed)
    return X.astype(dtype)


def _random_init(X, k, seed):
    return X[np.random.default_rng(seed).choice(X.shape[0], k, replace=False)].copy()


@pytest.mark.parametrize("shape", [(600, 5, 6), (1000, 2, 3), (300, 40, 12), (257, 3, 1)])
@pytest.mark.parametrize("weighted", [False, True])
def test_compiled_matches_reference(random_seed, shape, weighted):
    n, d, k = shape
    X = _blobs(random_seed, n, d, max(k, 2))
    init = _random_init(X, k, random_seed)
    w = np.random.default_rng(random_seed).uniform(0.5, 2.0, n) if weighted else None
    got = kmeans_lloyd(X, init, 100, 0.0, w, n_threads=2)
    want = kmeans_lloyd_reference(X, init, 100, 0.0, w)
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_allclose(got[0], want[0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-10)
    assert got[3] == want[3]
    np.testing.assert_allclose(got[4], want[4], rtol=1e-8)


def test_float32_matches_reference(random_seed):
    X = _blobs(random_seed, 800, 4, 5, dtype=np.float32)
    init = _random_init(X, 5, random_seed)
    got = kmeans_lloyd(X, init, 100, 0.0, None, n_threads=2)
    want = kmeans_lloyd_reference(X, init, 100, 0.0, None)
    assert got[0].dtype == np.float32
    assert np.mean(got[1] == want[1]) > 0.99
    np.testing.assert_allclose(got[2], want[2], rtol=1e-4)


def test_objective_non_increasing(random_seed):
    """Seed 003 Prop 56: every Lloyd step lowers (or keeps) the objective."""
    X = _blobs(random_seed, 2000, 3, 10)
    km = KMeans(n_clusters=10, init="random", tol=0.0, max_iter=200,
                random_state=random_seed).fit(X)
    history = np.append(km.inertia_history_, km.inertia_)
    assert len(history) >= 3
    assert np.all(np.diff(history) <= 1e-9 * history[0])


def test_converged_fixed_point(random_seed):
    """At convergence each sample's centre is its nearest and each centre its cluster's mean."""
    X = _blobs(random_seed, 500, 4, 5)
    km = KMeans(n_clusters=5, tol=0.0, max_iter=500, random_state=random_seed).fit(X)
    d2 = ((X[:, None, :] - km.cluster_centers_[None]) ** 2).sum(-1)
    np.testing.assert_array_equal(km.labels_, d2.argmin(axis=1))
    for c in range(5):
        np.testing.assert_allclose(km.cluster_centers_[c], X[km.labels_ == c].mean(axis=0),
                                   rtol=1e-10, atol=1e-10)


def test_huygens_decomposition(random_seed):
    """Seed 003 Prop 57: total inertia = within-cluster + between-cluster, for the result."""
    X = _blobs(random_seed, 700, 3, 4)
    km = KMeans(n_clusters=4, random_state=random_seed).fit(X)
    total = ((X - X.mean(axis=0)) ** 2).sum()
    sizes = np.bincount(km.labels_, minlength=4)
    means = np.array([X[km.labels_ == c].mean(axis=0) for c in range(4)])
    between = (sizes * ((means - X.mean(axis=0)) ** 2).sum(axis=1)).sum()
    np.testing.assert_allclose(km.inertia_ + between, total, rtol=1e-10)
    # and elbow_curve reports the within part for each k
    inertias = elbow_curve(X, [1, 4])
    np.testing.assert_allclose(inertias[0], total, rtol=1e-10)


def test_k_equals_n_gives_zero_inertia(random_seed):
    X = np.random.default_rng(random_seed).normal(size=(30, 3))
    km = KMeans(n_clusters=30, random_state=random_seed).fit(X)
    assert km.inertia_ == pytest.approx(0.0, abs=1e-20)
    assert np.unique(km.labels_).size == 30


def test_hand_computed_four_points():
    """Four corners of a 2×1 rectangle, two clusters: the short sides pair up."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 0.0], [2.0, 1.0]])
    km = KMeans(n_clusters=2, init=np.array([[0.0, 0.0], [2.0, 1.0]])).fit(X)
    np.testing.assert_array_equal(km.labels_, [0, 0, 1, 1])
    np.testing.assert_allclose(km.cluster_centers_, [[0.0, 0.5], [2.0, 0.5]])
    assert km.inertia_ == pytest.approx(4 * 0.25)
    np.testing.assert_allclose(km.transform([[1.0, 0.5]]), [[1.0, 1.0]])
    assert km.score(X) == pytest.approx(-1.0)


def test_ties_go_to_lowest_index():
    """Seed 003 Property 55: a point equidistant from two centres joins the first."""
    X = np.array([[1.0], [0.0], [2.0]])
    km = KMeans(n_clusters=2, init=np.array([[0.0], [2.0]]), max_iter=1).fit(X)
    assert km.predict([[1.0]])[0] == km.predict([[0.0]])[0]


def test_sample_weight_equals_repetition(random_seed):
    X = _blobs(random_seed, 200, 2, 3)
    reps = np.random.default_rng(random_seed).integers(1, 4, size=X.shape[0])
    init = _random_init(X, 3, random_seed)
    a = KMeans(3, init=init, tol=0).fit(X, sample_weight=reps.astype(float))
    b = KMeans(3, init=init, tol=0).fit(np.repeat(X, reps, axis=0))
    np.testing.assert_allclose(a.cluster_centers_, b.cluster_centers_, rtol=1e-10)
    np.testing.assert_allclose(a.inertia_, b.inertia_, rtol=1e-10)


def test_empty_cluster_is_relocated():
    X = np.array([[0.0], [0.1], [0.2], [10.0], [10.1]])
    # the third centre is far from everything: its cluster empties at the first step
    km = KMeans(n_clusters=3, init=np.array([[0.0], [10.0], [100.0]]), tol=0).fit(X)
    assert np.unique(km.labels_).size == 3
    got = kmeans_lloyd(X, np.array([[0.0], [10.0], [100.0]]), 50, 0.0)
    want = kmeans_lloyd_reference(X, np.array([[0.0], [10.0], [100.0]]), 50, 0.0)
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_allclose(got[0], want[0])


def test_one_vs_two_threads_identical(random_seed):
    X = _blobs(random_seed, 20_000, 8, 20)
    init = _random_init(X, 20, random_seed)
    one = kmeans_lloyd(X, init, 30, 0.0, None, n_threads=1)
    two = kmeans_lloyd(X, init, 30, 0.0, None, n_threads=2)
    np.testing.assert_array_equal(one[1], two[1])
    np.testing.assert_array_equal(one[0], two[0])
    assert one[2] == two[2]  # ordered reduction: bitwise equal, well within 1e-12


def test_the_objective_pass_gets_a_team_sized_by_its_work(monkeypatch):
    # a pass over a few thousand samples takes less than waking a team: the objective's core is
    # given the measured cost of a region for the fit's threads, and its value does not depend
    # on the team it then takes
    from kernelkit._core._kmeans_lloyd import inertia
    from kernelkit.cluster import _kmeans
    from kernelkit.utils._threads import effective_n_threads

    calls, original = [], _kmeans._inertia
    monkeypatch.setattr(_kmeans, "_inertia",
                        lambda *args: calls.append(args[4:]) or original(*args))
    monkeypatch.setattr(_kmeans, "min_work_per_thread", lambda n_threads: 1e-3 * n_threads)
    X = _blobs(3, 2_000, 4, 5)
    model = KMeans(5, random_state=0, n_jobs=2).fit(X)
    model.score(X)
    n_threads = effective_n_threads(2)
    assert len(calls) == 2 and all(call == (n_threads, 1e-3 * n_threads) for call in calls)
    labels = model.labels_.astype(np.int32)
    values = {inertia(X, np.ones(len(X)), model.cluster_centers_, labels, n_threads, work)
              for n_threads, work in [(1, 0.0), (2, 0.0), (2, 1e-12), (2, 1.0)]}
    assert len(values) == 1


def test_n_init_keeps_best(random_seed):
    """The first of n_init runs draws the same start as n_init=1; the best can only be lower."""
    X = _blobs(random_seed, 400, 2, 8)
    single = KMeans(8, init="random", n_init=1, random_state=random_seed).fit(X)
    best = KMeans(8, init="random", n_init=5, random_state=random_seed).fit(X)
    assert best.inertia_ <= single.inertia_


@pytest.mark.parametrize("data", ["digits", "blobs"])
def test_agrees_with_scikit_learn(data):
    sklearn_cluster = pytest.importorskip("sklearn.cluster")
    if data == "digits":
        # Standardised: raw digits are integer pixels, so a sample is often exactly equidistant
        # from two centres, and each library then breaks the tie by its own rounding.
        X = load_digits().data.astype(np.float64)
        X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
        k = 10
    else:
        X = _blobs(3, 5000, 10, 8)
        k = 8
    init = _random_init(X, k, 7)
    ours = KMeans(k, init=init, max_iter=300, tol=1e-4).fit(X)
    theirs = sklearn_cluster.KMeans(k, init=init, n_init=1, max_iter=300, tol=1e-4,
                                    algorithm="lloyd").fit(X)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-9)
    np.testing.assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, rtol=1e-8,
                               atol=1e-10)
    assert ours.n_iter_ == theirs.n_iter_


def test_predict_matches_labels_and_float32_kept(random_seed):
    X = _blobs(random_seed, 500, 3, 4, dtype=np.float32)
    km = KMeans(4, random_state=random_seed).fit(X)
    assert km.cluster_centers_.dtype == np.float32
    np.testing.assert_array_equal(km.predict(X), km.labels_)
    np.testing.assert_array_equal(km.fit_predict(X), km.labels_)


@pytest.mark.parametrize(
    "X, params, error, match",
    [
        ([[0.0, np.nan], [1.0, 1.0]], {"n_clusters": 1}, ValueError, "NaN"),
        ([[0.0, np.inf], [1.0, 1.0]], {"n_clusters": 1}, ValueError, "infinity"),
        ([1.0, 2.0, 3.0], {"n_clusters": 1}, ValueError, "2D array"),
        (np.empty((0, 2)), {"n_clusters": 1}, ValueError, "0 sample"),
        ([[0.0], [1.0]], {"n_clusters": 3}, ValueError, "n_samples=2 should be >= n_clusters=3"),
        ([[0.0], [1.0]], {"n_clusters": 0}, ValueError, "n_clusters"),
        ([["a", "b"], ["c", "d"]], {"n_clusters": 1}, ValueError, "convert|numeric"),
        ([[0.0], [1.0]], {"n_clusters": 2, "init": np.zeros((3, 1))}, ValueError,
         r"init should be of shape \(2, 1\)"),
        ([[0.0], [1.0]], {"n_clusters": 1, "init": "farthest"}, ValueError, "init"),
        ([[0.0], [1.0]], {"n_clusters": 1, "tol": -1.0}, ValueError, "tol"),
    ],
)
def test_bad_input(X, params, error, match):
    with pytest.raises(error, match=match):
        KMeans(**params).fit(X)


def test_bad_sample_weight():
    X = np.arange(6.0).reshape(3, 2)
    with pytest.raises(ValueError, match="[Nn]egative"):
        KMeans(2).fit(X, sample_weight=[1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="non-zero|positive sum"):
        KMeans(2).fit(X, sample_weight=[0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        KMeans(2).fit(X, sample_weight=[1.0, 1.0])


def test_predict_wrong_width():
    km = KMeans(2, random_state=0).fit(np.arange(8.0).reshape(4, 2))
    with pytest.raises(ValueError, match="features"):
        km.predict(np.zeros((2, 3)))


def test_duplicate_points_warn():
    X = np.zeros((5, 2))
    with pytest.warns(ConvergenceWarning, match="distinct clusters"):
        KMeans(2, random_state=0).fit(X)


def test_n_init_auto_has_scikit_learns_meaning():
    X = np.random.default_rng(0).normal(size=(60, 2))
    # "auto": one run from k-means++ (the same as n_init=1), ten from random starts
    assert KMeans(3, random_state=4).fit(X).inertia_ == KMeans(3, n_init=1, random_state=4).fit(
        X).inertia_
    assert KMeans(3, init="random", random_state=4).fit(X).inertia_ == KMeans(
        3, init="random", n_init=10, random_state=4).fit(X).inertia_


def test_verbose_reports_one_line_per_init_and_iterations_at_2(capsys):
    X = np.random.default_rng(0).normal(size=(300, 2))
    quiet = KMeans(3, init="random", n_init=2, random_state=0).fit(X)
    assert capsys.readouterr().err == ""
    loud = KMeans(3, init="random", n_init=2, random_state=0, verbose=1).fit(X)
    np.testing.assert_array_equal(quiet.cluster_centers_, loud.cluster_centers_)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2
    assert all(line.startswith(f"[KMeans] init {i} of 2: inertia ")
               and " iterations, " in line for i, line in enumerate(lines, 1))
    detailed = KMeans(3, init="random", n_init=2, random_state=0, verbose=2).fit(X)
    np.testing.assert_array_equal(quiet.cluster_centers_, detailed.cluster_centers_)
    lines = capsys.readouterr().err.strip().splitlines()
    iterations = [line for line in lines if "iteration " in line]
    assert sum(line.startswith("[KMeans] init ") for line in lines) == 2
    assert len(iterations) >= detailed.n_iter_ and "objective" in iterations[-1]
    assert len(iterations) + 2 == len(lines)


def test_fewer_weighted_samples_than_clusters_raises():
    # empty clusters were re-seeded with weightless samples, whose centres were then 0 / 0 (NaN)
    X = np.random.default_rng(0).normal(size=(50, 2))
    weights = np.zeros(50)
    weights[:3] = 1.0
    with pytest.raises(ValueError, match="Only 3 samples have a positive weight"):
        KMeans(5, random_state=0).fit(X, sample_weight=weights)
