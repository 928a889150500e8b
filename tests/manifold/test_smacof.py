"""SMACOF: compiled core vs the seed's matrix algorithm, majorisation properties, peers."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.distance import pdist, squareform
from sklearn.exceptions import ConvergenceWarning

from kernelkit._core import _smacof_guttman
from kernelkit.manifold import MDS, smacof
from kernelkit.reference import smacof as reference


def _euclidean(X):
    return squareform(pdist(X))


def _seed_stress(D, Z):
    """Seed 003's S_KS: every ordered pair (i ≠ j), i.e. twice kernelkit's raw stress."""
    dist = _euclidean(Z)
    return float(((D - dist) ** 2).sum())


def _seed_majoriser(D, Z, Y):
    """Seed 003 §3.2.3: M_KS(Z, Y) = Σ d² + tr(Zᵀ V Z) − 2 tr(Zᵀ V'(Y) Y)."""
    n = D.shape[0]
    V = 2.0 * (n * np.eye(n) - np.ones((n, n)))
    dist = _euclidean(Y)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(dist > 0, D / dist, 0.0)
    np.fill_diagonal(ratio, 0.0)
    V_prime = 2.0 * (np.diag(ratio.sum(axis=1)) - ratio)
    return float((D**2).sum() + np.trace(Z.T @ V @ Z) - 2.0 * np.trace(Z.T @ V_prime @ Y))


@pytest.fixture
def problem(rng):
    X = rng.normal(size=(70, 4))
    return _euclidean(X), rng.normal(size=(70, 2))


@pytest.mark.parametrize("weighted", [False, True])
def test_runs_call_blas_on_one_thread_when_the_passes_have_a_team(monkeypatch, weighted):
    # BLAS threads woken by the first configuration or the weighted solver would spin on the
    # cores the passes' OpenMP team needs
    from threadpoolctl import threadpool_limits

    from kernelkit.manifold import _smacof
    from kernelkit.utils._threads import _blas_thread_count

    seen = []
    initial = _smacof._initial_configuration

    def recorded(*args):
        seen.append(_blas_thread_count())
        return initial(*args)

    monkeypatch.setattr(_smacof, "_initial_configuration", recorded)
    D = _euclidean(np.random.default_rng(0).normal(size=(40, 3)))
    with threadpool_limits(2, user_api="blas"):
        if _blas_thread_count() < 2:
            pytest.skip("the BLAS library runs on one thread here")
        for n_jobs in (2, 1):
            smacof(D, weights=np.ones_like(D) if weighted else None, init="random",
                   random_state=0, n_jobs=n_jobs)
        after = _blas_thread_count()
    assert seen == [1, 2]
    assert after == 2


@pytest.mark.parametrize("weighted", [False, True])
def test_guttman_pass_matches_reference(rng, weighted):
    n = 300  # several tiles of the compiled pass, a ragged last one
    D = _euclidean(rng.normal(size=(n, 5)))
    Z = rng.normal(size=(n, 3))
    Z[4] = Z[9]  # coincident points: the indicator 1{δ_ij ≠ 0}
    W = None
    if weighted:
        W = rng.uniform(0.1, 2.0, size=(n, n))
        W = (W + W.T) / 2
    out, expected = np.empty_like(Z), np.empty_like(Z)
    got = _smacof_guttman.guttman_transform(D, W, Z, out, 0.37, 1)
    want = reference.guttman_transform(D, W, Z, expected, 0.37)
    np.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got, want, rtol=1e-10)
    np.testing.assert_allclose(_smacof_guttman.stress(D, W, Z), want, rtol=1e-10)


@given(n=st.integers(2, 40), p=st.integers(1, 4), seed=st.integers(0, 2**16))
def test_guttman_pass_matches_reference_property(n, p, seed):
    rng = np.random.default_rng(seed)
    D = _euclidean(rng.normal(size=(n, 3)))
    Z = rng.normal(size=(n, p))
    out, expected = np.empty_like(Z), np.empty_like(Z)
    got = _smacof_guttman.guttman_transform(D, None, Z, out, 1.0 / n, 1)
    want = reference.guttman_transform(D, None, Z, expected, 1.0 / n)
    np.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_pass_independent_of_threads(rng):
    n = 1500  # enough pairs for the core to use 2 threads
    D = _euclidean(rng.normal(size=(n, 4)))
    W = rng.uniform(size=(n, n))
    W = W + W.T
    Z = rng.normal(size=(n, 2))
    for weights in (None, W):
        out1, out2 = np.empty_like(Z), np.empty_like(Z)
        s1 = _smacof_guttman.guttman_transform(D, weights, Z, out1, 1.0, 1)
        s2 = _smacof_guttman.guttman_transform(D, weights, Z, out2, 1.0, 2)
        assert s1 == s2
        np.testing.assert_array_equal(out1, out2)
        # a team sized by the work: one thread when every thread must get an hour of work
        sized = np.empty_like(Z)
        assert _smacof_guttman.guttman_transform(D, weights, Z, sized, 1.0, 2, 3600.0) == s1
        np.testing.assert_array_equal(sized, out1)
        assert _smacof_guttman.stress(D, weights, Z, 2, 3600.0) == \
            _smacof_guttman.stress(D, weights, Z, 2)


