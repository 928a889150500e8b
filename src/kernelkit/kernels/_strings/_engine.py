"""Driving the compiled Gram cores block of rows by block of rows, with an optional progress bar.

The cores fill any range of rows of the output in parallel (``_core/_pairs.pxd``); calling them on
one range keeps every thread busy, while calling them on successive blocks lets Python report
progress between blocks at no measurable cost for the block sizes used here.
"""

import sys
import time

import numpy as np

__all__ = ["fill_gram"]

_N_PROGRESS_BLOCKS = 20


def _row_blocks(n_rows, n_cols, symmetric, n_blocks):
    """Row boundaries cutting the work (pairs computed) into ``n_blocks`` near-equal blocks."""
    rows = np.arange(n_rows + 1)
    # in the symmetric case row i computes the n − i pairs j ≥ i
    work = rows * n_cols - (rows * (rows - 1)) // 2 if symmetric else rows * n_cols
    targets = np.linspace(0, work[-1], n_blocks + 1)
    bounds = np.unique(np.searchsorted(work, targets))
    bounds[0], bounds[-1] = 0, n_rows
    return bounds


def fill_gram(fill_rows, n_rows, n_cols, symmetric, verbose=0, label="kernel"):
    """Allocate the ``(n_rows, n_cols)`` Gram and fill it with ``fill_rows(out, start, stop)``.

    Parameters
    ----------
    fill_rows : callable
        ``fill_rows(out, row_start, row_stop)`` computes rows ``[row_start, row_stop)`` of ``out``
        (and, when ``symmetric``, their mirror images).
    n_rows, n_cols : int
    symmetric : bool
    verbose : int
        When positive, a progress line on stderr after each of about 20 blocks.
    label : str
        Name shown in the progress line.

    Returns
    -------
    out : ndarray of shape (n_rows, n_cols), dtype float64
    """
    out = np.zeros((n_rows, n_cols), dtype=np.float64)
    if not verbose:
        fill_rows(out, 0, n_rows)
        return out
    bounds = _row_blocks(n_rows, n_cols, symmetric, min(n_rows, _N_PROGRESS_BLOCKS))
    total = bounds[-1]
    t0 = time.perf_counter()
    for start, stop in zip(bounds[:-1], bounds[1:]):
        fill_rows(out, int(start), int(stop))
        print(f"\r[{label}] {stop}/{total} rows, {time.perf_counter() - t0:.1f} s",
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr, flush=True)
    return out
