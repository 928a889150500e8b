"""Histogram-intersection Gram matrices of sparse counts, shared by the graph kernels built on
label histograms compared by ``Σ min`` (Weisfeiler–Lehman optimal assignment, neighbourhood
hash)."""

import numpy as np
import scipy.sparse as sp

from kernelkit._core import _histogram_intersection
from kernelkit.kernels._base import fill_gram

__all__ = ["intersection_gram"]

# Below this many pairs per thread, waking threads costs more than the pairs.
_MIN_PAIRS_PER_THREAD = 1 << 14


def intersection_gram(left, right=None, n_threads=1, verbose=0, label="kernel"):
    """``K[i, j] = Σ_u min(left[i, u], right[j, u])`` as a dense float64 array.

    Parameters
    ----------
    left : scipy.sparse.csr_array of shape (n_left, n_features)
        Non-negative integer counts.
    right : scipy.sparse.csr_array of shape (n_right, n_features) or None
        None: ``left`` with itself.
    n_threads, verbose : int
    label : str
        Name shown in progress lines.

    Returns
    -------
    K : ndarray of shape (n_left, n_right)
    """
    other = left if right is None else right
    if left.shape[0] * other.shape[0] < _MIN_PAIRS_PER_THREAD * n_threads:
        n_threads = 1
    a = _arrays(left)
    # posting lists of the right-hand rows: row i of the left visits only the rows j that share
    # one of its features
    b = _arrays(sp.csc_array(other))

    def fill_rows(out, start, stop):
        _histogram_intersection.intersection_gram(*a, *b, out, start, stop, n_threads)

    return fill_gram(fill_rows, left.shape[0], other.shape[0], right is None, verbose, label)


def _arrays(matrix):
    return (matrix.indptr.astype(np.intp), matrix.indices.astype(np.intp),
            matrix.data.astype(np.float64))
