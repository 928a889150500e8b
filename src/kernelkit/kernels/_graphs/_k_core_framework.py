"""The k-core framework (the "core framework" of Nikolentzos et al. 2018): a graph kernel
summed over the nested k-cores of the graphs."""

import time
from numbers import Integral

import numpy as np
from sklearn.base import clone

from kernelkit._core import _k_core_decomposition
from kernelkit.kernels._base import StructuredKernel, pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GraphKernel
from kernelkit.kernels._graphs._encoding import GraphBatch
from kernelkit.kernels._graphs._shortest_path import ShortestPathKernel
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = ["CoreFrameworkKernel", "core_framework_kernel"]


class CoreFrameworkKernel(GraphKernel):
    r"""Core framework: a base graph kernel summed over the nested k-cores of the graphs.

    The :math:`i`-core :math:`C_i(G)` of a graph is its largest induced subgraph whose nodes
    all have degree :math:`\ge i` (empty above the degeneracy :math:`\delta(G)`, the whole graph
    at :math:`i = 0`). For a base kernel :math:`k`,

    .. math::

        k_{\mathrm{core}}(G, G') = \sum_{i = \mathrm{min\_core} + 1}^{\min(\delta(G), \delta(G'))}
        k\left(C_i(G), C_i(G')\right),

    a sum of positive definite kernels when :math:`k` is one. The core numbers come from
    Batagelj & Zaversnik's :math:`O(n + m)` peeling (compiled, over the whole batch at once).
    At each level the base kernel is fitted once, at ``fit``, on the :math:`i`-cores of the
    training graphs that have one, with the node and edge label codes learned on the whole
    graphs; ``transform`` reuses these fitted base kernels level by level.

    Equal to GraKeL's ``CoreFramework(base_graph_kernel=...)`` with the corresponding base
    kernel (``normalize=False``), which also sums over the cores ``0, ..., δ`` with the
    empty ones contributing 0. GraKeL 0.1.11 ignores its ``min_core`` argument (always
    ``-1``); here ``min_core`` drops the levels ``<= min_core``.

    Parameters
    ----------
    base_kernel : graph kernel object or None, default=None
        A kernelkit graph kernel (e.g. :class:`WeisfeilerLehmanKernel`), cloned at every level;
        its node and edge label attributes are the ones read. None:
        :class:`ShortestPathKernel` (as GraKeL). Its ``normalize`` must be False: normalise
        the sum with this kernel's ``normalize``. Its ``n_jobs`` is replaced by this kernel's.
    min_core : int, default=-1
        Only the cores of level ``> min_core`` are compared (-1: all, from the whole graph).
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads of the base kernel at every level.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : object
        The fitted graphs' cores, level by level, in the base kernels' representation.
    n_samples_fit_ : int
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit``.
    edge_label_codes_ : dict
        Edge label → integer code (empty when the base kernel uses no edge labels).
    core_levels_ : ndarray of int
        The core levels compared: ``min_core + 1, ..., δ_max`` with ``δ_max`` the largest
        degeneracy of the fitted graphs.
    base_kernels_ : list of graph kernel objects
        The base kernel fitted on each level's cores, aligned with ``core_levels_``.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    ShortestPathKernel, WeisfeilerLehmanKernel : base kernels.

    References
    ----------
    G. Nikolentzos, P. Meladianos, S. Limnios, M. Vazirgiannis. A degeneracy framework for
    graph similarity. IJCAI 2018.
    V. Batagelj, M. Zaversnik. An O(m) algorithm for cores decomposition of networks.
    arXiv:cs/0310049, 2003.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import CoreFrameworkKernel, WeisfeilerLehmanKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
    >>> CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=1)).fit_transform([path, triangle])
    array([[16., 14.],
           [14., 30.]])
    """

    _parameter_constraints = {
        **StructuredKernel._parameter_constraints,
        "base_kernel": [GraphKernel, None],
        "min_core": [Interval(Integral, -1, MAX_INT, closed="left")],
    }

    def __init__(self, base_kernel=None, *, min_core=-1, normalize=False, n_jobs=None,
                 verbose=0):
        self.base_kernel = base_kernel
        self.min_core = min_core
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _base(self):
        return ShortestPathKernel() if self.base_kernel is None else self.base_kernel

    @property
    def _hashes_labels(self):
        return self._base()._hashes_labels

    def _node_label_attribute(self):
        return self._base()._node_label_attribute()

    def _edge_label_attribute(self):
        return self._base()._edge_label_attribute()

    def _unlabeled_rule(self):
        return self._base()._unlabeled_rule()

    def _level_kernel(self):
        """A clone of the base kernel set up with the label codes learned at ``fit``."""
        base = clone(self._base()).set_params(n_jobs=self.n_jobs)
        base.node_label_codes_ = self.node_label_codes_
        base.edge_label_codes_ = self.edge_label_codes_
        # kernels with a growing feature vocabulary start it empty (as their fit does)
        reset_vocabulary = getattr(base, "_reset_vocabulary", None)
        if reset_vocabulary is not None:
            reset_vocabulary()
        return base

    def _represent(self, batch, fitting):
        start = time.perf_counter()
        core_number = np.empty(batch.n_nodes, dtype=np.int32)
        _k_core_decomposition.core_numbers(batch.indptr, batch.indices, core_number)
        degeneracy = np.maximum.reduceat(core_number, batch.node_ptr[:-1])
        self._report(f"core numbers of {batch.n_nodes} nodes", start)
        if fitting:
            base = self._base()
            if base.normalize:
                raise ValueError(
                    "CoreFrameworkKernel sums the base kernel's raw values over the cores: "
                    "pass a base kernel with normalize=False and set normalize=True on "
                    "CoreFrameworkKernel instead.")
            if degeneracy.max() <= self.min_core:
                raise ValueError(
                    f"min_core={self.min_core} leaves no core to compare: the largest core "
                    f"number of these graphs is {degeneracy.max()}; lower min_core.")
            self.core_levels_ = np.arange(self.min_core + 1, degeneracy.max() + 1)
            self.base_kernels_ = []
        levels = []
        for k, level in enumerate(self.core_levels_.tolist()):
            core_batch, members = _k_core_batch(batch, core_number, level)
            if fitting:
                self.base_kernels_.append(self._level_kernel())
                self.base_kernels_[k]._validate_params()
            rep = None if core_batch is None else \
                self.base_kernels_[k]._represent(core_batch, fitting)
            levels.append((members, rep))
        beyond = [_k_core_batch(batch, core_number, level)
                  for level in range(self.core_levels_[-1] + 1, degeneracy.max() + 1)]
        return _KCoreLevels(batch.n_samples, levels, beyond)

    def _gram(self, A, B=None):
        other = A if B is None else B
        K = np.zeros((A.n_samples, other.n_samples))
        for base, (rows, rep_a), (cols, rep_b) in zip(self.base_kernels_, A.levels,
                                                      other.levels):
            if rep_a is None or rep_b is None:
                continue  # no graph of A or B has a core at this level
            base.n_jobs = self.n_jobs
            K_level = base._gram(rep_a, None if B is None else rep_b)
            if len(rows) == A.n_samples and len(cols) == other.n_samples:
                K += K_level  # every graph has this core (level 0 always): no scatter
            else:
                K[np.ix_(rows, cols)] += K_level
        return K

    def _self_similarity(self, A):
        diag = np.zeros(A.n_samples)
        for base, (rows, rep) in zip(self.base_kernels_, A.levels):
            if rep is not None:
                base.n_jobs = self.n_jobs
                diag[rows] += base._self_similarity(rep)
        # levels above the fitted ones: no fitted graph has cores there, but the graph's own
        # cores still count in k(G, G)
        for core_batch, rows in A.beyond:
            base = self._level_kernel()
            diag[rows] += base._self_similarity(base._represent(core_batch, fitting=True))
        return diag