def test_fit_independent_of_threads(rng):
    X = rng.normal(size=(1500, 3))  # enough pairs for the core to use 2 threads
    one = MDS(init="random", random_state=0, max_iter=5, eps=0, n_jobs=1)
    two = MDS(init="random", random_state=0, max_iter=5, eps=0, n_jobs=2)
    with pytest.warns(ConvergenceWarning):
        np.testing.assert_array_equal(one.fit_transform(X), two.fit_transform(X))
    np.testing.assert_array_equal(one.stress_history_, two.stress_history_)


@pytest.mark.parametrize("weighted", [False, True])
def test_whole_run_matches_seed_algorithm(problem, rng, weighted):
    D, Z0 = problem
    W = None
    if weighted:
        W = rng.uniform(0.5, 1.5, size=D.shape)
        W = W + W.T
    Z_ref, history_ref = reference.smacof(D, Z0, weights=W, max_iter=25, eps=0.0)
    mds = MDS(dissimilarity="precomputed", init=Z0, weights=W, max_iter=25, eps=0.0)
    with pytest.warns(ConvergenceWarning):
        Z = mds.fit_transform(D)
    np.testing.assert_allclose(Z, Z_ref, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(mds.stress_history_, history_ref, rtol=1e-10)
    assert mds.n_iter_ == 25


def test_whole_run_matches_seed_algorithm_at_larger_n():
    # At n ≈ 500 the seed's V has a rounding-level null eigenvalue that a careless
    # pseudo-inverse inverts: both sides must still agree.
    rng = np.random.default_rng(0)
    D = _euclidean(rng.normal(size=(500, 6)))
    Z0 = rng.normal(size=(500, 2)) + 5.0  # off-centre start
    Z_ref, history_ref = reference.smacof(D, Z0, max_iter=8, eps=0.0)
    with pytest.warns(ConvergenceWarning):
        Z, stress = smacof(D, init=Z0, max_iter=8, eps=0.0)
    np.testing.assert_allclose(Z, Z_ref, rtol=1e-10, atol=1e-10)
    assert stress == pytest.approx(history_ref[-1], rel=1e-10)


def test_stress_non_increasing_every_iteration(problem):
    D, Z0 = problem
    mds = MDS(dissimilarity="precomputed", init=Z0, max_iter=1000, eps=1e-12).fit(D)
    history = mds.stress_history_
    assert history.size == mds.n_iter_ + 1 > 10
    assert np.all(np.diff(history) <= 1e-12 * history[0])
    assert mds.stress_ == pytest.approx(history[-1])


def test_weighted_stress_non_increasing(problem, rng):
    D, Z0 = problem
    W = rng.uniform(0.0, 3.0, size=D.shape)
    W = W + W.T
    mds = MDS(dissimilarity="precomputed", init=Z0, weights=W, eps=1e-12, max_iter=500).fit(D)
    assert np.all(np.diff(mds.stress_history_) <= 1e-12 * mds.stress_history_[0])


def test_majoriser_inequality_and_touching(problem, rng):
    D, Y = problem
    # Equality at Y = Z (Sangnier: S_KS(Z) = M_KS(Z, Z)).
    assert _seed_majoriser(D, Y, Y) == pytest.approx(_seed_stress(D, Y), rel=1e-12)
    for _ in range(5):
        Z = rng.normal(size=Y.shape) * rng.uniform(0.1, 3.0)
        assert _seed_stress(D, Z) <= _seed_majoriser(D, Z, Y) * (1 + 1e-12)
    # The compiled Guttman transform minimises M(·, Y): the sandwich inequality.
    Z_next = np.empty_like(Y)
    stress_Y, _ = _smacof_guttman.guttman_transform(D, None, Y, Z_next, 1.0 / Y.shape[0], 1)
    assert 2 * stress_Y == pytest.approx(_seed_stress(D, Y), rel=1e-12)
    M_next = _seed_majoriser(D, Z_next, Y)
    assert _seed_stress(D, Z_next) <= M_next * (1 + 1e-12)
    assert M_next <= _seed_majoriser(D, Y, Y) * (1 + 1e-12)
    for _ in range(5):
        Z = Z_next + 0.1 * rng.normal(size=Y.shape)
        assert M_next <= _seed_majoriser(D, Z, Y) * (1 + 1e-12)


def test_property_77_trace_identity(rng):
    n, p = 12, 3
    alpha = rng.uniform(size=(n, n))
    alpha = alpha + alpha.T
    Z, Y = rng.normal(size=(n, p)), rng.normal(size=(n, p))
    off = alpha - np.diag(np.diag(alpha))
    V = 2.0 * (np.diag(off.sum(axis=1)) - off)
    lhs = sum(alpha[i, j] * (Z[i] - Z[j]) @ (Y[i] - Y[j])
              for i in range(n) for j in range(n) if i != j)
    assert lhs == pytest.approx(np.trace(Z.T @ V @ Y), rel=1e-12)


def test_iterates_stay_centred(problem):
    D, Z0 = problem
    Z0 = Z0 - Z0.mean(axis=0)
    with pytest.warns(ConvergenceWarning):
        Z, _ = smacof(D, init=Z0, max_iter=7, eps=0.0)
    np.testing.assert_allclose(Z.mean(axis=0), 0.0, atol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_exactly_embeddable_data_reach_zero_stress(rng, weighted):
    X = rng.normal(size=(40, 2))
    D = _euclidean(X)
    W = None
    if weighted:
        W = rng.uniform(0.5, 2.0, size=D.shape)
        W = W + W.T
    # Start off the exact answer, to see the iterations reach it.
    Z0 = X[:, ::-1] + 0.3 * rng.normal(size=X.shape)
    Z, stress = smacof(D, init=Z0, weights=W, max_iter=3000, eps=1e-15)
    assert stress < 1e-8 * (D**2).sum()
    Z, stress = smacof(D, init="classical", weights=W)
    assert stress < 1e-20 * (D**2).sum()
    np.testing.assert_allclose(_euclidean(Z), D, atol=1e-8)


@pytest.mark.scikit_learn("1.7", reason="earlier releases compute SMACOF's stress otherwise")
def test_same_stress_as_scikit_learn_from_same_init(problem):
    sklearn_manifold = pytest.importorskip("sklearn.manifold")
    D, Z0 = problem
    Z_sk, stress_sk = sklearn_manifold.smacof(D, init=Z0.copy(), n_init=1, max_iter=40,
                                              eps=0.0, normalized_stress=False)
    with pytest.warns(ConvergenceWarning):
        Z, stress = smacof(D, init=Z0, max_iter=40, eps=0.0)
    # Both count each pair once (scikit-learn: full-matrix sum / 2 = seed's S_KS / 2).
    assert stress == pytest.approx(stress_sk, rel=1e-6)
    assert 2 * stress == pytest.approx(_seed_stress(D, Z), rel=1e-12)
    np.testing.assert_allclose(Z, Z_sk, rtol=1e-8, atol=1e-8)


def test_nonmetric_invariant_to_monotone_transforms(rng):
    D = _euclidean(rng.normal(size=(30, 3)))
    fits = [MDS(metric=False, dissimilarity="precomputed", max_iter=100).fit(T)
            for T in (D, D**3, np.log1p(D))]
    for other in fits[1:]:
        np.testing.assert_allclose(other.embedding_, fits[0].embedding_, rtol=1e-9, atol=1e-9)
        assert other.stress_ == pytest.approx(fits[0].stress_, rel=1e-9)


def test_nonmetric_disparities_monotone_and_stress_decreases(rng):
    from kernelkit.manifold._smacof import _Disparities

    D = _euclidean(rng.normal(size=(25, 3)))
    Z = rng.normal(size=(25, 2))
    D_hat = _Disparities(D, None)(Z)
    iu = np.triu_indices(25, k=1)
    order = np.argsort(D[iu], kind="stable")
    assert np.all(np.diff(D_hat[iu][order]) >= -1e-12)
    np.testing.assert_allclose((D_hat[iu] ** 2).sum(), iu[0].size)
    mds = MDS(metric=False, dissimilarity="precomputed", init="random", random_state=0,
              max_iter=500).fit(D)
    assert mds.stress_history_[-1] < 0.5 * mds.stress_history_[0]
    assert mds.normalized_stress_ == pytest.approx(mds.stress_history_[-1])


def test_n_init_keeps_the_best_run(rng):
    X = rng.normal(size=(30, 4))
    best = MDS(init="random", n_init=4, random_state=1).fit(X)
    singles = [MDS(init="random", random_state=s).fit(X).stress_ for s in range(3)]
    assert best.stress_ <= max(singles)


def test_returns_n_iter(problem):
    D, _ = problem
    _, _, n_iter = smacof(D, return_n_iter=True)
    assert n_iter >= 1


@pytest.mark.parametrize(
    "D, match",
    [
        (np.array([[0.0, 1.0], [2.0, 0.0]]), "symmetric"),
        (np.array([[0.0, -1.0], [-1.0, 0.0]]), "non-negative"),
        (np.array([[0.0, np.nan], [np.nan, 0.0]]), "NaN"),
        (np.array([[0.0, np.inf], [np.inf, 0.0]]), "infinity"),
        (np.array([[1.0, 1.0], [1.0, 0.0]]), "zero diagonal"),
        (np.ones((2, 3)), "square"),
    ],
)
def test_bad_dissimilarities(D, match):
    with pytest.raises(ValueError, match=match):
        smacof(D, n_components=1)


def test_bad_parameters(problem):
    D, _ = problem
    n = D.shape[0]
    with pytest.raises(ValueError, match="n_components"):
        smacof(D, n_components=n)
    with pytest.raises(ValueError, match="init must have shape"):
        smacof(D, init=np.zeros((n - 1, 2)))
    with pytest.raises(ValueError, match="columns"):
        smacof(D, init=np.zeros((n, 3)), n_components=2)
    with pytest.raises(ValueError, match="unconnected"):
        W = np.zeros_like(D)
        W[:10, :10] = 1.0
        W[10:, 10:] = 1.0
        smacof(D, weights=W)
    with pytest.raises(ValueError, match="weights must be non-negative"):
        smacof(D, weights=-np.ones_like(D))
    with pytest.raises(ValueError, match="eps"):
        smacof(D, eps=-1.0)


def test_warns_when_not_converged_and_on_ignored_n_init(problem):
    D, _ = problem
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        smacof(D, init="random", random_state=0, max_iter=2)
    with pytest.warns(UserWarning, match="n_init=3 is ignored"):
        smacof(D, n_init=3)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("metric", [True, False])
def test_verbose_prints_one_line_per_init_and_iteration_blocks_at_2(metric, capsys):
    X = np.random.default_rng(0).normal(size=(60, 5))
    # eps=0 and max_iter=30: every run takes its 30 transforms, three blocks of ten
    params = dict(metric=metric, init="random", n_init=2, max_iter=30, eps=0.0, random_state=0)
    quiet = MDS(**params).fit(X)
    assert capsys.readouterr().err == ""
    loud = MDS(verbose=1, **params).fit(X)
    np.testing.assert_array_equal(quiet.embedding_, loud.embedding_)
    lines = capsys.readouterr().err.splitlines()
    kind = "stress" if metric else "stress-1"
    assert [line.split(":")[0] for line in lines] == ["[MDS] init 1 of 2", "[MDS] init 2 of 2"]
    assert all(f": {kind} " in line and ", 30 iterations, " in line for line in lines)
    detailed = MDS(verbose=2, **params).fit(X)
    np.testing.assert_array_equal(quiet.embedding_, detailed.embedding_)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        f"[MDS] init {i} of 2" + (f", iteration {n}" if n else "")
        for i in (1, 2) for n in (10, 20, 30, None)]
    Z, _ = smacof(_euclidean(X), metric=metric, init="random", n_init=2, max_iter=30, eps=0.0,
                  random_state=0, verbose=1)
    np.testing.assert_array_equal(Z, quiet.embedding_)
    assert [line.split(":")[0] for line in capsys.readouterr().err.splitlines()] == [
        "[smacof] init 1 of 2", "[smacof] init 2 of 2"]


def test_values_near_the_float_maximum_are_refused(near_float_max):
    # the distances overflowed to inf and the stress to NaN
    with pytest.raises(ValueError, match="overflow float64"):
        MDS(random_state=0).fit(near_float_max())
