"""The thread probe run before an OpenMP team is first used, the stack size it reads, and the
n_jobs values estimators accept."""

import os
import subprocess
import sys

import numpy as np
import pytest
from kernelkit._core._openmp import openmp_library, openmp_probe_threads

from kernelkit.cluster import KMeans
from kernelkit.kernels import SpectrumKernel
from kernelkit.svm import SVC
from kernelkit.utils._threads import (
    _openmp_stack_size,
    min_work_per_thread,
    parallel_region_seconds,
)


def test_probe_starts_and_joins_threads():
    assert openmp_probe_threads(0, 0) == 0
    assert openmp_probe_threads(3, 0) == 0
    assert openmp_probe_threads(2, 2**20) == 0


def test_team_sizes_come_from_one_measured_region_cost():
    assert min_work_per_thread(1) == 0.0
    cost = parallel_region_seconds(2)
    assert 0.0 <= cost < 1.0
    assert parallel_region_seconds(2) == cost   # measured once per process
    assert min_work_per_thread(2, back_to_back=True) == 2 * cost
    woken = parallel_region_seconds(2, after_pause=True)
    assert 0.0 <= woken < 1.0
    assert parallel_region_seconds(2, after_pause=True) == woken
    assert min_work_per_thread(2) == 2 * woken


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


def test_fold_row_blocks_covers_every_row_once_in_slot_order():
    from kernelkit.utils._threads import fold_row_blocks

    def fold(state, start, stop):
        return (state or []) + [(start, stop)]

    for n_threads in (1, 2):
        states = fold_row_blocks(fold, 103, 10, n_threads)
        assert len(states) == 8
        blocks = [block for state in states for block in state]
        assert blocks == [(start, min(start + 10, 103)) for start in range(0, 103, 10)]
    assert fold_row_blocks(fold, 3, 10, 2) == [[(0, 3)]]


