"""Treelet kernel (Gaüzère, Brun & Villemin 2012): counts of the labelled subtrees of at most six
nodes, compared by a linear or Gaussian sub-kernel."""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
import scipy.special

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, SparseFeatureKernel
from kernelkit.kernels._graphs._features import mix64
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import check_memory_request

__all__ = ["TreeletKernel", "treelet_kernel"]

# Partial occurrences grown per chunk of first nodes, and the bytes of one (nodes, edge slots
# and the temporaries of a step): about 30 MB a chunk.
_CHUNK_ROWS = 1 << 18
_ROW_BYTES = 112.0
# Partial occurrences of one graph beyond which it is refused: about a minute of NumPy work.
_MAX_GRAPH_ROWS = float(1 << 27)


@fill_doc(**GRAPH_DOCS)
class TreeletKernel(SparseFeatureKernel):
    r"""Treelet kernel: counts of the labelled treelets of each graph, linear or Gaussian.

    A treelet is one of the 14 trees of at most 6 nodes, numbered as graphkit-learn numbers
    them: 0–5 the paths of 1–6 nodes, 6, 8 and 13 the stars of 3, 4 and 5 branches, 7 the
    3-star with one branch of two edges, 9 the 3-star with two branches of two edges, 10 the
    3-star with one branch of three edges, 11 the 4-star with one branch of two edges, 12 two
    adjacent centres of two leaves each. An occurrence of a treelet in :math:`G` is a subgraph
    of :math:`G` (a set of its edges, not necessarily induced: a triangle holds three 3-node
    paths) that is a tree isomorphic to it, counted once whatever its automorphisms.
    :math:`f_t(G)` counts the occurrences of the labelled treelet :math:`t` (the shape with its
    node labels, and edge labels when ``edge_label`` is set, up to the shape's automorphisms),
    and

    .. math::

        K_\mathrm{linear}(G, G') = \sum_t f_t(G) f_t(G'), \qquad
        K_\mathrm{rbf}(G, G') = \exp\bigl(-\gamma \sum_t (f_t(G) - f_t(G'))^2\bigr),

    both positive semi-definite: graphkit-learn's ``Treelet`` with a dot product or a Gaussian
    of the count vectors as ``sub_kernel``. The paper sums a sub-kernel over the treelets both
    graphs hold, :math:`\sum_{t \in T(G) \cap T(G')} k(f_t(G), f_t(G'))`; with the product
    :math:`k(a, b) = ab` that is the linear kernel.
    The occurrences are grown for the whole batch at once, one node at a time from a centre
    (stars by increasing neighbour ids, so each occurrence is found once), and each labelled
    treelet is keyed by a 64-bit hash of its canonical code (leaves and symmetric branches
    sorted, a path read in its smaller orientation). Their number grows with the degree: a node
    of degree :math:`d` centres :math:`\binom{d}{5}` 5-stars.

    Where graphkit-learn's ``Treelet`` (0.2.1) counts differently, this kernel follows the
    paper's definition: graphkit-learn finds a k-star only at a node of degree exactly k (a node
    of degree 4 has :math:`\binom{4}{3} = 4` 3-stars; it counts none), grows patterns 7, 9 and
    10 without checking that their nodes are distinct (in a triangle with a pendant node it
    counts five cycles as such), and loses pattern-12 occurrences along a chain of four
    degree-3 nodes (its list of visited centres skips the middle pair); its branch for graphs
    without any label halves the pattern-12 count that its labelled branch keeps whole (its
    ``compute`` adds dummy labels, so takes the latter). The tests show each on a small graph,
    and equal Gram matrices on MUTAG molecules without such chains.

    Parameters
    ----------
    max_size : int, default=6
        Largest treelet, in nodes (1–6); 6, the paper's, takes all 14. A graph whose treelets
        would take minutes to enumerate (about :math:`10^8` partial ones: a node of degree 50,
        a clique of 20 nodes) is refused with a ValueError asking for a lower ``max_size``.
    sub_kernel : {"linear", "rbf"}, default="linear"
        How the count vectors are compared: their dot product (explicit features,
        :meth:`transform_features`) or a Gaussian of their distance.
    gamma : float, default=1.0
        Scale of ``sub_kernel="rbf"`` (``> 0``); unused by ``"linear"``.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: every node takes the label of
        ``unlabeled_nodes``.
    %(unlabeled_nodes)s
    edge_label : str or None, default=None
        Edge attribute holding the edge label (networkx input; for tuple input any non-None
        value uses the tuple's third element); None ignores edge labels.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix (no change for ``"rbf"``: ``K(G, G) = 1``).
    n_jobs : int or None, default=None
        Threads of the sparse products.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : SparseFeatures
        Treelet counts of the graphs given to ``fit`` (none after ``partial_fit`` alone).
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
        Label → integer code maps learned at ``fit``.
    feature_keys_ : ndarray of int64
        Hashes of the labelled treelets of the columns, in column order.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    PathKernel : label sequences of the simple paths of any length.
    GraphletKernel : unlabelled induced subgraphs of 3 or 4 nodes.

    References
    ----------
    B. Gaüzère, L. Brun, D. Villemin. Two new graph kernels and applications to
    chemoinformatics. Pattern Recognition Letters 33(15):2038–2047, 2012. Mairal & Vert,
    *Kernel Methods* slides, "Graph kernels: subgraphs".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import TreeletKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
    >>> TreeletKernel().fit_transform([path, triangle])
    array([[ 8., 10.],
           [10., 15.]])
    """

    _parameter_constraints = {
        **SparseFeatureKernel._parameter_constraints,
        "max_size": [Interval(Integral, 1, 6, closed="both")],
        "sub_kernel": [StrOptions({"linear", "rbf"})],
        "gamma": [Interval(Real, 0, None, closed="neither")],
    }
    _refit_free_params = SparseFeatureKernel._refit_free_params | {"sub_kernel", "gamma"}

    def __init__(self, max_size=6, *, sub_kernel="linear", gamma=1.0, node_label="label",
                 unlabeled_nodes="constant", edge_label=None, normalize=False, n_jobs=None,
                 verbose=0):
        self.max_size = max_size
        self.sub_kernel = sub_kernel
        self.gamma = gamma
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _represent(self, batch, fitting):
        graph_ids, keys, counts = treelet_keys(batch, self.max_size)
        return self._key_features(graph_ids, keys, counts, batch.n_samples, fitting)

    def _gram(self, A, B=None):
        K = super()._gram(A, B)
        if self.sub_kernel == "linear":
            return K
        norms = A.squared_norms()
        other = norms if B is None else B.squared_norms()
        # ‖f − f'‖² = ‖f‖² + ‖f'‖² − 2 f·f' (exact in integers up to 2^53; clamp rounding)
        distances = np.maximum(norms[:, None] + other[None, :] - 2.0 * K, 0.0)
        return np.exp(-self.gamma * distances)

    def _self_similarity(self, A):
        if self.sub_kernel == "linear":
            return super()._self_similarity(A)
        return np.ones(A.n_samples)

    def _check_feature_space(self):
        if self.sub_kernel != "linear":
            raise ValueError(
                f"TreeletKernel(sub_kernel={self.sub_kernel!r}) has no explicit features; "
                "transform_features needs sub_kernel='linear' (use transform for the Gram "
                "matrix).")


