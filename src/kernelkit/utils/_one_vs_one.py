"""The one-vs-one layout of a multiclass SVM's dual coefficients (LIBSVM's, as scikit-learn's
``SVC.dual_coef_``), built by :class:`kernelkit.svm.SVC` and read back by SimpleMKL.

The pairs ``(a, b)``, ``a < b``, are numbered in ``itertools.combinations`` order. The support
vectors are grouped by class (``n_support[c]`` of class ``c``, in class order). For a pair
``(a, b)``, the coefficients of its class-``a`` support vectors are stored in row ``b − 1`` and
those of its class-``b`` support vectors in row ``a``: every support vector of class ``c`` takes
part in ``n_classes − 1`` pairs, which fill the ``n_classes − 1`` rows of its column exactly
once.
"""

import functools
from itertools import combinations

import numpy as np

__all__ = ["pack_dual_coef", "unpack_dual_coef"]


@functools.cache
def _pairs_by_class(n_classes):
    """``(n_classes, n_classes − 1)``: row ``c`` holds the pairs of class ``c`` with each other
    class, in class order (read-only)."""
    pair_index = np.zeros((n_classes, n_classes), dtype=np.intp)
    for k, (a, b) in enumerate(combinations(range(n_classes), 2)):
        pair_index[a, b] = pair_index[b, a] = k
    # the other classes of class c in order: c's own row of pair_index without column c
    by_class = pair_index[~np.eye(n_classes, dtype=bool)].reshape(n_classes, n_classes - 1)
    by_class.flags.writeable = False
    return by_class


def _pair_of_row(n_support):
    """``(n_SV, n_classes − 1)``: for each support vector (of class ``c``) and each row ``r`` of
    the layout, the pair stored there: the pair of ``c`` with the ``r``-th other class."""
    n_classes = len(n_support)
    return _pairs_by_class(n_classes)[np.repeat(np.arange(n_classes), n_support)]


def pack_dual_coef(pair_coef, n_support):
    """The ``(n_classes − 1, n_SV)`` layout of the coefficients ``pair_coef`` of shape
    ``(n_SV, n_pairs)`` (column ``k``: the coefficients of pair ``k``, zero off the pair)."""
    return np.take_along_axis(pair_coef, _pair_of_row(n_support), axis=1).T.copy()


def unpack_dual_coef(dual_coef, n_support):
    """The inverse of :func:`pack_dual_coef`: ``pair_coef`` of shape ``(n_SV, n_pairs)``, zero
    for the support vectors outside each pair."""
    n_classes = len(n_support)
    pair_coef = np.zeros((int(np.sum(n_support)), n_classes * (n_classes - 1) // 2))
    np.put_along_axis(pair_coef, _pair_of_row(n_support), np.asarray(dual_coef).T, axis=1)
    return pair_coef
