"""The index of the Euclidean k-NN search: the KD-tree where it saves work, else what the brute
force screens with. Built from the training rows by the first search, not by ``fit``."""

import os
import threading

from kernelkit.neighbors._kd_tree import KDTreeIndex
from kernelkit.utils._screening import float32_screening_applies, float32_screening_copy

__all__ = ["BuiltOnFirstUse", "SearchIndex"]

# "auto" tries the KD-tree at or below this many features and from this many training samples,
# and keeps it when its search of _TREE_PROBES training rows computes at most _TREE_MAX_SCANNED
# of the distances a brute force would (a deterministic count, so the choice, and the results,
# do not depend on the machine's speed). Measured (2026-11-27, 2 threads, 1e5 rows, 1e4 queries,
# k = 10; tree ÷ brute-force time): 20 Gaussian clusters 0.35 at d = 12, 0.7 at d = 20, 0.8 at
# d = 24; a single Gaussian 2.7 at d = 12, 10 at d = 16. The tree then scanned 4.7 %, 6 %, 29 %
# and 68 % of the rows: a distance costs it 7 to 12 times the brute force's, so it wins while
# it scans less than about a tenth of the rows.
_TREE_MAX_FEATURES = 20
_TREE_MIN_SAMPLES = 20_000
_TREE_PROBES = 256
_TREE_MAX_SCANNED = 0.1


class SearchIndex:
    """What the Euclidean search of the training rows ``X`` needs besides ``X``.

    A function of ``X``, ``algorithm`` and ``n_neighbors`` alone (the probe's count of distances
    does not depend on the thread count), so an index built again, after unpickling, is the
    same.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
        Validated training rows.
    algorithm : {"auto", "brute", "kd_tree"}
    n_neighbors : int
        The ``k`` of the probe that decides whether "auto" keeps the tree.
    n_threads : int
        Threads of the tree's build and of the probe.

    Attributes
    ----------
    tree : KDTreeIndex or None
        The KD-tree, or None for the brute force.
    fit_X32 : ndarray of shape (n_samples, n_features), float32, or None
        Float64 ``X`` rounded to float32, whose GEMM screens the brute force's candidates
        (:func:`~kernelkit.utils._screening.float32_screening_copy`); None where it does not
        apply.
    screen32 : bool
        Float32 ``X`` screened by its own GEMM (no copy).
    """

    def __init__(self, X, algorithm, n_neighbors, n_threads):
        n_samples, n_features = X.shape
        use_tree = algorithm == "kd_tree" or (
            algorithm == "auto" and n_features <= _TREE_MAX_FEATURES
            and n_samples >= _TREE_MIN_SAMPLES)
        self.tree = KDTreeIndex(X, n_threads=n_threads) if use_tree else None
        if use_tree and algorithm == "auto":
            probes = X[::max(1, n_samples // _TREE_PROBES)]
            k = min(n_neighbors, n_samples)
            if self.tree.scanned_fraction(probes, k, n_threads) > _TREE_MAX_SCANNED:
                self.tree = None
        brute = self.tree is None
        # float64 data in many dimensions: float32 block products screen the candidates, exact
        # distances decide (knn_brute_screened)
        self.fit_X32 = float32_screening_copy(X) if brute else None
        # float32 data in as many dimensions: its own float32 products screen, exact distances
        # of its rows decide (knn_brute with exact=True), no copy
        self.screen32 = brute and float32_screening_applies(X)

    def describe(self):
        """``"KD-tree"``, ``"brute force"`` or ``"brute force, float32 screening"``."""
        if self.tree is not None:
            return "KD-tree"
        return "brute force, float32 screening" if (
            self.fit_X32 is not None or self.screen32) else "brute force"


class BuiltOnFirstUse:
    """A value built by the first :meth:`get` and kept; threads calling :meth:`get` at once
    build it once (the others wait for it under the lock).

    The estimator holds this object from ``fit`` on, so a query that builds the value leaves the
    estimator's ``__dict__`` unchanged (scikit-learn's ``check_dict_unchanged``). Pickles and
    copies leave the value out: the first :meth:`get` after loading builds it again, and so
    does a fork child whose parent had not built it.

    Attributes
    ----------
    value : object
        None until built.
    """

    def __init__(self):
        self.value = None
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def get(self, build):
        """The value, built by ``build()`` if this is the first call."""
        value = self.value
        if value is None:
            if self._pid != os.getpid():
                # a fork child: a thread of the parent may have held the lock, and it is not
                # copied to release it
                self._lock, self._pid = threading.Lock(), os.getpid()
            with self._lock:
                value = self.value
                if value is None:
                    value = self.value = build()
        return value

    def __getstate__(self):
        return {}

    def __setstate__(self, state):
        self.__init__()
