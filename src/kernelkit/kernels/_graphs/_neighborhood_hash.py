"""Neighbourhood hash kernel (Hido & Kashima 2009)."""

import dataclasses
from numbers import Integral

import numpy as np
import scipy.sparse as sp

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel
from kernelkit.kernels._graphs._features import intersection_gram
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["NeighborhoodHashKernel", "neighborhood_hash_kernel"]

_MAX_BITS = 64


def initial_bit_labels(keys, bits):
    """The ``bits``-bit string of each node label (the neighbourhood hash's first labels): the
    top ``bits`` bits of the label's key (``_label_keys.label_key``, a BLAKE2b digest of the
    label).

    The strings are a fixed function of the label, so the same in every run, process and fit
    whatever the other labels are, and they look random (so their XORs collide no more than
    random strings do). Two labels share a string with probability ``2^-bits``.

    Parameters
    ----------
    keys : ndarray of uint64
    bits : int in ``[1, 64]``

    Returns
    -------
    labels : ndarray of the shape of ``keys``, dtype uint64
    """
    return np.asarray(keys, dtype=np.uint64) >> np.uint64(_MAX_BITS - bits)


def _mask(bits):
    return np.uint64((1 << bits) - 1)


def _rotate(x, shift, bits):
    """``x`` rotated left by ``shift mod bits`` within ``bits``-bit words (``ROT`` of the paper)."""
    m = (np.asarray(shift, dtype=np.uint64) % np.uint64(bits))
    # m = 0 would shift right by the full width: keep x there
    rotated = ((x << m) | (x >> (np.uint64(bits) - m))) & _mask(bits)
    return np.where(m == 0, x, rotated)


def _xor_per_node(values, starts, n_nodes):
    """XOR of ``values[starts[v]:starts[v + 1]]`` for every node (0 for an empty range)."""
    out = np.zeros(n_nodes, dtype=np.uint64)
    nonempty = starts[1:] > starts[:-1]
    if values.size:
        out[nonempty] = np.bitwise_xor.reduceat(values, starts[:-1][nonempty])
    return out


def _simple_hash(labels, indptr, indices, bits):
    """``ROT_1(l(v)) ⊕ (⊕_{u ∈ N(v)} l(u))`` for every node."""
    return _rotate(labels, 1, bits) ^ _xor_per_node(labels[indices], indptr, len(labels))


def _count_sensitive_hash(labels, indptr, indices, bits):
    """``ROT_1(l(v)) ⊕ (⊕_ℓ ROT_o(ℓ ⊕ o))`` over the distinct labels ``ℓ`` of the neighbours of
    ``v``, ``o`` the number of neighbours carrying ``ℓ``: unlike the simple hash, two neighbours
    of equal label do not cancel."""
    n_nodes = len(labels)
    nodes = np.repeat(np.arange(n_nodes), np.diff(indptr))
    neighbour_labels = labels[indices]
    order = np.lexsort((neighbour_labels, nodes))
    nodes, neighbour_labels = nodes[order], neighbour_labels[order]
    first = np.ones(len(nodes), dtype=bool)  # empty when no node has a neighbour
    first[1:] = (nodes[1:] != nodes[:-1]) | (neighbour_labels[1:] != neighbour_labels[:-1])
    starts = np.flatnonzero(first)
    occurrences = np.diff(np.r_[starts, len(nodes)]).astype(np.uint64)
    terms = _rotate((neighbour_labels[starts] ^ occurrences) & _mask(bits), occurrences, bits)
    term_ptr = np.searchsorted(nodes[starts], np.arange(n_nodes + 1))
    return _rotate(labels, 1, bits) ^ _xor_per_node(terms, term_ptr, n_nodes)


_HASHES = {"simple": _simple_hash, "count_sensitive": _count_sensitive_hash}


@dataclasses.dataclass(frozen=True)
class _HashedLabels:
    """The hashed node labels of a batch: per iteration, each graph's label histogram.

    Attributes
    ----------
    histograms : list of R tuples (graph_ids, labels, counts)
        Each graph's distinct labels (uint64) and their counts, sorted by graph then label.
    n_nodes : ndarray of shape (n_samples,), float64
    """

    histograms: list
    n_nodes: np.ndarray

    @property
    def n_samples(self):
        return len(self.n_nodes)


