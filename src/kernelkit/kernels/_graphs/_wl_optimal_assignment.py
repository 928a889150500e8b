"""Weisfeiler–Lehman optimal assignment kernel (Kriege, Giscard & Wilson 2016)."""

import dataclasses

import numpy as np
import scipy.sparse as sp
from sklearn.utils.metaestimators import available_if

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._features import intersection_gram
from kernelkit.kernels._graphs._bases import GRAPH_DOCS
from kernelkit.kernels._graphs._weisfeiler_lehman import WeisfeilerLehmanKernel
from kernelkit.utils._docstrings import fill_doc

__all__ = ["WeisfeilerLehmanOptimalAssignmentKernel", "weisfeiler_lehman_optimal_assignment_kernel"]


@dataclasses.dataclass(frozen=True)
class _Histograms:
    """WL label counts of a batch of graphs.

    Attributes
    ----------
    counts : scipy.sparse.csr_array of shape (n_samples, n_features_fit)
        Counts of the labels seen at ``fit``, columns sorted by ``(iteration, label)``.
    totals : ndarray of shape (n_samples,)
        ``Σ`` of every count, unseen labels included: ``(n_iter + 1) · n_nodes``.
    """

    counts: sp.csr_array
    totals: np.ndarray

    @property
    def n_samples(self):
        return self.counts.shape[0]


