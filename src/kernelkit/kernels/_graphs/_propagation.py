"""Propagation kernel (Neumann, Garnett, Bauckhage & Kersting 2016)."""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from kernelkit.kernels._base import ExplicitFeatureMixin, pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel
from kernelkit.kernels._graphs._features import count_features
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["PropagationKernel", "propagation_kernel"]

# Default bin widths (GraKeL's): label distributions live in [0, 1], attributes on their scale.
_LABEL_BIN_WIDTH = 0.01
_ATTRIBUTE_BIN_WIDTH = 4.0


@fill_doc(**GRAPH_DOCS)
class PropagationKernel(ExplicitFeatureMixin, GraphKernel):
    r"""Propagation kernel: histograms of hashed node distributions along a diffusion.

    Every node starts from a distribution :math:`p_v^{(0)}`: its label as a one-hot vector
    (``node_label``), or its continuous attribute vector (``node_attributes``). Iteration
    :math:`t = 0, \dots, t_\mathrm{max} - 1` hashes every node's vector by locality-sensitive
    hashing,

    .. math::

        h_t(v) = \left\lfloor \frac{\langle p_v^{(t)}, r_t \rangle + \theta_t}{w} \right\rfloor,

    with random projections :math:`r_t` (Cauchy for ``distance="l1"``, preserving the
    :math:`\ell_1` / total-variation distance; Gaussian for ``"l2"``; Gaussian on
    :math:`\sqrt{p}` for ``"hellinger"``) and offsets :math:`\theta_t \sim U[0, w)`, counts the
    bins of each graph into :math:`\phi_t(G)`, then propagates :math:`P^{(t+1)} = T P^{(t)}` with
    :math:`T = D^{-1} A` the row-normalised adjacency (a node without neighbours gets the zero
    vector). :math:`k(G, G') = \sum_t \langle \phi_t(G), \phi_t(G') \rangle` is a sparse
    feature product. Nodes whose distributions stay close land in the same bins.

    With labels and attributes both, the node kernel of each iteration is the product of the
    two: the label distributions and the attribute vectors propagate side by side, each hashed
    as alone (the labels with the bin width 0.01), and a bin is the pair of their bins. All
    labels equal, it is the attribute kernel; all attributes equal, the label kernel (on graphs
    without isolated nodes, whose vectors propagate to zero). Labels given by
    ``unlabeled_nodes="constant"`` leave the attribute kernel alone.

    The projections and offsets are drawn once, at ``fit``, from ``random_state`` and stored,
    so ``transform`` hashes as ``fit`` did. A label's projection entries are drawn from a
    stream of their own, seeded by the drawn seed and a fixed hash of the label itself (not by
    its code, which follows the order of first appearance): with a given ``random_state``,
    :math:`k(G, G')` does not depend on which other graphs were fitted or in what order, and
    labels unseen at ``fit`` hash consistently too. The bin width is a parameter, not fitted.

    Conventions, as GraKeL's ``Propagation`` (labels; ``M="TV"`` is ``distance="l1"``,
    ``M="H"`` is ``"hellinger"``): all nodes are labelled, so no label is clamped back after
    a step (Algorithm 1's push-back applies to the partially labelled case); ``t_max``
    histograms, the first of the initial distributions. With the same projections and offsets
    the Gram matrices are equal (tested), but GraKeL draws them from its own random stream, so
    equal ``random_state`` values do not give equal kernels. For attributes GraKeL's
    ``PropagationAttr`` hashes every coordinate separately (bins are ``d``-tuples, offsets
    drawn from a normal rather than uniform law); this kernel projects the attribute vector as
    the paper's locality-sensitive hashing does.

    Parameters
    ----------
    t_max : int, default=5
        Number of hashed iterations (histograms).
    w : float or None, default=None
        Bin width; None: 0.01 for labels, 4.0 for attributes (GraKeL's defaults). With both,
        the attributes' (the labels' is 0.01).
    distance : {"l1", "l2", "hellinger"}, default="l1"
        The distance between distributions that the hashing preserves; ``"hellinger"`` needs
        non-negative vectors (labels only).
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input), times the attributes when
        ``node_attributes`` is set too. None: the labels of ``unlabeled_nodes``.
    %(unlabeled_nodes)s
    node_attributes : str or None, default=None
        Node attribute holding a vector of floats per node (the fourth tuple element for
        tuples). None: the labels alone.
    random_state : int, RandomState instance or None, default=None
        Seeds the projections and offsets drawn at ``fit``.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads of the sparse Gram product.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : SparseFeatures
        Bin counts of the fitted graphs.
    n_samples_fit_ : int
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit``.
    edge_label_codes_ : dict
        Empty (edge labels are not used).
    n_node_attributes_ : int
        Length of the node attribute vectors (when attributes are used).
    random_seed_ : int
        The seed drawn from ``random_state`` at ``fit``.
    projections_ : ndarray of shape (t_max, n_dims)
        :math:`r_t` over the attributes, or without them over the label codes seen at ``fit``.
    offsets_ : ndarray of shape (t_max,)
        :math:`\theta_t`.
    label_projections_, label_offsets_ : ndarray
        With labels and attributes both: the labels' projections and offsets.
    bins_ : list of ndarray
        For each iteration, the sorted bins seen at ``fit`` (the fitted feature space): with
        labels and attributes both, complex numbers ``label bin + 1j * attribute bin``.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    WeisfeilerLehmanKernel : exact refinement of the labels instead of hashed diffusion.

    References
    ----------
    M. Neumann, R. Garnett, C. Bauckhage, K. Kersting. Propagation kernels: efficient graph
    kernels from propagated information. Machine Learning 102(2):209–245, 2016 (Algorithm 1).
    Mairal & Vert, *Kernel Methods* slides, "Graph kernels".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import PropagationKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
    >>> K = PropagationKernel(t_max=3, random_state=0).fit_transform([path, triangle])
    >>> K.shape, bool(np.all(np.diag(K) >= K.max(axis=1)))
    ((2, 2), True)
    """

    _hashes_labels = True

    _feature_columns = r"""The bin counts :math:`\phi_t(G)` of every iteration in the fitted
    feature space: column ``sum(len(b) for b in bins_[:t]) + i`` is bin ``bins_[t][i]``. Bins
    no fitted graph reached have no column: they match nothing in the fitted graphs, but count
    in :math:`k(G, G)`."""

    _parameter_constraints = {
        **{k: v for k, v in GraphKernel._parameter_constraints.items() if k != "edge_label"},
        "t_max": [Interval(Integral, 1, MAX_INT, closed="both")],
        "w": [Interval(Real, 0, None, closed="neither"), None],
        "distance": [StrOptions({"l1", "l2", "hellinger"})],
        "random_state": ["random_state"],
    }

    def __init__(self, t_max=5, w=None, *, distance="l1", node_label="label",
                 unlabeled_nodes="constant", node_attributes=None, random_state=None,
                 normalize=False, n_jobs=None, verbose=0):
        self.t_max = t_max
        self.w = w
        self.distance = distance
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.node_attributes = node_attributes
        self.random_state = random_state
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _prepare(self, X, fitting):
        if self.node_attributes is not None and self.distance == "hellinger":
            raise ValueError(
                "distance='hellinger' compares label distributions (non-negative, summing to "
                "1); use 'l1' or 'l2' with node attributes.")
        return super()._prepare(X, fitting)

    def _bin_width(self):
        if self.w is not None:
            return float(self.w)
        return _ATTRIBUTE_BIN_WIDTH if self.node_attributes is not None else _LABEL_BIN_WIDTH

    def _draw(self, rng, shape):
        """Projection entries: Cauchy (1-stable) for l1, Gaussian (2-stable) otherwise."""
        if self.distance == "l1":
            return rng.standard_cauchy(shape)
        return rng.standard_normal(shape)

    def _draw_hashes(self, batch, with_labels):
        """Draw at ``fit`` the seed, and the projections ``(t_max, n_dims)`` and offsets
        ``(t_max,)`` over the attributes, or the label codes of ``batch``, or both. The two
        parts share the uniform draws of their offsets, so that each is drawn as alone."""
        self.random_seed_ = int(
            check_random_state(self.random_state).randint(np.iinfo(np.int32).max))
        rng = np.random.default_rng(self.random_seed_)
        uniforms = rng.random(self.t_max)
        self.offsets_ = self._bin_width() * uniforms
        if batch.node_attributes is None:
            self.projections_ = self._label_projections(self.random_seed_,
                                                        batch.node_label_keys)
            return
        self.projections_ = self._draw(rng, (self.t_max, batch.node_attributes.shape[1]))
        if with_labels:
            self.label_offsets_ = _LABEL_BIN_WIDTH * uniforms
            self.label_projections_ = self._label_projections(self.random_seed_,
                                                              batch.node_label_keys)

    def _label_projections(self, seed, keys):
        """Projection entries, ``(t_max, len(keys))``, of the labels of keys ``keys``, each from
        its own stream (seed, key): the same for a label whatever other labels were seen."""
        columns = [self._draw(np.random.default_rng([seed, int(key)]), self.t_max)
                   for key in keys]
        return np.array(columns).reshape(-1, self.t_max).T

    def _represent(self, batch, fitting):
        n_nodes = batch.n_nodes
        # per node and step: its bin, column, key, graph id and count, and the sparse features
        # built from them (about 8 doubles); per step an offset and the fitted projection
        n_fitted_dims = 0 if fitting else self.projections_.shape[1]
        check_memory_request(8.0 * self.t_max * (8.0 * n_nodes + n_fitted_dims + 1),
                             f"PropagationKernel(t_max={self.t_max}) on {n_nodes} nodes",
                             "lower t_max (the distributions flatten after a few steps).")
        with_attributes = batch.node_attributes is not None
        # the label delta is a factor unless the labels are the one label of "constant"
        with_labels = not with_attributes or batch.unlabeled_rule != "constant"
        if fitting:
            self._draw_hashes(batch, with_labels)
        degree = np.diff(batch.indptr)
        transition = sp.csr_array(
            (np.repeat(1.0 / np.maximum(degree, 1), degree), batch.indices, batch.indptr),
            shape=(n_nodes, n_nodes))
        graph_of_node = np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr))
        if with_attributes:
            bins_per_step = self._hash(batch.node_attributes, self.projections_,
                                       self.offsets_, self._bin_width(), transition)
        if with_labels:
            projections, offsets = (self.label_projections_, self.label_offsets_) \
                if with_attributes else (self.projections_, self.offsets_)
            label_bins = self._hash(
                self._label_distributions(batch),
                self._all_label_projections(projections, batch.node_label_keys),
                offsets, _LABEL_BIN_WIDTH if with_attributes else self._bin_width(),
                transition)
            # a bin of the product: the pair (label bin, attribute bin), as a complex number
            bins_per_step = [bins + 1j * attribute_bins for bins, attribute_bins
                             in zip(label_bins, bins_per_step)] if with_attributes \
                else label_bins
        if fitting:
            self.bins_ = [np.unique(bins) for bins in bins_per_step]
        return self._count_bins(bins_per_step, graph_of_node, batch.n_samples)

    def _label_distributions(self, batch):
        """The one-hot label vectors ``(n_nodes, n_codes)`` over every code of the label map
        (the fitted ones, and any fresh ones of this batch; a sub-batch, such as a core, may
        hold only some of them)."""
        n_nodes, n_codes = batch.n_nodes, len(batch.node_label_keys)
        check_memory_request(8.0 * 3 * n_nodes * n_codes,
                             f"PropagationKernel label distributions of {n_nodes} nodes "
                             f"over {n_codes} labels",
                             "merge rare labels, or use WeisfeilerLehmanKernel.")
        vectors = np.zeros((n_nodes, n_codes))
        vectors[np.arange(n_nodes), batch.node_labels] = 1.0
        return vectors

    def _all_label_projections(self, projections, keys):
        """The fitted label projections, extended by those of the labels unseen at fit."""
        if projections.shape[1] >= len(keys):
            return projections
        return np.hstack([projections, self._label_projections(
            self.random_seed_, keys[projections.shape[1]:])])

    def _hash(self, vectors, projections, offsets, w, transition):
        """The bins ``floor((p · r_t + θ_t) / w)`` of every node's vector ``p`` at every step
        ``t``, the vectors propagated by ``transition`` between steps."""
        bins_per_step = []
        P = vectors
        for t in range(self.t_max):
            hashed = np.sqrt(P) if self.distance == "hellinger" else P
            with np.errstate(over="ignore", invalid="ignore"):  # refused below, with the fix
                bins_per_step.append(np.floor((hashed @ projections[t] + offsets[t]) / w))
            if t + 1 < self.t_max:
                P = transition @ P
        if not all(np.isfinite(bins).all() for bins in bins_per_step):
            raise ValueError(
                f"PropagationKernel hashes overflow float64 (w={w}): use a larger bin width w.")
        return bins_per_step

    def _count_bins(self, bins_per_step, graph_of_node, n_samples):
        """Sparse features: one column per (iteration, fitted bin); a bin unseen at ``fit``
        gets a negative key of its own (it counts in the graph's norm only)."""
        columns, keys = [], []
        first_column, n_unseen = 0, 0
        for fitted, bins in zip(self.bins_, bins_per_step):
            position = np.minimum(np.searchsorted(fitted, bins), len(fitted) - 1)
            known = fitted[position] == bins
            column = np.where(known, first_column + position, -1)
            key = column.astype(np.int64)
            if not known.all():
                _, unseen = np.unique(bins[~known], return_inverse=True)
                key[~known] = -1 - n_unseen - unseen
                n_unseen += int(unseen.max()) + 1
            columns.append(column)
            keys.append(key)
            first_column += len(fitted)
        n_steps = len(bins_per_step)
        return count_features(np.tile(graph_of_node, n_steps), np.concatenate(keys),
                              np.ones(n_steps * len(graph_of_node), dtype=np.int64), n_samples,
                              first_column, np.concatenate(columns))

    def _gram(self, A, B=None):
        return A.gram(B, self._n_threads())

    def _self_similarity(self, A):
        return A.squared_norms()

    def _feature_matrix(self, rep):
        return rep.known


def propagation_kernel(X, Y=None, **params):
    """Gram matrix of :class:`PropagationKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(PropagationKernel(**params), X, Y)
