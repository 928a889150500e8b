"""The probe of a BLAS team's wake-up: a team found slow (another process busy on a core) runs
the eigendecompositions on one thread, a prompt one on its threads; the verdict's cache. The
Gaussian mixture's EM steps, which have threads of their own, run BLAS on one thread."""

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from kernelkit.utils import _threads

N = 300   # 4n³/3 operations: above TINY_BLAS_FLOPS, below SMALL_BLAS_FLOPS


@pytest.fixture
def two_blas_threads(blas_thread_spy):
    """The BLAS libraries on two threads for the test (skipped where they cannot run two)."""
    with threadpool_limits(2, user_api="blas"):
        if blas_thread_spy.counts() != {2}:
            pytest.skip("the BLAS libraries do not run two threads here")
        yield


@pytest.fixture
def team_probe(monkeypatch):
    """``set(team_seconds)`` makes the probe's product take that long on the team and 0.1 ms on
    one thread, forgetting the verdicts; returns the list of ``(library, n_threads)`` probed."""
    probed = []

    def product_seconds(library, n_threads):
        probed.append((library, n_threads))
        return 1e-4 if n_threads == 1 else team_seconds[0]

    team_seconds = [None]

    def set_team_seconds(seconds):
        team_seconds[0] = seconds
        _threads._team_verdicts.clear()
        _threads._one_thread_product_seconds.cache_clear()
        probed.clear()
        return probed

    monkeypatch.setattr(_threads, "_product_seconds", product_seconds)
    monkeypatch.setattr(_threads, "_team_verdicts", {})
    yield set_team_seconds
    _threads._one_thread_product_seconds.cache_clear()


def _fit_kernel_pca(solver):
    from kernelkit.decomposition import KernelPCA

    X = np.random.default_rng(0).normal(size=(N, 4))
    # the RBF kernel: the linear one's eigenpairs come from an SVD of the data
    KernelPCA(n_components=3, kernel="rbf", eigen_solver=solver, random_state=0).fit(X)


def _fit_spectral_embedding():
    from kernelkit.manifold import SpectralEmbedding

    SpectralEmbedding(eigen_solver="dense").fit(np.random.default_rng(0).normal(size=(N, 4)))


def _fit_classical_mds():
    from kernelkit.manifold import ClassicalMDS

    ClassicalMDS().fit(np.random.default_rng(0).normal(size=(N, 4)))


def _fit_kernel_logistic_regression():
    from kernelkit.kernel_ridge import KernelLogisticRegression

    rng = np.random.default_rng(0)
    KernelLogisticRegression(max_iter=5).fit(rng.normal(size=(N, 4)), np.arange(N) % 3)


def _fit_gaussian_mixture():
    from kernelkit.mixture import GaussianMixture

    # 2 n d² k = 1.8e6 operations a step: above TINY_BLAS_FLOPS
    X = np.random.default_rng(0).normal(size=(3_000, 10))
    GaussianMixture(3, max_iter=3, random_state=0).fit(X)


# (module, function spied, fit, the BLAS whose team the call uses: probed)
CASES = [
    ("kernelkit.utils._eigen", "eigh", lambda: _fit_kernel_pca("dense"), "scipy"),
    ("kernelkit.utils._eigen", "eigsh", lambda: _fit_kernel_pca("arpack"), "numpy"),
    ("kernelkit.utils._spectral_graph", "eigh", _fit_spectral_embedding, "scipy"),
    ("kernelkit.manifold._classical_mds", "eigvalsh", _fit_classical_mds, "scipy"),
    ("numpy.linalg", "eigh", _fit_kernel_logistic_regression, "numpy"),
]


@pytest.mark.usefixtures("two_blas_threads")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("module, name, fit, library", CASES,
                         ids=[f"{m}.{n}" for m, n, *_ in CASES])
@pytest.mark.parametrize("team_seconds, expected", [(0.02, {1}), (1e-4, {2})],
                         ids=["slow team", "prompt team"])
def test_probed_calls_run_on_one_thread_when_the_team_wakes_slowly(
        blas_thread_spy, team_probe, module, name, fit, library, team_seconds, expected):
    # with one core busy, kernel PCA of 500 samples took 3.6 s on two BLAS threads, 70 ms on
    # one; a Gaussian mixture of 100 000 samples 1.16 s against 0.37 s
    seen = blas_thread_spy(module, name)
    probed = team_probe(team_seconds)
    fit()
    assert seen and all(counts == expected for counts in seen)
    assert (library, 2) in probed


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("module, name, fit, library", CASES,
                         ids=[f"{m}.{n}" for m, n, *_ in CASES])