def _histograms(labels, node_ptr):
    """``(graph_ids, labels, counts)`` of each graph's distinct labels, sorted by graph then
    label."""
    graph_ids = np.repeat(np.arange(len(node_ptr) - 1), np.diff(node_ptr))
    order = np.lexsort((labels, graph_ids))
    graph_ids, labels = graph_ids[order], labels[order]
    first = np.flatnonzero(np.r_[True, (graph_ids[1:] != graph_ids[:-1])
                                 | (labels[1:] != labels[:-1])])
    counts = np.diff(np.r_[first, len(labels)]).astype(np.float64)
    return graph_ids[first], labels[first], counts


@fill_doc(**GRAPH_DOCS)
class NeighborhoodHashKernel(GraphKernel):
    r"""Neighbourhood hash kernel: common hashed neighbourhood labels, averaged over iterations.

    Node labels become ``b``-bit strings (:func:`initial_bit_labels`: the top ``b`` bits of a
    fixed 64-bit hash of the label, so a label has the same string whatever other graphs were
    fitted, and in what order). Each iteration replaces every label by
    the hash of its neighbourhood, in linear time,

    .. math::

        \mathrm{NH}(v) = \mathrm{ROT}_1(\ell(v)) \oplus
        \bigoplus_{u \in N(v)} \ell(u)

    (``nh_type="simple"``; :math:`\mathrm{ROT}_o` rotates the ``b`` bits left by ``o``), or
    the count-sensitive hash
    :math:`\mathrm{ROT}_1(\ell(v)) \oplus \bigoplus_{\ell} \mathrm{ROT}_{o_\ell}(\ell \oplus o_\ell)`
    over the distinct neighbour labels, :math:`o_\ell` neighbours carrying :math:`\ell`
    (``nh_type="count_sensitive"``, where two equal neighbours do not cancel out). With
    :math:`G_r` the graph relabelled ``r`` times,

    .. math::

        K(G, G') = \frac{1}{R} \sum_{r=1}^{R} \frac{c_r}{|V| + |V'| - c_r},
        \qquad c_r = \sum_{\ell} \min\bigl(n_\ell(G_r), n_\ell(G'_r)\bigr),

    :math:`c_r` the number of labels the two graphs share, counted with multiplicity (a
    merge of the sorted label lists, as in the paper). Since
    :math:`|V| + |V'| - c_r = \sum_\ell \max(n_\ell(G_r), n_\ell(G'_r))`, each term is the
    min–max (Tanimoto) similarity of the label histograms, which is positive semi-definite
    (it is the collision probability of consistent weighted sampling, Ioffe 2010), and so is
    their average: ``K`` is p.s.d., with ``K(G, G) = 1``. It is a ratio, not an inner product of
    explicit features (only :math:`c_r` is one), so this kernel gives no feature matrix.

    Two different labels or neighbourhoods may hash to the same string (the initial hash and
    XOR are not injective); with the default 64 bits accidental collisions are negligible, with
    few bits they are frequent, as the paper's random bit strings are.

    Parameters
    ----------
    R : int, default=3
        Number of hashing iterations (the average runs over ``r = 1..R``).
    nh_type : {"simple", "count_sensitive"}, default="simple"
        The neighbourhood hash.
    bits : int in [1, 64] or None, default=None
        Length ``b`` of the label bit strings; None: 64. Two labels share a string with
        probability ``2^-b``.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read
        (every node labelled by ``unlabeled_nodes``).
    %(unlabeled_nodes)s
    normalize : bool, default=False
        Cosine-normalise the Gram matrix; changes nothing, since ``K(G, G) = 1``.
    n_jobs : int or None, default=None
        Threads of the Gram matrix.
    verbose : int, default=0
        Messages on stderr: none at 0; at 1 a line per Gram matrix (and progress lines while a
        slow one runs); at 2 also the time each stage took.

    Attributes
    ----------
    X_fit_ : object
        Hashed label histograms of the fitted graphs, per iteration.
    n_samples_fit_ : int
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit`` (the bit strings come from the labels,
        not from the codes).
    edge_label_codes_ : dict
        Empty (edge labels are not used).
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` (ones) of the fitted graphs, when ``normalize`` is true.

    Notes
    -----
    GraKeL's ``NeighborhoodHash`` draws the initial bit strings at random (``random_state``),
    8 bits by default, one per label of the fitted set, so its Gram matrix changes with the seed
    and a label's string with the other fitted labels; given the same initial strings and
    ``bits`` it computes the same hash and the same kernel, which the tests check on MUTAG.
    It also cosine-normalises always, which changes nothing here.

    See Also
    --------
    WeisfeilerLehmanKernel : injective relabelling of neighbourhoods, inner-product comparison.
    WeisfeilerLehmanOptimalAssignmentKernel : WL labels compared by histogram intersection.

    References
    ----------
    S. Hido, H. Kashima. A linear-time graph kernel. ICDM 2009 (Sections 3.1–3.3).
    S. Ioffe. Improved consistent sampling, weighted minhash and L1 sketching. ICDM 2010.

    Examples
    --------
    >>> import networkx as nx
    >>> from kernelkit.kernels import NeighborhoodHashKernel
    >>> ring = nx.cycle_graph(4)
    >>> triangle_and_tail = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    >>> for graph in (ring, triangle_and_tail):
    ...     nx.set_node_attributes(graph, dict(enumerate("CCCO")), "label")
    >>> NeighborhoodHashKernel(R=2).fit_transform([ring, triangle_and_tail]).round(4)
    array([[1.    , 0.0714],
           [0.0714, 1.    ]])
    """

    _parameter_constraints = {
        **{k: v for k, v in GraphKernel._parameter_constraints.items() if k != "edge_label"},
        "R": [Interval(Integral, 1, MAX_INT, closed="both")],
        "nh_type": [StrOptions(set(_HASHES))],
        "bits": [Interval(Integral, 1, _MAX_BITS, closed="both"), None],
    }

    def __init__(self, R=3, *, nh_type="simple", bits=None, node_label="label",
                 unlabeled_nodes="constant", normalize=False, n_jobs=None, verbose=0):
        self.R = R
        self.nh_type = nh_type
        self.bits = bits
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    _hashes_labels = True

    def _represent(self, batch, fitting):
        bits = _MAX_BITS if self.bits is None else self.bits
        # every iteration keeps each graph's label histogram: up to 24 bytes a node
        check_memory_request(24.0 * self.R * batch.n_nodes,
                             f"NeighborhoodHashKernel(R={self.R}) on graphs of {batch.n_nodes} "
                             "nodes in all", "lower R.")
        neighbourhood_hash = _HASHES[self.nh_type]
        labels = initial_bit_labels(batch.node_label_keys, bits)[batch.node_labels]
        histograms = []
        for _ in range(self.R):
            labels = neighbourhood_hash(labels, batch.indptr, batch.indices, bits)
            histograms.append(_histograms(labels, batch.node_ptr))
        return _HashedLabels(histograms, np.diff(batch.node_ptr).astype(np.float64))

    def _gram(self, A, B=None):
        other = A if B is None else B
        K = np.zeros((A.n_samples, other.n_samples))
        sizes = A.n_nodes[:, None] + other.n_nodes[None, :]
        for r in range(self.R):
            left, right = _joint_histograms(A, None if B is None else B, r)
            common = intersection_gram(left, right, self._n_threads(), self.verbose,
                                       type(self).__name__)
            # |V| + |V'| - c_r ≥ max(|V|, |V'|) ≥ 1: graphs have nodes
            K += common / (sizes - common)
        K /= self.R
        return K

    def _self_similarity(self, A):
        return np.ones(A.n_samples)


def _joint_histograms(A, B, r):
    """Iteration ``r``'s histograms of ``A`` and ``B`` (None: ``A`` alone, returned as
    ``(left, None)``) as CSR arrays over the labels present in either."""
    batches = [A] if B is None else [A, B]
    parts = [batch.histograms[r] for batch in batches]
    vocabulary, columns = np.unique(np.concatenate([labels for _, labels, _ in parts]),
                                    return_inverse=True)
    bounds = np.cumsum([0] + [len(labels) for _, labels, _ in parts])
    matrices = [sp.csr_array((counts, (graph_ids, columns[start:stop])),
                             shape=(batch.n_samples, len(vocabulary)))
                for batch, (graph_ids, _, counts), start, stop
                in zip(batches, parts, bounds[:-1], bounds[1:])]
    return matrices[0], (matrices[1] if B is not None else None)


def neighborhood_hash_kernel(X, Y=None, *, R=3, **params):
    """Gram matrix of :class:`NeighborhoodHashKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(NeighborhoodHashKernel(R=R, **params), X, Y)
