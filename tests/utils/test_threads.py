"""The thread probe run before an OpenMP team is first used, and the stack size it reads."""

import pytest

from kernelkit._core._openmp import openmp_probe_threads
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