def test_blas_on_one_thread_makes_probed_fits_independent_of_the_verdict(
        blas_thread_spy, team_probe, module, name, fit, library):
    # the user's way to fits repeatable bit for bit under any load: no team to probe
    seen = blas_thread_spy(module, name)
    with threadpool_limits(1, user_api="blas"):
        for team_seconds in (0.02, 1e-4):
            probed = team_probe(team_seconds)
            fit()
            assert probed == []
    assert seen and all(counts == {1} for counts in seen)


@pytest.mark.usefixtures("two_blas_threads")
@pytest.mark.parametrize("name", ["_e_step", "_m_step"])
def test_gaussian_mixture_steps_run_blas_on_one_thread(blas_thread_spy, team_probe, name):
    # their threads are those of their row blocks and of the scatter core: a BLAS team would
    # spin on the cores they need, or stall beside a busy one
    seen = blas_thread_spy("kernelkit.mixture._gaussian_mixture", name)
    probed = team_probe(1e-4)   # a team that wakes promptly
    _fit_gaussian_mixture()
    assert seen and all(counts == {1} for counts in seen)
    assert probed == []


@pytest.mark.usefixtures("two_blas_threads")
def test_a_verdict_holds_until_it_expires(monkeypatch, blas_thread_spy, team_probe):
    # a loaded test machine may take more than the 0.1 s of a prompt verdict between two calls
    monkeypatch.setattr(_threads, "PROMPT_VERDICT_SECONDS", 60.0)
    large, small = 2 * _threads.SMALL_BLAS_FLOPS, _threads.SMALL_BLAS_FLOPS / 2
    for team_seconds, expected in ((0.02, {1}), (1e-4, {2})):
        probed = team_probe(team_seconds)
        for n_flops in (large, small, large):
            with _threads.lapack_threads(n_flops):
                assert blas_thread_spy.counts() == expected
        # blas_threads' large calls follow the same verdict, on the n_threads asked for
        with _threads.blas_threads(large, 2):
            assert blas_thread_spy.counts() == expected
        assert probed.count(("scipy", 2)) == 1
        # an expired verdict is measured again; a slow one then holds twice as long
        probed_at, prompt, hold = _threads._team_verdicts["scipy", 2]
        assert hold == (_threads.PROMPT_VERDICT_SECONDS if prompt
                        else _threads.SLOW_VERDICT_SECONDS)
        _threads._team_verdicts["scipy", 2] = (probed_at - 1.01 * hold, prompt, hold)
        with _threads.lapack_threads(small):
            assert blas_thread_spy.counts() == expected
        assert probed.count(("scipy", 2)) == 2
        assert _threads._team_verdicts["scipy", 2][2] == (hold if prompt else 2 * hold)
        if not prompt:   # up to MAX_SLOW_VERDICT_SECONDS
            top = _threads.MAX_SLOW_VERDICT_SECONDS
            _threads._team_verdicts["scipy", 2] = (probed_at - 1.01 * top, False, top)
            with _threads.lapack_threads(small):
                assert _threads._team_verdicts["scipy", 2][2] == top


def test_the_probe_measures_each_library_and_one_thread_needs_none(team_probe):
    probed = team_probe(1e-4)
    assert _threads.blas_team_wakes_promptly(1)
    assert probed == []
    assert _threads.blas_team_wakes_promptly(2, "numpy")
    assert _threads.blas_team_wakes_promptly(2, "scipy")
    assert probed.count(("numpy", 2)) == 1 and probed.count(("scipy", 2)) == 1


@pytest.mark.parametrize("library", ["scipy", "numpy"])
def test_the_real_probe_times_a_product(library):
    assert 0 < _threads._product_seconds(library, 1) < 1.0


@pytest.mark.usefixtures("two_blas_threads")
def test_the_kernel_combination_of_multiple_kernel_learning_asks_the_probe(team_probe):
    # with one core busy, SimpleMKL on 500 samples took 260 ms with Σ d_m K_m on NumPy's team
    # of two BLAS threads and 151 ms behind the probe
    from kernelkit.kernels import VectorKernel
    from kernelkit.mkl import SimpleMKL
    from kernelkit.mkl._kernels import combine

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(N, 4)), np.arange(N) % 2   # 2 n² m = 540 000 > TINY_BLAS_FLOPS
    probed = team_probe(0.02)
    model = SimpleMKL([VectorKernel("rbf", gamma=g) for g in (0.1, 1.0, 10.0)]).fit(X, y)
    assert ("numpy", 2) in probed
    Ks = rng.random((N, N, 3))
    np.testing.assert_allclose(combine(Ks, model.weights_), Ks @ model.weights_, rtol=1e-12)
