"""GraphHopper kernel (Feragen et al. 2013): node kernels weighted by shared shortest paths."""

import dataclasses
from numbers import Real

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from kernelkit._core import _graphhopper
from kernelkit.kernels._base import ExplicitFeatureMixin, fill_gram, pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel
from kernelkit.kernels._graphs._features import count_features
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import check_memory_request

__all__ = ["GraphHopperKernel", "graphhopper_kernel"]

# Feature key of label ``code`` at packed path position ``t``: ``code << 32 | t``.
_LABEL_SHIFT = 32
_MIN_NODES_FOR_THREADS = 2_000
# The Gaussian node kernel computes ‖x − x'‖² as ‖x‖² + ‖x'‖² − 2⟨x, x'⟩: each term at most a
# quarter of the float range keeps the sum finite.
_MAX_SQUARED_NORM = np.finfo(np.float64).max / 4


@dataclasses.dataclass(frozen=True)
class _HopperWeights:
    """Graphs as their nodes' packed ``M`` matrices (``_core/_graphhopper.pyx``) and attributes.

    Graph ``g`` has ``n_g`` nodes and ``n_entries[g] = δ_g (δ_g + 1) / 2`` packed entries per
    node (``δ_g`` = diameter + 1), stored row-major at ``weights[weight_ptr[g]:]``.
    """

    node_ptr: np.ndarray
    n_entries: np.ndarray
    weight_ptr: np.ndarray
    weights: np.ndarray
    attributes: np.ndarray
    squared_norms: np.ndarray

    @property
    def n_samples(self):
        return len(self.node_ptr) - 1

    def core_arrays(self):
        return (self.node_ptr, self.n_entries, self.weight_ptr, self.weights, self.attributes,
                self.squared_norms)


@dataclasses.dataclass(frozen=True)
class _DenseFeatures:
    """Graphs as dense features ``Σ_v M_v ⊗ x_v`` (packed position ``t`` major, attribute
    minor); graphs of smaller diameter are zero-padded. Columns past ``n_features_fit`` exist in
    the graph only (paths longer than any fitted graph has): they match nothing there but count
    in ``‖Φ(G)‖²``."""

    values: np.ndarray

    @property
    def n_samples(self):
        return self.values.shape[0]

    def gram(self, other=None):
        if other is None:
            return self.values @ self.values.T
        common = min(self.values.shape[1], other.values.shape[1])
        return self.values[:, :common] @ other.values[:, :common].T

    def squared_norms(self):
        return np.einsum("ij,ij->i", self.values, self.values)


