"""Marginalised kernel (Kashima et al. 2003) truncated after a number of steps, with or without
the tottering removal of Mahé et al. (2004)."""

import dataclasses
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["MarginalizedKernel", "marginalized_kernel"]


@dataclasses.dataclass(frozen=True)
class _Walks:
    """The random walks of a batch of graphs, the states of every graph concatenated.

    Attributes
    ----------
    transitions : list of scipy.sparse.csr_array of shape (n_states, n_states)
        One per edge label code ``c``, block-diagonal: ``[a, b]`` is the probability of stepping
        from state ``a`` to ``b`` along an edge of label ``c``.
    stop, start : ndarray of shape (n_states,)
        Probability of stopping at a state; of starting there.
    labels : ndarray of shape (n_states,), int64
        Label code of each state.
    state_ptr : ndarray of shape (n_samples + 1,)
        Graph ``g`` owns the states ``state_ptr[g]:state_ptr[g + 1]``.
    """

    transitions: list
    stop: np.ndarray
    start: np.ndarray
    labels: np.ndarray
    state_ptr: np.ndarray

    @property
    def n_samples(self):
        return len(self.state_ptr) - 1


@fill_doc(**GRAPH_DOCS)
class MarginalizedKernel(GraphKernel):
    r"""Marginalised kernel: the probability that two random walks emit the same labels, summed
    over the walks of at most ``n_iter`` vertices, optionally without tottering.

    A walk starts at a uniform vertex, at each vertex stops with probability ``p_quit`` (always
    at a vertex without successor) or moves to a uniform successor. With
    :math:`t(u, u') = (1 - p_\mathrm{quit}) / \deg u` and :math:`s(u)` the stopping probability,
    Kashima et al. (2003, eq. 6–8) write the kernel through

    .. math::

        R_1(u, v) = s(u) s(v), \qquad
        R_n(u, v) = s(u) s(v) + \sum_{u' \sim u, v' \sim v} t(u, u') t(v, v')
        [l(u') = l(v')] [l(uu') = l(vv')] R_{n-1}(u', v'),

    .. math::

        K(G, G') = \sum_{u, v} p_0(u) p_0(v) [l(u) = l(v)] R_{n_\mathrm{iter}}(u, v),

    :math:`p_0 = 1/|V|`: the probability that the two walks have the same label sequence,
    counted over walks of at most ``n_iter`` vertices (edge labels compared only with
    ``edge_label`` set). As ``n_iter`` grows it tends to :class:`RandomWalkKernel` with
    ``p_stop=p_quit``. With ``remove_totters``, the walks run on Mahé et al.'s (2004, §3)
    transformed graph: its states are the vertices and the directed edges ``(u, v)``
    (labelled ``l(v)``), a walk starting at a vertex ``u`` goes to an edge ``(u, v)`` and
    from ``(u, v)`` to ``(v, w)`` with ``w ≠ u`` only, so no walk returns along the edge it
    came by (a *totter*); walks start at the vertices only, uniformly. Computed for a row of
    graphs against all others at once by batched matrix products
    :math:`R \leftarrow S + \sum_c T^c_1 ([l = l'] \circ R) {T^c_2}^\top` with sparse
    transitions, the states of the other graphs concatenated.

    This is graphkit-learn's ``Marginalized``: ``p_quit`` and ``n_iter`` are its ``p_quit``
    and ``n_iteration``, ``remove_totters`` its ``remove_totters``, ``node_label`` and
    ``edge_label`` its ``node_labels`` and ``edge_labels`` (one attribute each). With
    ``remove_totters=False`` its Gram matrices equal this kernel's. Its
    ``remove_totters=True`` does not run in graphkit-learn 0.2.1 (its label lists are passed
    where an attribute name is expected: a ``TypeError``), and its transformation, called with
    attribute names, departs from the paper: an undirected graph (walks may go back from
    ``(v, w)`` to ``(u, v)`` and from ``(u, v)`` to ``u``: totters again) whose walks start
    uniformly at every state, edges included.

    Parameters
    ----------
    p_quit : float, default=0.5
        Probability of stopping at each vertex, in (0, 1) (graphkit-learn's ``p_quit``).
    n_iter : int, default=10
        Most vertices of a walk, at least 1 (graphkit-learn's ``n_iteration``).
    remove_totters : bool, default=False
        Walk on Mahé et al.'s transformed graph, so that no walk totters.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: every node takes the label
        of ``unlabeled_nodes``.
    %(unlabeled_nodes)s
    edge_label : str or None, default=None
        Edge attribute holding the edge label (networkx input; for tuple input any non-None
        value uses the tuple's third element); None ignores edge labels.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Accepted for the common interface; the batched products run on NumPy's threads.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : _Walks
        The random walks of the fitted graphs.
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
        Label → integer code maps learned at ``fit``.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    RandomWalkKernel : the same kernel summed over walks of every length, solved exactly.

    References
    ----------
    H. Kashima, K. Tsuda, A. Inokuchi. Marginalized kernels between labeled graphs. ICML 2003.
    P. Mahé, N. Ueda, T. Akutsu, J.-L. Perret, J.-P. Vert. Extensions of marginalized graph
    kernels. ICML 2004. Mairal & Vert, *Kernel Methods* slides, "Walk kernel examples".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import MarginalizedKernel
    >>> edge = (np.array([[0, 1], [1, 0]]), ["C", "C"])
    >>> MarginalizedKernel(p_quit=0.5, n_iter=2).fit_transform([edge])
    array([[0.3125]])
    """

    _parameter_constraints = {
        **GraphKernel._parameter_constraints,
        "p_quit": [Interval(Real, 0, 1, closed="neither")],
        "n_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "remove_totters": ["boolean"],
    }

    def __init__(self, p_quit=0.5, n_iter=10, *, remove_totters=False, node_label="label",
                 unlabeled_nodes="constant", edge_label=None, normalize=False, n_jobs=None,
                 verbose=0):
        self.p_quit = p_quit
        self.n_iter = n_iter
        self.remove_totters = remove_totters
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _represent(self, batch, fitting):
        n_edge_codes = int(batch.edge_labels.max(initial=0)) + 1
        graphs = [_walk_graph(batch, g, self.remove_totters) for g in range(batch.n_samples)]
        state_ptr = np.r_[0, np.cumsum([len(labels) for *_, labels in graphs])]
        source = np.concatenate([s + state_ptr[g] for g, (s, *_) in enumerate(graphs)])
        target = np.concatenate([t + state_ptr[g] for g, (_, t, _, _) in enumerate(graphs)])
        edge = np.concatenate([e for _, _, e, _ in graphs])
        n_states = int(state_ptr[-1])
        out_degree = np.bincount(source, minlength=n_states)
        probability = (1.0 - self.p_quit) / out_degree[source]
        transitions = [sp.csr_array((probability[edge == c], (source[edge == c],
                                                              target[edge == c])),
                                    shape=(n_states, n_states)) for c in range(n_edge_codes)]
        n_vertices = np.diff(batch.node_ptr)
        # the vertices come first among each graph's states, and walks start there
        vertex = np.arange(n_states) - np.repeat(state_ptr[:-1], np.diff(state_ptr)) < \
            np.repeat(n_vertices, np.diff(state_ptr))
        start = np.where(vertex, 1.0 / np.repeat(n_vertices, np.diff(state_ptr)), 0.0)
        return _Walks(transitions, np.where(out_degree > 0, self.p_quit, 1.0), start,
                      np.concatenate([labels for *_, labels in graphs]), state_ptr)

    def _gram(self, A, B=None):
        other = A if B is None else B
        _check_rows(A, other.state_ptr[-1])
        K = np.zeros((A.n_samples, other.n_samples))
        for i in range(A.n_samples):
            first = i if B is None else 0
            K[i, first:] = self._row(A, i, other, first)
        if B is None:
            K = np.triu(K) + np.triu(K, 1).T
        return K

    def _self_similarity(self, A):
        _check_rows(A, np.diff(A.state_ptr).max(initial=0))
        return np.array([self._row(A, i, A, i, i + 1)[0] for i in range(A.n_samples)])

    def _row(self, A, i, B, first, stop=None):
        """``K(A[i], B[j])`` for the graphs ``j`` of ``first:stop``, all at once.

        ``R`` holds the pairs of a state of ``A[i]`` with a state of every ``B[j]``, the
        columns concatenated; a step is two sparse products with the transitions of
        ``A[i]`` and the block-diagonal transitions of the ``B[j]``."""
        stop = B.n_samples if stop is None else stop
        rows = slice(A.state_ptr[i], A.state_ptr[i + 1])
        columns = slice(B.state_ptr[first], B.state_ptr[stop])
        n_edge_codes = min(len(A.transitions), len(B.transitions))
        left = [A.transitions[c][rows, rows] for c in range(n_edge_codes)]
        right = [B.transitions[c][columns, columns] for c in range(n_edge_codes)]
        match = A.labels[rows][:, None] == B.labels[columns][None, :]
        stops = np.outer(A.stop[rows], B.stop[columns])
        R = stops.copy()
        for _ in range(self.n_iter - 1):
            masked = np.where(match, R, 0.0)
            R = stops.copy()
            for c in range(n_edge_codes):
                # Σ_{u', v'} T1[u, u'] M R[u', v'] T2[v, v'], both sides sparse
                R += (right[c] @ (left[c] @ masked).T).T
        weighted = np.where(match, np.outer(A.start[rows], B.start[columns]) * R, 0.0)
        offsets = B.state_ptr[first:stop] - B.state_ptr[first]
        return np.add.reduceat(weighted.sum(axis=0), offsets)


