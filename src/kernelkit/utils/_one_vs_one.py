"""The one-vs-one layout of a multiclass SVM's dual coefficients (LIBSVM's, as scikit-learn's
``SVC.dual_coef_``), built by :class:`kernelkit.svm.SVC` and read back by SimpleMKL.

The pairs ``(a, b)``, ``a < b``, are numbered in ``itertools.combinations`` order. The support
vectors are grouped by class (``n_support[c]`` of class ``c``, in class order). For a pair
``(a, b)``, the coefficients of its class-``a`` support vectors are stored in row ``b − 1`` and
those of its class-``b`` support vectors in row ``a``: every support vector of class ``c`` takes
part in ``n_classes − 1`` pairs, which fill the ``n_classes − 1`` rows of its column exactly
once.
"""

import numpy as np

__all__ = ["pack_dual_coef", "unpack_dual_coef"]


def _owners_and_pairs(n_support):
    n_classes = len(n_support)
    owner = np.repeat(np.arange(n_classes), n_support)
    pairs = [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)]
    return owner, pairs


def pack_dual_coef(pair_coef, n_support):
    """The ``(n_classes − 1, n_SV)`` layout of the coefficients ``pair_coef`` of shape
    ``(n_SV, n_pairs)`` (column ``k``: the coefficients of pair ``k``, zero off the pair)."""
    owner, pairs = _owners_and_pairs(n_support)
    dual_coef = np.zeros((len(n_support) - 1, owner.size))
    for k, (a, b) in enumerate(pairs):
        in_a, in_b = owner == a, owner == b
        dual_coef[b - 1, in_a] = pair_coef[in_a, k]
        dual_coef[a, in_b] = pair_coef[in_b, k]
    return dual_coef


def unpack_dual_coef(dual_coef, n_support):
    """The inverse of :func:`pack_dual_coef`: ``pair_coef`` of shape ``(n_SV, n_pairs)``, zero
    for the support vectors outside each pair."""
    owner, pairs = _owners_and_pairs(n_support)
    pair_coef = np.zeros((owner.size, len(pairs)))
    for k, (a, b) in enumerate(pairs):
        in_a, in_b = owner == a, owner == b
        pair_coef[in_a, k] = dual_coef[b - 1, in_a]
        pair_coef[in_b, k] = dual_coef[a, in_b]
    return pair_coef
