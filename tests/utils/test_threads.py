"""The thread probe run before an OpenMP team is first used, the stack size it reads, and the
n_jobs values estimators accept."""

import numpy as np
import pytest

from kernelkit._core._openmp import openmp_probe_threads
from kernelkit.cluster import KMeans
from kernelkit.kernels import SpectrumKernel
from kernelkit.svm import SVC
from kernelkit.utils._threads import _openmp_stack_size


def test_probe_starts_and_joins_threads():
    assert openmp_probe_threads(0, 0) == 0
    assert openmp_probe_threads(3, 0) == 0
    assert openmp_probe_threads(2, 2**20) == 0


@pytest.mark.parametrize("value, size", [
    ("", 0), ("2048", 2**21), ("4k", 2**12), ("16 M", 2**24), ("1G", 2**30), ("512b", 512),
    ("lots", 0), ("-1", 0), ("9" * 30, 0),
])
def test_openmp_stack_size_reads_the_libgomp_syntax(monkeypatch, value, size):
    monkeypatch.delenv("GOMP_STACKSIZE", raising=False)
    monkeypatch.setenv("OMP_STACKSIZE", value)
    assert _openmp_stack_size() == size


def test_openmp_stack_size_falls_back_to_gomp_stacksize(monkeypatch):
    monkeypatch.delenv("OMP_STACKSIZE", raising=False)
    monkeypatch.setenv("GOMP_STACKSIZE", "100")
    assert _openmp_stack_size() == 100 * 2**10


def test_numpy_integers_are_accepted_as_n_jobs():
    # grid searches pass numpy integers
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.arange(20) % 2
    np.testing.assert_array_equal(SVC(n_jobs=np.int64(2)).fit(X, y).predict(X),
                                  SVC(n_jobs=1).fit(X, y).predict(X))
    assert KMeans(2, n_jobs=np.int64(2), n_init=1, random_state=0).fit(X).n_iter_ >= 1
    strings = ["ACDE", "ACDF"]
    np.testing.assert_array_equal(SpectrumKernel(k=2, n_jobs=np.int64(2)).fit_transform(strings),
                                  SpectrumKernel(k=2, n_jobs=1).fit_transform(strings))