@fill_doc(**GRAPH_DOCS)
class GraphHopperKernel(ExplicitFeatureMixin, GraphKernel):
    r"""GraphHopper kernel: node kernels weighted by how the nodes share shortest paths.

    .. math::

        k(G, G') = \sum_{v \in G} \sum_{v' \in G'} \langle M_v, M_{v'} \rangle_F\,
        k_\mathrm{node}(v, v'),

    where :math:`M_v[a, b]` counts the shortest paths of length :math:`b` (between all ordered
    pairs of end points, the path of length 0 from :math:`v` to itself included) on which
    :math:`v` is the node at position :math:`a`. This is the sum, over all pairs of equally long
    shortest paths, of the node kernels of their nodes at the same positions. The :math:`M_v`
    are computed once per graph by one BFS per source (``O(n m δ)``, δ the diameter + 1;
    unweighted graphs: a non-zero adjacency entry is an edge). Paths longer than the other
    graph's diameter simply match nothing.

    ``k_node`` is, on continuous node attributes :math:`x_v`, the linear kernel
    :math:`\langle x_v, x_{v'} \rangle` (``kernel="linear"``: then
    :math:`k(G, G') = \langle \Phi(G), \Phi(G') \rangle` with
    :math:`\Phi(G) = \sum_v M_v \otimes x_v`, an explicit feature product) or the Gaussian
    :math:`\exp(-\gamma \|x_v - x_{v'}\|^2)` (``kernel="gaussian"``: a compiled pair kernel,
    in parallel over pairs). Without attributes (``node_attributes=None``) it is the label delta
    :math:`[\ell(v) = \ell(v')]` on ``node_label``: features
    :math:`\sum_v M_v \otimes e_{\ell(v)}`, sparse. With both, it is their product
    :math:`[\ell(v) = \ell(v')]\, k_\mathrm{attr}(x_v, x_{v'})` (a product of kernels, so a
    kernel): features :math:`\sum_v M_v \otimes e_{\ell(v)} \otimes x_v` (linear), or the
    Gaussian pair kernel summed over the labels, each on its nodes alone. All labels equal, it
    is the attribute kernel; all attributes equal to 1 (linear) or to one vector (Gaussian), the
    label kernel. Labels given by ``unlabeled_nodes="constant"`` leave the attribute kernel
    alone.

    Same values as GraKeL's ``GraphHopper(kernel_type="linear")`` and
    ``GraphHopper(kernel_type=("gaussian", gamma))`` with ``normalize=False`` (GraKeL's ``M``
    is not normalised either). GraKeL refuses discrete labels; the label delta equals its
    linear kernel on one-hot attributes. GraKeL fails on a graph with an isolated node (its
    one-node component becomes a 0-d array there); here such a node counts its path of length
    0, ``M_v[0, 0] = 1``, like every node.

    Parameters
    ----------
    node_attributes : str or None, default="attributes"
        Node attribute holding each node's vector of floats (networkx input; the fourth tuple
        element for tuples). None: the label delta alone.
    node_label : str or None, default=None
        Node attribute holding the label: the label delta, times the attribute kernel when
        ``node_attributes`` is set too. None: the labels of ``unlabeled_nodes``.
    %(unlabeled_nodes)s
    kernel : {"linear", "gaussian"}, default="linear"
        Node kernel on the attributes.
    gamma : float, default=1.0
        Width of the Gaussian node kernel (GraKeL's ``mu``); unused by the others.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads (over graphs for the path counts, over pairs for the Gaussian node kernel).
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : object
        The fitted graphs' representation (features, or path counts and attributes).
    n_samples_fit_ : int
    n_node_attributes_ : int
        Length of the node attribute vectors (when attributes are used).
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit`` (empty when labels are not used).
    edge_label_codes_ : dict
        Empty (edge labels are not used).
    n_features_fit_ : int
        Number of explicit features of the fitted graphs (not for ``kernel="gaussian"``).
    feature_keys_ : ndarray of int64
        With labels (linear): sorted keys ``label << 32 | t * n_attributes + k`` of the fitted
        features (``t`` the packed position ``b (b + 1) / 2 + a``, ``k`` the attribute;
        without attributes, ``n_attributes = 1``).
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    ShortestPathKernel : counts labelled shortest-path end points.

    References
    ----------
    A. Feragen, N. Kasenburg, J. Petersen, M. de Bruijne, K. Borgwardt. Scalable kernels for
    graphs with continuous attributes. NeurIPS 2013.
    Mairal & Vert, *Kernel Methods* slides, "Graph kernels".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import GraphHopperKernel
    >>> edge = (np.array([[0, 1], [1, 0]]), None, None, np.array([[1.0], [2.0]]))
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), None, None, np.ones((3, 1)))
    >>> GraphHopperKernel().fit_transform([edge, path])
    array([[27., 33.],
           [33., 53.]])
    """

    _feature_columns = r"""For the linear node kernel and the label delta only (the Gaussian
    node kernel has no finite feature map): :math:`\Phi(G) = \sum_v M_v \otimes x_v` in the
    fitted feature space. Column ``t * n_node_attributes_ + k`` holds attribute ``k`` at the
    packed path position ``t = b (b + 1) / 2 + a`` (with labels: column ``c`` is the key
    ``feature_keys_[c]``); ``n_features_fit_`` columns. Features of paths longer than any
    fitted graph has (labels unseen at fit) have no column: they match nothing in the fitted
    graphs, but count in :math:`k(G, G)`."""

    _parameter_constraints = {
        **{k: v for k, v in GraphKernel._parameter_constraints.items() if k != "edge_label"},
        "kernel": [StrOptions({"linear", "gaussian"})],
        "gamma": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, *, node_attributes="attributes", node_label=None, unlabeled_nodes="constant",
                 kernel="linear", gamma=1.0, normalize=False, n_jobs=None, verbose=0):
        self.node_attributes = node_attributes
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.kernel = kernel
        self.gamma = gamma
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _prepare(self, X, fitting):
        if self.node_attributes is None and self.kernel == "gaussian":
            raise ValueError(
                "kernel='gaussian' is a kernel on node attributes: set node_attributes, or use "
                "kernel='linear' (the label delta) with node_label.")
        return super()._prepare(X, fitting)

    def _represent(self, batch, fitting):
        n_threads = self._n_threads() if batch.n_nodes >= _MIN_NODES_FOR_THREADS else 1
        n_nodes = np.diff(batch.node_ptr)
        # the exact diameters cost a BFS per node, O(n m): a graph too long for memory is
        # refused first from a lower bound found in O(n + m)
        _check_path_counts(n_nodes, _diameter_lower_bounds(batch), "at least ")
        diameters = np.empty(batch.n_samples, dtype=np.intp)
        _graphhopper.graph_diameters(batch.node_ptr, batch.indptr, batch.indices, diameters,
                                     n_threads)
        _check_path_counts(n_nodes, diameters, "up to ")
        n_lengths = diameters + 1
        n_entries = n_lengths * (n_lengths + 1) // 2
        weight_ptr = np.zeros(batch.n_samples + 1, dtype=np.intp)
        np.cumsum(n_nodes * n_entries, out=weight_ptr[1:])
        weights = np.zeros(weight_ptr[-1])
        _graphhopper.hopper_weights(batch.node_ptr, batch.indptr, batch.indices, n_lengths,
                                    weight_ptr, weights, n_threads)
        if not np.all(np.isfinite(weights)):
            raise ValueError("GraphHopperKernel path counts overflow float64 on these graphs.")
        graph_weights = [weights[start:stop].reshape(n, t) for start, stop, n, t
                         in zip(weight_ptr[:-1], weight_ptr[1:], n_nodes, n_entries)]
        attributes = batch.node_attributes
        # the label delta is a factor unless the labels are the one label of "constant"
        labelled = attributes is None or batch.unlabeled_rule != "constant"
        if self.kernel == "gaussian":
            with np.errstate(over="ignore"):
                squared_norms = np.einsum("ij,ij->i", attributes, attributes)
            if np.any(squared_norms > _MAX_SQUARED_NORM):
                raise ValueError(_overflow_message(
                    attributes, "their squared norms, from which the Gaussian node kernel "
                    "computes ‖x − x'‖²", "and choose gamma for the rescaled attributes"))
            hopper = _HopperWeights(batch.node_ptr, n_entries, weight_ptr, weights, attributes,
                                    squared_norms)
            return _by_label(hopper, batch.node_labels) if labelled else hopper
        if labelled:
            return self._label_features(batch, graph_weights, fitting)
        d = batch.node_attributes.shape[1]
        check_memory_request(8.0 * batch.n_samples * float(n_entries.max()) * d,
                             f"GraphHopperKernel features of {batch.n_samples} graphs "
                             f"(diameter up to {diameters.max()}, {d} attributes)",
                             "use kernel='gaussian', which keeps no features.")
        values = np.zeros((batch.n_samples, int(n_entries.max()) * d))
        with np.errstate(over="ignore", invalid="ignore"):
            for g, (M, start) in enumerate(zip(graph_weights, batch.node_ptr)):
                block = M.T @ batch.node_attributes[start:start + len(M)]
                values[g, :block.size] = block.ravel()
            # every Gram entry is at most ‖Φ(G)‖ ‖Φ(G')‖ (Cauchy–Schwarz), as is every
            # partial sum of its dot product: finite squared norms keep the Gram finite
            finite = np.all(np.isfinite(np.einsum("ij,ij->i", values, values)))
        if not finite:
            raise ValueError(_overflow_message(
                batch.node_attributes, "the graphs' features Σ_v M_v ⊗ x_v (their squared "
                "norms are the Gram's diagonal)", "(with normalize=True the Gram is the same)"))
        if fitting:
            self.n_features_fit_ = values.shape[1]
        return _DenseFeatures(values)

    def _label_features(self, batch, graph_weights, fitting):
        """``Σ_v M_v ⊗ e_{label(v)} ⊗ x_v`` as sparse features (``x_v = 1`` without
        attributes): each graph's rows ``M_v ⊗ x_v`` summed by label."""
        graph_ids, keys, counts = [], [], []
        for g, (M, start) in enumerate(zip(graph_weights, batch.node_ptr)):
            labels = batch.node_labels[start:start + len(M)]
            if batch.node_attributes is not None:  # rows M_v ⊗ x_v, position major
                x = batch.node_attributes[start:start + len(M)]
                with np.errstate(over="ignore", invalid="ignore"):  # refused below
                    M = (M[:, :, None] * x[:, None, :]).reshape(len(M), -1)
            order = np.argsort(labels, kind="stable")
            first = np.flatnonzero(np.r_[True, np.diff(labels[order]) != 0])
            with np.errstate(over="ignore", invalid="ignore"):
                sums = np.add.reduceat(M[order], first, axis=0)
            rows, cols = np.nonzero(sums)
            graph_ids.append(np.full(len(rows), g))
            keys.append((labels[order][first][rows].astype(np.int64) << _LABEL_SHIFT) | cols)
            counts.append(sums[rows, cols])
        graph_ids, keys, counts = map(np.concatenate, (graph_ids, keys, counts))
        with np.errstate(over="ignore", invalid="ignore"):
            # finite squared norms keep the Gram finite (Cauchy–Schwarz, as for dense features)
            finite = np.all(np.isfinite(np.bincount(graph_ids, weights=counts * counts)))
        if not finite:
            raise ValueError(_overflow_message(
                batch.node_attributes, "the graphs' features Σ_v M_v ⊗ e_ℓ(v) ⊗ x_v (their "
                "squared norms are the Gram's diagonal)", "(with normalize=True the Gram is "
                "the same)"))
        if fitting:
            self.feature_keys_ = np.unique(keys)
            self.n_features_fit_ = len(self.feature_keys_)
        column = np.minimum(np.searchsorted(self.feature_keys_, keys),
                            max(len(self.feature_keys_) - 1, 0))
        known = self.feature_keys_[column] == keys if len(self.feature_keys_) else column < 0
        return count_features(graph_ids, keys, counts, batch.n_samples,
                              len(self.feature_keys_), np.where(known, column, -1))

    def _gram(self, A, B=None):
        if isinstance(A, dict):  # Gaussian node kernel by label: the labels A and B share
            other = A if B is None else B
            K = np.zeros((_n_samples(A), _n_samples(other)))
            for code in A.keys() & other.keys():
                K += self._gram(A[code], None if B is None else other[code])
            return K
        if isinstance(A, _DenseFeatures):
            return A.gram(B)
        if not isinstance(A, _HopperWeights):
            return A.gram(B, self._n_threads())
        other = A if B is None else B
        n_threads = self._n_threads()

        def fill_rows(out, start, stop):
            _graphhopper.gaussian_hopper_gram(A.core_arrays(), other.core_arrays(),
                                              B is None, self.gamma, out, start, stop,
                                              n_threads=n_threads)

        return fill_gram(fill_rows, A.n_samples, other.n_samples, B is None, self.verbose,
                         type(self).__name__)

    def _self_similarity(self, A):
        if isinstance(A, dict):
            return sum((self._self_similarity(part) for part in A.values()),
                       np.zeros(_n_samples(A)))
        if not isinstance(A, _HopperWeights):
            return A.squared_norms()
        out = np.zeros(A.n_samples)
        _graphhopper.gaussian_hopper_diagonal(A.core_arrays(), self.gamma, out,
                                              n_threads=self._n_threads())
        return out

    def _check_feature_space(self):
        if self.kernel == "gaussian":
            raise ValueError("kernel='gaussian' has no explicit features; use kernel='linear'.")

    def _feature_matrix(self, rep):
        if isinstance(rep, _DenseFeatures):
            values = np.zeros((rep.n_samples, self.n_features_fit_))
            common = min(rep.values.shape[1], self.n_features_fit_)
            values[:, :common] = rep.values[:, :common]
            return sp.csr_array(values)
        return rep.known


