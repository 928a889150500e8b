"""Package-level behaviour: the build check on import, thread counts, bench suites."""

import pathlib
import subprocess
import sys

import numpy as np
import pytest

import kernelkit
from kernelkit.utils._threads import _usable_cpus, effective_n_threads


def test_unbuilt_source_tree_explains_how_to_build(tmp_path):
    # A package directory without the compiled kernelkit._core, as in an unbuilt checkout;
    # -S keeps site-packages (and an editable install's import hook) out of the way.
    package = tmp_path / "kernelkit"
    package.mkdir()
    init = pathlib.Path(kernelkit.__file__).read_text()
    (package / "__init__.py").write_text(init)
    result = subprocess.run([sys.executable, "-S", "-c", "import kernelkit"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "compiled cores (kernelkit._core) could not be imported" in result.stderr
    assert "pip install" in result.stderr


def test_effective_n_threads():
    assert effective_n_threads(1) == 1
    cpus = _usable_cpus()
    assert effective_n_threads(3) == min(3, cpus)
    assert effective_n_threads(10**6) == cpus      # never more threads than usable CPUs
    assert effective_n_threads(2**62) == cpus
    assert effective_n_threads(-1) >= 1
    assert effective_n_threads(None) >= 1
    with pytest.raises(ValueError, match="n_jobs"):
        effective_n_threads(0)
    with pytest.raises(ValueError, match="n_jobs"):
        effective_n_threads(1.5)
    with pytest.raises(ValueError, match="n_jobs"):
        effective_n_threads(True)
    # grid searches pass numpy integers
    assert effective_n_threads(np.int64(2)) == min(2, cpus)
    assert type(effective_n_threads(np.int64(2))) is int


@pytest.mark.parametrize("n_jobs, valid", [(np.int64(2), True), (-1, True), (0, False)])
def test_n_jobs_constraint(n_jobs, valid):
    from kernelkit.cluster import KMeans
    from kernelkit.utils._sklearn_compat import InvalidParameterError

    X = np.arange(12.0).reshape(6, 2)
    model = KMeans(n_clusters=2, random_state=0, n_jobs=n_jobs)
    if valid:
        assert model.fit(X).labels_.shape == (6,)
    else:
        with pytest.raises(InvalidParameterError, match="n_jobs"):
            model.fit(X)


def test_threadpoolctl_limit_is_honoured():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    with threadpoolctl.threadpool_limits(limits=1, user_api="openmp"):
        assert effective_n_threads(None) == 1


def test_kmeans_bench_suite_is_declared():
    from kernelkit.bench._harness import available_suites, load_suite

    assert "kmeans" in available_suites()
    suite = load_suite("kmeans")
    assert suite.contenders[0].name == "kernelkit"
    assert all(case["n"] <= 200_000 for case in suite.cases(True))


def test_networkx_is_a_runtime_dependency():
    # the README's graph examples must work after `pip install .` alone
    from importlib.metadata import requires

    requirements = requires("kernelkit") or []
    assert any(r.startswith("networkx") and "extra ==" not in r for r in requirements)


def test_version_is_the_installed_distributions():
    from importlib.metadata import version

    assert kernelkit.__version__ == version("kernelkit")