def _mix_columns(first, *columns):
    """A 64-bit hash of each row of the tuple ``(first, *columns)`` (splitmix64's mixer
    chained over the entries)."""
    h = mix64(np.full(len(columns[0]), first, dtype=np.uint64))
    for column in columns:
        h = mix64(h ^ np.asarray(column).astype(np.uint64))
    return h


def _extend(batch, grown, at, after=None):
    """Every occurrence ``(nodes, slots)`` grown by a neighbour ``w`` of its node ``at`` that
    is not yet among its nodes (and, with ``after``, whose id exceeds that of node ``after``:
    a set of siblings is then grown once, in increasing order). Adding a leaf to a tree keeps
    it a tree. ``slots[:, j]`` is the CSR slot of the edge that brought node ``j + 1``."""
    nodes, slots = grown
    anchor = nodes[:, at]
    degree = batch.indptr[anchor + 1] - batch.indptr[anchor]
    n_next = int(degree.sum())
    check_memory_request(8.0 * n_next * (2 * nodes.shape[1] + 2),
                         f"TreeletKernel treelets of {nodes.shape[1] + 1} nodes",
                         "use a kernel linear in the degree (WeisfeilerLehmanKernel).")
    parent = np.repeat(np.arange(len(anchor)), degree)
    slot = np.repeat(batch.indptr[anchor] - np.cumsum(degree) + degree, degree) + \
        np.arange(n_next)
    w = batch.indices[slot].astype(np.intp)
    keep = (nodes[parent] != w[:, None]).all(axis=1)
    if after is not None:
        keep &= w > nodes[parent, after]
    parent, slot, w = parent[keep], slot[keep], w[keep]
    return (np.column_stack([nodes[parent], w]), np.column_stack([slots[parent], slot]))