def _by_label(hopper, node_labels):
    """``{label code: the graphs' nodes of that label}`` as :class:`_HopperWeights`: with the
    label delta, the Gaussian pair kernel sums over the pairs of nodes of one label."""
    parts = {}
    graph_of_node = np.repeat(np.arange(hopper.n_samples), np.diff(hopper.node_ptr))
    node_entries = hopper.n_entries[graph_of_node]
    node_first = np.repeat(hopper.weight_ptr[:-1], np.diff(hopper.node_ptr)) + \
        (np.arange(len(graph_of_node)) - hopper.node_ptr[graph_of_node]) * node_entries
    for code in np.unique(node_labels).tolist():
        nodes = np.flatnonzero(node_labels == code)
        node_ptr = np.zeros(hopper.n_samples + 1, dtype=np.intp)
        np.cumsum(np.bincount(graph_of_node[nodes], minlength=hopper.n_samples),
                  out=node_ptr[1:])
        weight_ptr = np.zeros(hopper.n_samples + 1, dtype=np.intp)
        np.cumsum(np.diff(node_ptr) * hopper.n_entries, out=weight_ptr[1:])
        lengths = node_entries[nodes]
        gather = np.repeat(node_first[nodes] - (np.cumsum(lengths) - lengths), lengths) + \
            np.arange(lengths.sum())
        parts[code] = _HopperWeights(node_ptr, hopper.n_entries, weight_ptr,
                                     hopper.weights[gather], hopper.attributes[nodes],
                                     hopper.squared_norms[nodes])
    return parts


