"""Tree-pattern (subtree, branching-walk) kernels of Ramon & Gärtner and Mahé & Vert."""

from numbers import Integral, Real

from kernelkit._core import _product_graph
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel, ProductGraphKernel, max_degree
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT

__all__ = ["SubtreeKernel", "subtree_kernel"]

# The matchings DP keeps a table over the subsets of the smaller neighbour list.
MAX_MATCHING_DEGREE = 16


@fill_doc(**GRAPH_DOCS)
class SubtreeKernel(ProductGraphKernel):
    r"""Tree-pattern kernel: pairs of equally labelled branching walks (subtree patterns).

    :math:`K(G_1, G_2) = \sum_{(u, v) \in V(G_1 \times G_2)} T(u, v, \mathrm{depth})` by dynamic
    programming over the product graph's vertex pairs, with :math:`T(u, v, 1) = 1` and two
    recursions (the slides
    admit both readings; both are implemented):

    - ``variant="matchings"`` (Ramon & Gärtner 2003; Mahé & Vert 2009): a pattern's children are
      matched one-to-one,
      :math:`T(u, v, h + 1) = \sum_R \prod_{(u', v') \in R} \lambda T(u', v', h)` over the matchings
      :math:`R` between :math:`N(u)` and :math:`N(v)` (pairs with equal labels, and equal edge
      labels when used), the empty matching included. Computed by a DP over the subsets of the
      smaller neighbour list: degrees up to 16 (fine for molecules).
    - ``variant="subsets"`` (Mairal & Vert, "Extension: branching walks"):

      .. math::

          T(u, v, h + 1) = \sum_{R \subseteq N_\times(u, v)} \prod_{(u', v') \in R}
          \lambda T(u', v', h)

      over subsets of the product-graph neighbours, which also admits non-injective pairings;
      computed in its closed form
      :math:`\prod_{(u', v') \in N_\times(u, v)} (1 + \lambda T(u', v', h))`. The course leaves the
      base case and the final sum unstated; the empty set counts 1, as in the matchings variant.

    ``depth`` counts the levels of a pattern (``depth=1``: equally labelled vertex pairs,
    ``depth=2``: a vertex and any matched set of its neighbours, ...).

    Parameters
    ----------
    depth : int, default=3
        Number of levels of the tree patterns, at least 1.
    lambda_ : float, default=1.0
        Weight of each child in a pattern (:math:`\lambda < 1` favours narrow trees).
    variant : {"matchings", "subsets"}, default="matchings"
        The recursion, see above.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read
        (every node labelled by ``unlabeled_nodes``).
    %(unlabeled_nodes)s
    edge_label : str or None, default=None
        Edge attribute holding the edge label; None ignores edge labels.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads (graph pairs are spread over them).
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : GraphBatch
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
    max_degree_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    WalkKernel : linear patterns (walks) instead of trees.
    WeisfeilerLehmanKernel : subtree patterns without repeated vertices, by relabelling.

    References
    ----------
    J. Ramon, T. Gärtner. Expressivity versus efficiency of graph kernels. First International
    Workshop on Mining Graphs, Trees and Sequences, 2003. P. Mahé, J.-P. Vert. Graph kernels
    based on tree patterns for molecules. Machine Learning 75(1):3–35, 2009. Mairal & Vert,
    "Extension: branching walks", "2D Subtree vs walk kernels".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import SubtreeKernel
    >>> star = (np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]]), ["C", "O", "O"])
    >>> SubtreeKernel(depth=2, variant="matchings").fit_transform([star])
    array([[15.]])
    >>> SubtreeKernel(depth=2, variant="subsets").fit_transform([star])
    array([[24.]])
    """

    _parameter_constraints = {
        **GraphKernel._parameter_constraints,
        "depth": [Interval(Integral, 1, MAX_INT, closed="left")],
        "lambda_": [Interval(Real, 0, None, closed="neither")],
        "variant": [StrOptions({"matchings", "subsets"})],
    }

    def __init__(self, depth=3, lambda_=1.0, *, variant="matchings", node_label="label",
                 unlabeled_nodes="constant", edge_label=None, normalize=False, n_jobs=None,
                 verbose=0):
        self.depth = depth
        self.lambda_ = lambda_
        self.variant = variant
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _check_degree(self, degree):
        # with normalize, the new graphs are also matched with themselves: a dense new graph
        # would need a 2^degree table
        smaller = degree if self.normalize else min(degree, self.max_degree_fit_)
        if self.variant == "matchings" and smaller > MAX_MATCHING_DEGREE:
            raise ValueError(
                f"variant='matchings' supports degrees up to {MAX_MATCHING_DEGREE} in one of "
                f"the two graph sets; these have largest degrees {self.max_degree_fit_} and "
                f"{degree}. Use variant='subsets' for graphs of high degree."
            )

    _core_kernel = _product_graph.SUBTREE

    def _core_params(self, A, B):
        max_a = max_degree(A.indptr)
        max_b = max_a if B is None else max_degree(B.indptr)
        return {"n_steps": self.depth, "lambda_": self.lambda_,
                "matchings": self.variant == "matchings",
                "max_small_degree": min(max_a, max_b)}


def subtree_kernel(X, Y=None, *, depth=3, lambda_=1.0, **params):
    """Gram matrix of :class:`SubtreeKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(SubtreeKernel(depth=depth, lambda_=lambda_, **params), X, Y)