def treelet_keys(batch, max_size=6):
    """The labelled treelets of at most ``max_size`` nodes of every graph of ``batch``,
    counted: per distinct ``(graph, treelet)`` its graph, the 64-bit key of the treelet (shape,
    then canonical labels) and its number of occurrences.

    The occurrences are grown from chunks of their first node (centre, or path end), each chunk
    holding about ``_CHUNK_ROWS`` partial occurrences by a bound on them: twice the walks of
    1 to ``max_size - 1`` steps from its nodes (a path or branch is a walk) and the candidate
    rows of its stars. A graph whose bound exceeds ``_MAX_GRAPH_ROWS`` (minutes of work) is
    refused before any is grown.

    Parameters
    ----------
    batch : GraphBatch
    max_size : int, default=6

    Returns
    -------
    graph_ids : ndarray of shape (n_distinct,), intp
    keys : ndarray of shape (n_distinct,), int64
    counts : ndarray of shape (n_distinct,), int64
    """
    degree = np.diff(batch.indptr).astype(np.float64)
    adjacency = sp.csr_array((np.ones(len(batch.indices)), batch.indices, batch.indptr),
                             shape=(batch.n_nodes, batch.n_nodes))
    bound = degree * scipy.special.comb(degree, max_size - 2) if max_size >= 4 else \
        np.zeros(batch.n_nodes)
    walks = np.ones(batch.n_nodes)
    for _ in range(max_size - 1):
        walks = adjacency @ walks
        bound += 2.0 * walks
    check_memory_request(_ROW_BYTES * float(bound.max(initial=0.0)),
                         "TreeletKernel treelets around the node of highest degree",
                         "lower max_size, or use a kernel linear in the degree "
                         "(WeisfeilerLehmanKernel).")
    cumulative = np.r_[0.0, np.cumsum(bound)]
    per_graph = cumulative[batch.node_ptr[1:]] - cumulative[batch.node_ptr[:-1]]
    if per_graph.max(initial=0.0) > _MAX_GRAPH_ROWS:
        worst = int(np.argmax(per_graph))
        raise ValueError(
            f"TreeletKernel(max_size={max_size}): graph {worst} (of {batch.n_samples}, maximum "
            f"degree {int(degree[batch.node_ptr[worst]:batch.node_ptr[worst + 1]].max())}) "
            f"would grow about {per_graph[worst]:.2g} partial treelets, more than "
            f"{_MAX_GRAPH_ROWS:.2g} (minutes of work: their number grows as the degree to "
            f"the power max_size - 1); lower max_size, or use a kernel linear "
            "in the degree (WeisfeilerLehmanKernel).")
    edges = np.searchsorted(np.cumsum(bound), np.arange(_CHUNK_ROWS, bound.sum(), _CHUNK_ROWS))
    # the per-node and per-edge codes every chunk reads, built once for the batch
    codes = (batch.node_labels.astype(np.uint64), batch.edge_labels.astype(np.uint64),
             np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr)))
    found = [_count_pairs(*_chunk_keys(batch, codes, np.arange(start, stop), max_size))
             for start, stop in zip(np.r_[0, edges], np.r_[edges, batch.n_nodes])
             if stop > start]
    if not found:
        return (np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64))
    return tuple(np.concatenate(parts) for parts in zip(*found))


def _count_pairs(graph_ids, keys):
    """The distinct ``(graph, key)`` pairs and their multiplicities."""
    order = np.lexsort((keys, graph_ids))
    graph_ids, keys = graph_ids[order], keys[order]
    starts = np.flatnonzero(np.r_[True, (graph_ids[1:] != graph_ids[:-1])
                                  | (keys[1:] != keys[:-1])])
    return graph_ids[starts], keys[starts], np.diff(np.r_[starts, len(keys)])