def test_fold_row_blocks_raises_the_error_of_a_slot():
    from kernelkit.utils._threads import fold_row_blocks

    def fold(state, start, stop):
        if start == 50:
            raise ValueError("block 50")
        return state

    with pytest.raises(ValueError, match="block 50"):
        fold_row_blocks(fold, 100, 10, 2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_scatter_matrix(rng, monkeypatch, dtype):
    from kernelkit.utils import _scatter

    monkeypatch.setattr(_scatter, "_BLOCK_ELEMENTS", 30)    # 6-row blocks of 5 columns
    monkeypatch.setattr(_scatter, "_MIN_BLOCK_ROWS", 1)
    X = rng.normal(size=(101, 5)).astype(dtype)
    weights = rng.random(101)
    expected = (X.astype(np.float64) * weights[:, None]).T @ X
    one = _scatter.scatter_matrix(X, weights=weights, n_threads=1)
    assert one.dtype == dtype
    np.testing.assert_array_equal(one, one.T)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(one, expected, rtol=tol, atol=tol * np.abs(expected).max())
    np.testing.assert_array_equal(
        one, _scatter.scatter_matrix(X, weights=weights, n_threads=2))
    np.testing.assert_allclose(_scatter.scatter_matrix(X), X.T.astype(np.float64) @ X,
                               rtol=tol)


@pytest.mark.parametrize("n_threads", [1, 2])
def test_scatter_matrix_around_a_far_centre_has_no_cancellation(rng, monkeypatch, n_threads):
    # a Gaussian mixture's covariance: rows of spread 1 around a mean of 1e6; the weighted
    # second moment minus n c cᵀ would lose about 12 of the 16 digits
    from kernelkit.utils import _scatter

    monkeypatch.setattr(_scatter, "_BLOCK_ELEMENTS", 30)    # 6-row blocks of 5 columns
    monkeypatch.setattr(_scatter, "_MIN_BLOCK_ROWS", 1)
    Z = rng.normal(size=(101, 5))
    weights = rng.random(101)
    centre = weights @ Z / weights.sum()
    expected = (Z - centre).T @ ((Z - centre) * weights[:, None])
    S = _scatter.scatter_matrix(Z + 1e6, weights=weights, centre=centre + 1e6,
                                n_threads=n_threads)
    np.testing.assert_allclose(S, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("centred", [False, True])
@pytest.mark.parametrize("ones_column", [False, True])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("n_sets", [1, 3])
def test_weighted_scatter_core_is_its_twin_bit_for_bit(rng, dtype, weighted, centred, ones_column,
                                                        order, n_sets):
    from kernelkit._core._weighted_scatter import weighted_scatter_slots
    from kernelkit.reference.scatter import weighted_scatter_slots as twin
    from kernelkit.utils._threads import slot_cuts

    X = np.asarray(rng.normal(size=(103, 5)).astype(dtype), order=order)
    roots = (np.sqrt(rng.random((n_sets, 103))).astype(dtype) if weighted
             else np.empty((n_sets, 0), dtype=dtype))
    centres = (rng.normal(size=(n_sets, 5)).astype(dtype) if centred
               else np.empty((n_sets, 0), dtype=dtype))
    width = 5 + ones_column
    block_rows = 7                                  # 15 blocks, the last one short, 8 slots
    cuts = slot_cuts(-(-103 // block_rows))
    expected = np.zeros((n_sets, len(cuts) - 1, width, width), dtype=dtype)
    twin(X, roots, centres, ones_column, block_rows, cuts, expected)
    for n_threads in (1, 2, 3):
        totals = np.zeros_like(expected)
        weighted_scatter_slots(X, roots, centres, ones_column, block_rows, cuts, totals,
                               n_threads)
        np.testing.assert_array_equal(totals, expected)
    # and each set's slots add up to the scatter matrix of its (shifted, stacked, weighted) rows
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for j in range(n_sets):
        A = X - centres[j] if centred else X
        A = np.column_stack([A, np.ones(103, dtype=dtype)]) if ones_column else A
        w = roots[j].astype(np.float64) ** 2 if weighted else np.ones(103)
        upper = np.triu(expected[j].sum(axis=0).T)
        np.testing.assert_allclose(upper, np.triu((A * w[:, None]).T @ A), rtol=tol,
                                   atol=tol * np.abs(A).max() ** 2 * 103)


def test_weighted_scatter_core_refuses_mismatched_shapes():
    from kernelkit._core._weighted_scatter import weighted_scatter_slots

    X, none, three_blocks = np.ones((10, 3)), np.empty((1, 0)), np.array([0, 3], dtype=np.intp)
    for roots, centres, cuts, totals in [
            (np.ones((1, 9)), none, three_blocks, np.zeros((1, 1, 3, 3))),
            (np.ones((1, 10)), none, np.array([0, 2], dtype=np.intp),   # 8 rows of 10
             np.zeros((1, 1, 3, 3))),
            (np.ones((1, 10)), np.ones((1, 2)), three_blocks, np.zeros((1, 1, 3, 3))),
            (np.ones((2, 10)), np.ones((1, 3)), three_blocks, np.zeros((2, 1, 3, 3))),
            (np.ones((2, 10)), np.empty((2, 0)), three_blocks, np.zeros((1, 1, 3, 3)))]:
        with pytest.raises(ValueError, match="shapes do not match"):
            weighted_scatter_slots(X, roots, centres, False, 4, cuts, totals, 1)


@pytest.mark.parametrize("weighted", [False, True])
def test_scatter_matrix_ones_column_is_the_stacked_designs(rng, monkeypatch, weighted):
    # the logistic regression's Hessian of [X, 1] without the stacked copy: the same blocks
    # (sized by the stacked width), the same buffer values, so the same bits
    from kernelkit.utils import _scatter

    monkeypatch.setattr(_scatter, "_BLOCK_ELEMENTS", 36)    # 6-row blocks of 6 columns
    monkeypatch.setattr(_scatter, "_MIN_BLOCK_ROWS", 1)
    X = rng.normal(size=(101, 5))
    weights = rng.random(101) if weighted else None
    stacked = np.hstack([X, np.ones((101, 1))])
    for n_threads in (1, 2):
        np.testing.assert_array_equal(
            _scatter.scatter_matrix(X, weights=weights, ones_column=True, n_threads=n_threads),
            _scatter.scatter_matrix(stacked, weights=weights, n_threads=n_threads))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_samples", [1, 5, 6, 7, 101])
def test_mean_and_scatter(rng, monkeypatch, dtype, n_samples):
    from kernelkit.utils import _scatter

    monkeypatch.setattr(_scatter, "_BLOCK_ELEMENTS", 30)    # 6-row blocks of 5 columns
    monkeypatch.setattr(_scatter, "_MIN_BLOCK_ROWS", 1)
    # a mean far from the spread: X^T X - n mu mu^T loses about 12 of float64's 16 digits, and
    # merging blocks by differences of their raw means about 6
    X = (rng.normal(size=(n_samples, 5)) + 1e6).astype(dtype)
    exact = X.astype(np.longdouble)
    exact_mean = exact.mean(axis=0)
    expected = ((exact - exact_mean).T @ (exact - exact_mean)).astype(np.float64)
    mean, S = _scatter.mean_and_scatter(X, n_threads=1)
    assert mean.dtype == S.dtype == dtype
    np.testing.assert_array_equal(S, S.T)
    tol = 1e-14 if dtype == np.float64 else 1e-6
    np.testing.assert_allclose(mean, exact_mean.astype(np.float64), rtol=tol)
    np.testing.assert_allclose(S, expected, rtol=0, atol=tol * np.abs(expected).max())
    mean2, S2 = _scatter.mean_and_scatter(X, n_threads=2)
    np.testing.assert_array_equal(mean, mean2)
    np.testing.assert_array_equal(S, S2)


def test_row_block_product(rng, monkeypatch):
    from kernelkit.utils import _scatter

    monkeypatch.setattr(_scatter, "_PRODUCT_BLOCK_ELEMENTS", 30)
    X, M, shift = rng.normal(size=(53, 4)), rng.normal(size=(4, 3)), rng.normal(size=4)
    one = _scatter.row_block_product(X, M, shift=shift, n_threads=1)
    np.testing.assert_allclose(one, (X - shift) @ M, atol=1e-12)
    np.testing.assert_array_equal(one, _scatter.row_block_product(X, M, shift=shift,
                                                                  n_threads=2))
    np.testing.assert_allclose(_scatter.row_block_product(X, M), X @ M, atol=1e-12)


def test_blas_limit_sets_and_restores_the_blas_threads():
    from threadpoolctl import threadpool_info

    from kernelkit.utils._gram import blas_controller, blas_limit

    def counts():
        # the libraries blas_limit controls (found at its first use; one loaded later by
        # another test, e.g. an engine's own BLAS, is not among them)
        return [info["num_threads"] for info in threadpool_info()
                if info["user_api"] == "blas" and info["filepath"] in controlled]

    controlled = {library.filepath for library in blas_controller().lib_controllers}

    before = counts()
    with blas_limit(1):
        assert set(counts()) == {1}
    assert counts() == before
    with pytest.raises(RuntimeError, match="inside"):
        with blas_limit(1):
            raise RuntimeError("inside")
    assert counts() == before


def _runtime_settings(env):
    """The wait settings kernelkit's OpenMP runtime printed when it loaded in a fresh interpreter
    with ``env`` (libgomp's OMP_DISPLAY_ENV), and whether the variables stayed set."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    result = subprocess.run(
        [sys.executable, "-c", "import os, kernelkit._core; "
         "print('GOMP_SPINCOUNT' in os.environ, 'OMP_WAIT_POLICY' in os.environ)"],
        env={**environ, "OMP_DISPLAY_ENV": "verbose", **env}, capture_output=True, text=True,
        timeout=120, check=True)
    return result.stderr, result.stdout.split()


@pytest.mark.skipif("libgomp" not in str(openmp_library()),
                    reason="the variables and OMP_DISPLAY_ENV are GNU OpenMP's")
@pytest.mark.parametrize(("env", "printed", "left"), [
    ({}, ["OMP_WAIT_POLICY = 'PASSIVE'", "GOMP_SPINCOUNT = '1000'"], ["False", "False"]),
    ({"GOMP_SPINCOUNT": "0"}, ["OMP_WAIT_POLICY = 'PASSIVE'", "GOMP_SPINCOUNT = '0'"],
     ["True", "False"]),
    ({"OMP_WAIT_POLICY": "ACTIVE"}, ["OMP_WAIT_POLICY = 'ACTIVE'"], ["False", "True"]),
])
def test_runtime_threads_spin_briefly_then_sleep_unless_the_user_chose(env, printed, left):
    # kernelkit's runtime loads with a short spin and PASSIVE (its threads sleep after 1 000
    # polls), keeps what the user set, and leaves the environment as it found it
    stderr, variables_left = _runtime_settings(env)
    for line in printed:
        assert line in stderr
    if env:
        assert "GOMP_SPINCOUNT = '1000'" not in stderr
    assert variables_left == left