class _KCoreLevels:
    """A batch's cores: per fitted level ``(graph indices, base representation or None)``,
    and the ``(core batch, graph indices)`` of the levels above the fitted ones."""

    def __init__(self, n_samples, levels, beyond):
        self.n_samples = n_samples
        self.levels = levels
        self.beyond = beyond


def _k_core_batch(batch, core_number, level):
    """The ``level``-cores of the graphs of ``batch`` as a batch of their own, and the indices
    of the graphs whose core is not empty (``(None, empty)`` when none is)."""
    keep = core_number >= level
    n_kept = np.add.reduceat(keep.astype(np.intp), batch.node_ptr[:-1])
    members = np.flatnonzero(n_kept)
    if len(members) == 0:
        return None, members
    if keep.all():
        return batch, members
    new_id = np.cumsum(keep) - 1  # increasing: neighbour lists stay sorted
    owner = np.repeat(np.arange(batch.n_nodes), np.diff(batch.indptr))
    kept_entries = keep[owner] & keep[batch.indices]
    indptr = np.zeros(int(keep.sum()) + 1, dtype=np.intp)
    np.cumsum(np.bincount(new_id[owner[kept_entries]], minlength=len(indptr) - 1),
              out=indptr[1:])
    node_ptr = np.zeros(len(members) + 1, dtype=np.intp)
    np.cumsum(n_kept[members], out=node_ptr[1:])
    core_batch = GraphBatch(node_ptr, indptr,
                            new_id[batch.indices[kept_entries]].astype(np.int32),
                            batch.node_labels[keep], batch.edge_labels[kept_entries],
                            node_label_keys=batch.node_label_keys)
    return core_batch, members


def core_framework_kernel(X, Y=None, *, base_kernel=None, **params):
    """Gram matrix of :class:`CoreFrameworkKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(CoreFrameworkKernel(base_kernel, **params), X, Y)