def _chunk_keys(batch, codes, first_nodes, max_size):
    """Graph and key of every treelet occurrence of at most ``max_size`` nodes whose first
    node is in ``first_nodes``; ``codes`` holds the batch's node labels and edge labels (as
    uint64) and the graph of each node."""
    labels, edges, graph_of_node = codes

    def node(grown, p):
        return labels[grown[0][:, p]]

    def edge(grown, p):              # label of the edge that brought node p (p >= 1)
        return edges[grown[1][:, p - 1]]

    def leaf(grown, p):              # a leaf seen from its centre: (edge label, node label)
        return _mix_columns(0, edge(grown, p), node(grown, p))

    def branch(grown, first, length):  # nodes first .. first + length - 1 down from the centre
        return _mix_columns(1, *[code for p in range(first, first + length)
                                 for code in (edge(grown, p), node(grown, p))])

    def sorted_codes(*codes):
        return np.sort(np.column_stack(codes), axis=1).T

    found = []

    def count(shape, grown, *codes):
        found.append((graph_of_node[grown[0][:, 0]], _mix_columns(shape, *codes)))

    start = (first_nodes[:, None], np.zeros((len(first_nodes), 0), dtype=np.intp))
    # paths of 1..max_size nodes, grown at their end; found in both orientations, kept once
    path = start
    count(0, path, node(path, 0))
    for n_nodes in range(2, max_size + 1):
        path = _extend(batch, path, n_nodes - 2)
        first_end = path[0][:, 0] < path[0][:, -1]
        once = (path[0][first_end], path[1][first_end])
        forward = [node(once, 0)] + [c for p in range(1, n_nodes)
                                     for c in (edge(once, p), node(once, p))]
        backward = forward[::-1]
        count(n_nodes - 1, once, np.minimum(_mix_columns(n_nodes - 1, *forward),
                                            _mix_columns(n_nodes - 1, *backward)))
    # stars of 3, 4, 5 branches: leaves in increasing id order
    if max_size < 4:
        return _found_arrays(found)
    fan = _extend(batch, start, 0)
    for n_leaves in range(2, max_size):
        fan = _extend(batch, fan, 0, after=n_leaves - 1)
        if n_leaves >= 3:
            count({3: 6, 4: 8, 5: 13}[n_leaves], fan, node(fan, 0),
                  *sorted_codes(*[leaf(fan, p) for p in range(1, n_leaves + 1)]))
    # [centre, x, y]: a branch of two edges, the seed of 7, 10 and 11
    if max_size < 5:
        return _found_arrays(found)
    arm = _extend(batch, _extend(batch, start, 0), 1)
    leaves = _extend(batch, _extend(batch, arm, 0), 0, after=3)          # 7: + a < b
    count(7, leaves, node(leaves, 0), *sorted_codes(leaf(leaves, 3), leaf(leaves, 4)),
          branch(leaves, 1, 2))
    if max_size < 6:
        return _found_arrays(found)
    leaves = _extend(batch, leaves, 0, after=4)                          # 11: + a < b < c
    count(11, leaves, node(leaves, 0),
          *sorted_codes(leaf(leaves, 3), leaf(leaves, 4), leaf(leaves, 5)),
          branch(leaves, 1, 2))
    long_arm = _extend(batch, arm, 2)                                    # 10: [c, x, y, z]
    leaves = _extend(batch, _extend(batch, long_arm, 0), 0, after=4)
    count(10, leaves, node(leaves, 0), *sorted_codes(leaf(leaves, 4), leaf(leaves, 5)),
          branch(leaves, 1, 3))
    # 9: [centre, x1 < x2, y1, y2, a]
    two_arms = _extend(batch, _extend(batch, _extend(batch, start, 0), 0, after=1), 1)
    two_arms = _extend(batch, _extend(batch, two_arms, 2), 0)
    arms = [_mix_columns(1, edge(two_arms, x), node(two_arms, x), edge(two_arms, y),
                         node(two_arms, y)) for x, y in ((1, 3), (2, 4))]
    count(9, two_arms, node(two_arms, 0), leaf(two_arms, 5), *sorted_codes(*arms))
    # 12: [c1 < c2, a1 < b1 at c1, a2 < b2 at c2]
    pair = _extend(batch, start, 0, after=0)
    pair = _extend(batch, _extend(batch, pair, 0), 0, after=2)
    pair = _extend(batch, _extend(batch, pair, 1), 1, after=4)
    halves = [_mix_columns(2, node(pair, c), *sorted_codes(leaf(pair, a), leaf(pair, b)))
              for c, a, b in ((0, 2, 3), (1, 4, 5))]
    count(12, pair, edge(pair, 1), *sorted_codes(*halves))
    return _found_arrays(found)


def _found_arrays(found):
    """The ``(graph ids, hashes)`` pairs of ``found`` as one array of each, keys as int64."""
    return (np.concatenate([g for g, _ in found]),
            np.concatenate([k for _, k in found]).view(np.int64))


def treelet_kernel(X, Y=None, **params):
    """Gram matrix of :class:`TreeletKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(TreeletKernel(**params), X, Y)