@fill_doc(**GRAPH_DOCS)
class WeisfeilerLehmanOptimalAssignmentKernel(WeisfeilerLehmanKernel):
    r"""Weisfeiler–Lehman optimal assignment kernel: histogram intersection of WL labels.

    The optimal assignment kernel matches the nodes of two graphs one to one so as to maximise
    the summed similarity of matched nodes, :math:`K(G, G') = \max_{B}
    \sum_{(v, v') \in B} k(v, v')` over the bijections ``B`` between the nodes (the smaller
    graph's nodes all matched). With the base kernel
    :math:`k(v, v') = \sum_{h=0}^{n_\mathrm{iter}} [\ell_h(v) = \ell_h(v')]` — the number of WL
    iterations after which ``v`` and ``v'`` still share their label — the WL labels form a
    hierarchy (a label determines its ancestors), ``k`` is *strong*, and the optimal assignment
    reduces to the histogram intersection of the WL label counts (Kriege et al., Theorem 2),

    .. math::

        K(G, G') = \sum_{h=0}^{n_\mathrm{iter}} \sum_{\ell}
        \min\bigl(\phi_{h,\ell}(G), \phi_{h,\ell}(G')\bigr),

    with :math:`\phi_{h,\ell}(G)` the number of nodes of ``G`` that carry label
    :math:`\ell` after ``h`` relabelling iterations (the histograms of
    :class:`WeisfeilerLehmanKernel`, every tree level weighted 1). The kernel is positive
    semi-definite: :math:`\min(a, b) = \sum_{t \ge 1} [a \ge t][b \ge t]`, so it is the inner
    product of the indicator features :math:`[\phi_{h,\ell}(G) \ge t]` (see
    :meth:`transform_features`). ``k(G, G) = (n_\mathrm{iter} + 1) |V(G)|``.

    The relabelling is :class:`WeisfeilerLehmanKernel`'s (compiled, no hashing, so no
    collisions); the Gram matrix is a compiled, threaded histogram intersection over posting
    lists: each graph visits only the graphs that share one of its labels.

    Parameters
    ----------
    n_iter : int, default=5
        Number of WL relabelling iterations; labels of iterations ``0..n_iter`` are counted.
        Same convention as GraKeL's ``WeisfeilerLehmanOptimalAssignment(n_iter=n_iter)``, whose
        Gram matrix (``normalize=False``, its default) this equals.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read
        (every node labelled by ``unlabeled_nodes``).
    %(unlabeled_nodes)s
    edge_label : str or None, default=None
        Edge attribute holding the bond label: the relabelling is then
        :class:`WeisfeilerLehmanKernel`'s edge variant (a node's signature pairs each
        neighbour's label with the label of the edge to it); None: edge labels are not read.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix: :math:`K(G, G') / ((n_\mathrm{iter} + 1)
        \sqrt{|V(G)| |V(G')|})`.
    n_jobs : int or None, default=None
        Threads of the relabelling and of the Gram matrix.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : object
        WL label counts of the fitted graphs.
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
    signature_tables_, label_columns_ : list
        The label codes and the vocabulary of the relabelling, as in
        :class:`WeisfeilerLehmanKernel`.
    feature_keys_ : ndarray of int64
        Keys ``iteration << 32 | label`` of the fitted labels, in column order.
    max_counts_ : ndarray of shape (len(feature_keys_),), dtype int64
        Largest count of each fitted label over the fitted graphs: the number of indicator
        columns it gets in :meth:`transform_features`.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    WeisfeilerLehmanKernel : the same histograms compared by inner product.
    NeighborhoodHashKernel : hashed neighbourhood labels compared by a min/max ratio.

    References
    ----------
    N. M. Kriege, P.-L. Giscard, R. C. Wilson. On valid optimal assignment kernels and
    applications to graph classification. NeurIPS 2016 (Section 4, Theorem 2).
    N. Shervashidze, P. Schweitzer, E. J. van Leeuwen, K. Mehlhorn, K. M. Borgwardt.
    Weisfeiler–Lehman graph kernels. JMLR 12:2539–2561, 2011.
    Mairal & Vert, *Kernel Methods* slides, "Graph kernels".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import WeisfeilerLehmanOptimalAssignmentKernel
    >>> star = (np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]),
    ...         ["N", "C", "C", "C"])
    >>> chain = (np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]]),
    ...          ["C", "N", "C", "C"])
    >>> WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2).fit_transform([star, chain])
    array([[12.,  5.],
           [ 5., 12.]])
    """

    _feature_columns = r"""Indicator features, defined relative to the fitted graphs: fitted
    label :math:`(h, \ell)` gets ``max_counts_`` columns, column ``t`` (from 1) holding
    :math:`[\phi_{h,\ell}(G) \ge t]`. Since :math:`\min(a, b) = \sum_t [a \ge t][b \ge t]`
    and no fitted count exceeds ``max_counts_``, the rule holds against the fitted graphs.
    Counts above the fitted maximum and unseen labels have no column, so for two graphs that
    were not fitted ``Φ(G) · Φ(G')`` is at most :math:`k(G, G')` (equal when neither has a
    count above the fitted maxima nor a label unseen at fit). Row ``i`` has
    :math:`\sum_{h,\ell} \min(\phi_{h,\ell}, \mathrm{max}_{h,\ell})` ones, at most
    ``(n_iter + 1) · n_nodes``; ``max_counts_.sum()`` columns."""

    # The indicator features stop at the fitted maximum counts, which a growing vocabulary
    # would change under the columns already given out: no streaming for this kernel.
    partial_fit = available_if(lambda kernel: False)(WeisfeilerLehmanKernel.partial_fit)

    def _represent(self, batch, fitting):
        features = super()._represent(batch, fitting)
        counts = features.known
        if fitting:
            self.max_counts_ = counts.max(axis=0).toarray().ravel().astype(np.int64)
        return _Histograms(counts, (self.n_iter + 1.0) * np.diff(batch.node_ptr))

    def _gram(self, A, B=None):
        return intersection_gram(A.counts, None if B is None else B.counts, self._n_threads(),
                                 self.verbose, type(self).__name__)

    def _self_similarity(self, A):
        return A.totals

    def _feature_matrix(self, rep):
        counts = rep.counts.tocoo()
        first_column = np.r_[0, np.cumsum(self.max_counts_)[:-1]]
        repeats = np.minimum(counts.data.astype(np.int64), self.max_counts_[counts.col])
        n_ones = int(repeats.sum())
        # the ones of entry e sit in columns first_column[col_e] + 0 .. repeats_e - 1
        entry_start = np.repeat(np.cumsum(repeats) - repeats, repeats)
        columns = np.repeat(first_column[counts.col], repeats) + np.arange(n_ones) - entry_start
        return sp.csr_array((np.ones(n_ones), (np.repeat(counts.row, repeats), columns)),
                            shape=(counts.shape[0], int(self.max_counts_.sum())))


def weisfeiler_lehman_optimal_assignment_kernel(X, Y=None, *, n_iter=5, **params):
    """Gram matrix of :class:`WeisfeilerLehmanOptimalAssignmentKernel`; ``params`` as its
    keyword parameters."""
    return pairwise_structured_kernel(
        WeisfeilerLehmanOptimalAssignmentKernel(n_iter=n_iter, **params), X, Y)
