"""Shared fixtures: seeds, the hypothesis profile, the optional large benchmark data sets, and the
harnesses for Ctrl-C and address-space limits."""

import importlib.util
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import settings

# Deterministic property tests: the same examples every run, no example database (a failure seen
# once is seen again, on every machine).
settings.register_profile("kernelkit", derandomize=True, database=None, max_examples=40,
                          deadline=None)
settings.load_profile("kernelkit")

REPO_ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(params=[0] if not os.environ.get("KERNELKIT_ALL_SEEDS") else range(100))
def random_seed(request):
    """A seed; tests using it must pass for every seed 0–99 (``KERNELKIT_ALL_SEEDS=1`` runs all)."""
    return request.param


@pytest.fixture
def rng(random_seed):
    return np.random.default_rng(random_seed)


@pytest.fixture(autouse=True)
def _progress_paced_by_time_off(monkeypatch):
    """Progress lines paced by time never come due, so the lines a test counts do not depend on
    the machine's speed; a test of those lines sets ``DELAY`` and ``INTERVAL`` to 0 itself."""
    from kernelkit.utils import _progress

    monkeypatch.setattr(_progress, "DELAY", float("inf"))


def _blas_thread_counts():
    # of the BLAS libraries blas_limit controls: those loaded when it was first used (a library
    # loaded later by another test, e.g. an engine's own BLAS, is not among them)
    from kernelkit.utils._gram import blas_controller

    return {library.get_num_threads() for library in blas_controller().lib_controllers
            if library.user_api == "blas"}


@pytest.fixture
def blas_thread_spy(monkeypatch):
    """``spy(module, name)`` replaces ``module.name`` (a module or its import path) by a function
    recording the BLAS thread counts at each call, and returns the list of them (each a set);
    ``spy.counts()`` gives the counts now."""
    import importlib

    def spy(module, name):
        target = importlib.import_module(module) if isinstance(module, str) else module
        original, seen = getattr(target, name), []

        def recording(*args, **kwargs):
            seen.append(_blas_thread_counts())
            return original(*args, **kwargs)

        monkeypatch.setattr(target, name, recording)
        return seen

    spy.counts = _blas_thread_counts
    return spy


@pytest.fixture(scope="session")
def shared_data():
    """The benchmark-size data sets (too large to ship), found as the benchmarks find them
    (``kernelkit.bench._shared_data``: ``$KERNELKIT_SHARED_DATA``, else ``shared/data`` beside
    the checkout); skips when absent."""
    from kernelkit.bench._shared_data import shared_data as find_shared_data

    path = find_shared_data()
    if path is None:
        pytest.skip("the large benchmark data sets are not available (set KERNELKIT_SHARED_DATA "
                    "to their folder, or put them in shared/data beside the checkout)")
    return path


_UNDER_ADDRESS_LIMIT = """
import resource

{setup}

def mapped():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))

resource.setrlimit(resource.RLIMIT_AS, (mapped() + {headroom}, resource.getrlimit(resource.RLIMIT_AS)[1]))
try:
{request}
except ValueError as error:
    print("ValueError:", error)
"""


@pytest.fixture
def under_address_limit():
    """Run code in a child process whose address space (``ulimit -v``) is capped.

    ``run(setup, request, headroom)`` executes ``setup`` (imports, data), sets ``RLIMIT_AS`` to
    what is then mapped plus ``headroom`` bytes, runs ``request`` and prints a ``ValueError`` it
    raises. Returns the ``subprocess.CompletedProcess`` (a ``MemoryError`` or a kill shows as a
    non-zero return code).
    """
    if not pathlib.Path("/proc/self/status").exists():
        pytest.skip("needs Linux /proc to measure the mapped address space")

    def run(setup, request, headroom=2**30):
        code = _UNDER_ADDRESS_LIMIT.format(setup=textwrap.dedent(setup), headroom=int(headroom),
                                           request=textwrap.indent(textwrap.dedent(request), "    "))
        # one thread: each OpenMP/BLAS thread maps its own stack and arena
        env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, timeout=600)

    return run