def _n_samples(parts):
    return next(iter(parts.values())).n_samples


def _check_path_counts(n_nodes, diameters, bound):
    """Refuse path counts ``M_v`` larger than memory: ``(δ + 1)(δ + 2) / 2`` doubles per node
    of a graph of diameter δ (``bound`` says whether ``diameters`` are exact or lower
    bounds)."""
    n_lengths = diameters.astype(np.float64) + 1
    check_memory_request(8.0 * float(np.dot(n_nodes, n_lengths * (n_lengths + 1) / 2)),
                         f"GraphHopperKernel path counts of graphs of diameter {bound}"
                         f"{diameters.max(initial=0)}",
                         "each node stores (diameter + 1) (diameter + 2) / 2 counts; split "
                         "very long graphs or use WeisfeilerLehmanKernel.")


def _diameter_lower_bounds(batch):
    """A lower bound on each graph's diameter (its largest finite distance), in O(n + m): the
    double sweep, in every component the eccentricity of the node farthest from its first node
    (exact on trees, so on paths; at least half the diameter on any graph).

    One BFS sweeps every component of the batch at once, from a virtual node joined to one
    start per component.

    Returns
    -------
    bounds : ndarray of shape (n_graphs,), intp
    """
    n = batch.n_nodes
    bounds = np.zeros(batch.n_samples, dtype=np.intp)
    if n == 0:
        return bounds
    adjacency = sp.csr_array((np.ones(len(batch.indices)), batch.indices, batch.indptr),
                             shape=(n, n))
    _, component = csgraph.connected_components(adjacency, directed=False)
    starts = np.unique(component, return_index=True)[1]
    for _ in range(2):
        sweep = sp.csr_array((np.ones(len(batch.indices) + len(starts)),
                              np.r_[batch.indices, starts],
                              np.r_[batch.indptr, batch.indptr[-1] + len(starts)]),
                             shape=(n + 1, n + 1))
        depth = csgraph.dijkstra(sweep, indices=n, unweighted=True)[:n] - 1
        # the deepest node of each component: the last of each component sorted by depth
        order = np.lexsort((depth, component))
        starts = order[np.r_[np.flatnonzero(np.diff(component[order])), n - 1]]
    graph_of_start = np.searchsorted(batch.node_ptr, starts, side="right") - 1
    np.maximum.at(bounds, graph_of_start, depth[starts].astype(np.intp))
    return bounds


def _overflow_message(attributes, where, advice):
    """The message of node attributes too large for float64: ``where`` they overflow, and
    ``advice`` after the fix (rescaling them)."""
    largest = float(np.max(np.abs(attributes)))
    return (f"GraphHopperKernel: node attributes as large as {largest:.3g} in magnitude "
            f"overflow float64 in {where}; rescale them, e.g. divide them by their largest "
            f"magnitude {advice}.")


def graphhopper_kernel(X, Y=None, **params):
    """Gram matrix of :class:`GraphHopperKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(GraphHopperKernel(**params), X, Y)