def _check_rows(A, n_columns):
    """Refuse rows of the graphs of ``A`` against ``n_columns`` states beyond memory: a row
    holds a few dense (states of one graph) × (columns) arrays."""
    largest = int(np.diff(A.state_ptr).max(initial=0))
    check_memory_request(40.0 * largest * float(n_columns),
                         f"MarginalizedKernel rows of {largest} x {n_columns} state pairs",
                         "compare fewer or smaller graphs at a time.")


def _walk_graph(batch, g, remove_totters):
    """The directed graph the walks of graph ``g`` of ``batch`` run on: ``(source, target,
    edge label code, state labels)``, its vertices first. Without ``remove_totters`` the graph
    itself; with it Mahé et al.'s transformed graph (vertices, then one state per directed
    edge ``(u, v)``, labelled ``l(v)``)."""
    first, stop = batch.node_ptr[g], batch.node_ptr[g + 1]
    n = stop - first
    sources = np.repeat(np.arange(n), np.diff(batch.indptr[first:stop + 1]))
    slots = np.arange(batch.indptr[first], batch.indptr[stop])
    targets = batch.indices[slots].astype(np.intp) - first
    edges = batch.edge_labels[slots].astype(np.intp)
    labels = batch.node_labels[first:stop].astype(np.int64)
    if not remove_totters:
        return sources, targets, edges, labels
    # state n + e is the directed edge e = (sources[e], targets[e]); the edges come sorted by
    # source, so the edges leaving v are edge_ptr[v]:edge_ptr[v + 1]
    n_edges = len(sources)
    edge_ptr = np.r_[0, np.cumsum(np.bincount(sources, minlength=n))]
    out_of_target = np.diff(edge_ptr)[targets]
    follow_from = np.repeat(np.arange(n_edges), out_of_target)
    follow = np.repeat(edge_ptr[targets], out_of_target) + np.arange(out_of_target.sum()) - \
        np.repeat(np.cumsum(out_of_target) - out_of_target, out_of_target)
    keep = targets[follow] != sources[follow_from]   # (u, v) → (v, w) with w ≠ u
    follow_from, follow = follow_from[keep], follow[keep]
    return (np.r_[sources, n + follow_from], np.r_[n + np.arange(n_edges), n + follow],
            np.r_[edges, edges[follow]], np.r_[labels, labels[targets]])


def marginalized_kernel(X, Y=None, **params):
    """Gram matrix of :class:`MarginalizedKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(MarginalizedKernel(**params), X, Y)