@pytest.fixture(scope="session")
def sparse_inputs():
    """``tests/_sparse_inputs.py``: malformed and unusually laid out sparse matrices
    (``malformed``, ``equivalent``) and ``assert_refused``, which feeds the malformed ones to an
    estimator in a child process (an out-of-bounds access would kill pytest itself)."""
    spec = importlib.util.spec_from_file_location("_sparse_inputs",
                                                  REPO_ROOT / "tests" / "_sparse_inputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_runtest_setup(item):
    """``@pytest.mark.scikit_learn("1.9", reason=...)``: the test compares with a behaviour of
    scikit-learn that releases before 1.9 do not have (an attribute, a changed algorithm); it is
    skipped on those, with the reason. kernelkit itself supports every release ``pyproject.toml``
    allows: only the comparison needs the newer peer."""
    for marker in item.iter_markers(name="scikit_learn"):
        import sklearn
        from packaging.version import Version

        if Version(sklearn.__version__) < Version(marker.args[0]):
            pytest.skip(f"compares with scikit-learn >= {marker.args[0]}: "
                        f"{marker.kwargs['reason']} (installed: {sklearn.__version__})")


# Slow besides the tests marked slow: the fuzz suite as a whole, the tests that start a fresh
# interpreter (the Ctrl-C and address-limit harnesses: seconds of imports each), those reading
# the large benchmark data sets, and those starting a Dask cluster.
FUZZ_SUITE = pathlib.Path(__file__).resolve().parent / "fuzz"
SLOW_FIXTURES = {"ctrl_c", "under_address_limit", "shared_data"}
SLOW_MARKERS = {"distributed"}


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False,
                     help="also run the slow tests (marked slow) and the fuzz suite (tests/fuzz), "
                          "as CI does; KERNELKIT_TEST_ALL=1 does the same")
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="tests/fuzz: ten times more generated cases per estimator (runs the "
                          "slow tests too)")


def _runs_slow_tests(config):
    """``--run-slow``, ``--fuzz-long``, ``KERNELKIT_TEST_ALL=1``, or a ``-m`` expression that
    names the marker (``-m slow``): the user asked for them."""
    return (config.getoption("--run-slow") or config.getoption("--fuzz-long")
            or os.environ.get("KERNELKIT_TEST_ALL", "0") not in ("", "0")
            or "slow" in (config.getoption("markexpr") or ""))


def pytest_collection_modifyitems(config, items):
    """The slow tests — marked ``@pytest.mark.slow``, and those of :data:`FUZZ_SUITE`,
    :data:`SLOW_FIXTURES` and :data:`SLOW_MARKERS` — are deselected unless asked for
    (:func:`_runs_slow_tests`): the default ``pytest`` stays a run of a few minutes that still
    tests every estimator, and CI runs everything."""
    for item in items:
        if (FUZZ_SUITE in item.path.parents
                or SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))
                or any(item.get_closest_marker(name) is not None for name in SLOW_MARKERS)):
            item.add_marker(pytest.mark.slow)
    if _runs_slow_tests(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_report_header(config):
    if not _runs_slow_tests(config):
        return ("slow tests and the fuzz suite (tests/fuzz) are deselected; "
                "--run-slow or KERNELKIT_TEST_ALL=1 runs them")
    return None


@pytest.fixture
def near_float_max():
    """``make(value=1e200)``: five normal samples and five at ``value`` in every feature, whose
    squared distances overflow float64."""

    def make(value=1e200):
        rng = np.random.default_rng(0)
        return np.vstack([rng.normal(size=(5, 3)), np.full((5, 3), value)])

    return make


_CTRL_C_SCRIPT = '''
import signal
# Python's Ctrl-C handler, also when the test runs in a background job (which ignores SIGINT)
signal.signal(signal.SIGINT, signal.default_int_handler)
{setup}
print("ready", flush=True)
try:
    run()
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
{after}
'''


@pytest.fixture
def ctrl_c():
    """``ctrl_c(setup, after="")``: run ``setup`` (Python source defining ``run()``, a call that
    would take far longer than the timeout) in a subprocess, send SIGINT 0.5 s into ``run()``,
    and return the lines it printed: ``"interrupted"`` when ``run()`` raised KeyboardInterrupt,
    then whatever ``after`` (source run after it, e.g. a second, short fit) prints. A loop that
    never looks at the signals runs into the timeout instead."""
    import signal
    import subprocess
    import sys
    import textwrap
    import time

    def run(setup, after="", timeout=60):
        script = _CTRL_C_SCRIPT.format(setup=textwrap.dedent(setup), after=textwrap.dedent(after))
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline().strip() == "ready"
            time.sleep(0.5)                   # inside the compiled loop by now
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=timeout)
        finally:
            proc.kill()
            proc.wait()
        return out.split()

    return run
