"""Walk kernels on the label-matched product graph: n-th order, geometric and random walks."""

import warnings
from numbers import Integral, Real

from sklearn.exceptions import ConvergenceWarning

from kernelkit._core import _product_graph
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel, ProductGraphKernel
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = [
    "GeometricWalkKernel", "RandomWalkKernel", "WalkKernel", "geometric_walk_kernel",
    "random_walk_kernel", "walk_kernel",
]


class _IterativeWalkKernel(ProductGraphKernel):
    """Walk kernels solved by preconditioned conjugate gradients, one system per pair."""

    def _check_core(self, n_failed):
        if n_failed:
            warnings.warn(
                f"{type(self).__name__}: conjugate gradients did not reach tol={self.tol} within "
                f"max_iter={self.max_iter} iterations for {n_failed} graph pair(s); increase "
                "max_iter or tol.",
                ConvergenceWarning,
                stacklevel=4,
            )


@fill_doc(**GRAPH_DOCS)
class WalkKernel(ProductGraphKernel):
    r"""n-th order walk kernel: the number of pairs of equally labelled walks of length n.

    :math:`K(G_1, G_2) = \mathbf 1^\top A_\times^n \mathbf 1` with :math:`A_\times` the adjacency
    of the label-matched product graph
    (Mairal & Vert, "Walk kernel and product graph", Corollary): by the course's Lemma this counts
    the pairs of walks of ``G1`` and ``G2`` with ``n`` edges and the same label sequence. Computed
    by ``n`` sparse product-graph mat-vecs per pair without building :math:`A_\times` (compiled,
    threaded).

    Conventions: the length ``n`` counts **edges**, so ``n=0`` gives
    the number of equally labelled vertex pairs; with ``edge_label`` set, matched walks must
    also have equal edge labels.

    Parameters
    ----------
    n : int, default=3
        Walk length in edges.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read
        (every node labelled by ``unlabeled_nodes``).
    %(unlabeled_nodes)s
    edge_label : str or None, default=None
        Edge attribute holding the edge label (networkx input; for tuple input any non-None
        value uses the tuple's third element); None ignores edge labels.
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
        The fitted graphs, coded.
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
        Label → integer code maps learned at ``fit``.
    max_degree_fit_ : int
        Largest degree among the fitted graphs.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    GeometricWalkKernel : all walk lengths, geometrically weighted.
    RandomWalkKernel : walks weighted by their probability under a random walk.

    References
    ----------
    T. Gärtner, P. Flach, S. Wrobel. On graph kernels: hardness results and efficient
    alternatives. COLT 2003. Mairal & Vert, *Kernel Methods* slides, "Walk kernel", "Product graph",
    "Computation of the nth-order walk kernel".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import WalkKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
    >>> WalkKernel(n=1).fit_transform([path, triangle])
    array([[ 6.,  8.],
           [ 8., 12.]])
    """

    _parameter_constraints = {
        **GraphKernel._parameter_constraints,
        "n": [Interval(Integral, 0, MAX_INT, closed="left")],
    }

    def __init__(self, n=3, *, node_label="label", unlabeled_nodes="constant", edge_label=None,
                 normalize=False, n_jobs=None, verbose=0):
        self.n = n
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    _core_kernel = _product_graph.WALK

    def _core_params(self, A, B):
        return {"n_steps": self.n}


class GeometricWalkKernel(_IterativeWalkKernel):
    r"""Geometric walk kernel: walks of every length, weighted by :math:`\lambda^\mathrm{length}`.

    .. math::

        K(G_1, G_2) = \sum_{n \ge 0} \lambda^n \mathbf 1^\top A_\times^n \mathbf 1
                    = \mathbf 1^\top (I - \lambda A_\times)^{-1} \mathbf 1

    (Gärtner et al. 2003), solved per pair by conjugate gradients on
    :math:`(I - \lambda A_\times) x = \mathbf 1` with the product-graph mat-vec applied through
    the Kronecker structure (Vishwanathan et al. 2010) and never materialised: a pair costs
    :math:`O(\mathrm{iterations} \cdot \sum_{(u,v)} \deg u \deg v)` instead of the
    :math:`O(|G_1|^3 |G_2|^3)` of a dense inverse.

    The series converges iff :math:`\lambda \rho(A_\times) < 1`. Since :math:`A_\times` is
    entrywise below :math:`A_1 \otimes A_2`,
    :math:`\rho(A_\times) \le \rho(A_1) \rho(A_2) \le \Delta_1 \Delta_2` (:math:`\Delta` the
    largest degree); the kernel requires :math:`\lambda \Delta_X \Delta_Y < 1` over the graphs
    compared, a sufficient condition that also makes the
    system positive definite, and raises otherwise.

    Parameters
    ----------
    lambda_ : float, default=0.01
        Decay per edge, :math:`0 < \lambda`.
    tol : float, default=1e-10
        Relative residual at which conjugate gradients stop.
    max_iter : int, default=1000
        Conjugate-gradient iterations per pair (a ``ConvergenceWarning`` names the pairs that
        need more).
    node_label, unlabeled_nodes, edge_label, normalize, n_jobs, verbose
        As in :class:`WalkKernel`.

    Attributes
    ----------
    X_fit_ : GraphBatch
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
    max_degree_fit_ : int
        Largest degree among the fitted graphs (enters the convergence bound).
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    WalkKernel : one walk length; the terms of this series.
    RandomWalkKernel : the probabilistic weighting of walks.

    References
    ----------
    T. Gärtner, P. Flach, S. Wrobel. On graph kernels: hardness results and efficient
    alternatives. COLT 2003. S. V. N. Vishwanathan, N. N. Schraudolph, R. Kondor,
    K. M. Borgwardt. Graph kernels. JMLR 11:1201–1242, 2010 (§4.2). Mairal & Vert, "Walk kernel
    examples", "Computation of random and geometric walk kernels".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import GeometricWalkKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> K = GeometricWalkKernel(lambda_=0.1).fit_transform([path, path])
    >>> round(float(K[0, 0]), 6)
    5.69161
    """

    _parameter_constraints = {
        **GraphKernel._parameter_constraints,
        "lambda_": [Interval(Real, 0, None, closed="neither")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
    }

    def __init__(self, lambda_=0.01, *, tol=1e-10, max_iter=1000, node_label="label",
                 unlabeled_nodes="constant", edge_label=None, normalize=False, n_jobs=None,
                 verbose=0):
        self.lambda_ = lambda_
        self.tol = tol
        self.max_iter = max_iter
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _check_degree(self, degree):
        self._check_convergence(self.max_degree_fit_, degree)
        if self.normalize:
            # the series of each new graph with itself must converge too: a diverging
            # self-similarity would give cosines above 1
            self._check_convergence(degree, degree)

    def _check_convergence(self, max_degree_a, max_degree_b):
        bound = float(max_degree_a) * float(max_degree_b)
        if self.lambda_ * bound >= 1.0:
            raise ValueError(
                f"lambda_={self.lambda_} is too large for these graphs: the geometric series "
                f"converges for lambda_ < 1/rho(A_x), and with the largest degrees "
                f"{max_degree_a} and {max_degree_b} the guaranteed range is lambda_ < "
                f"{1.0 / bound:.6g}."
            )

    _core_kernel = _product_graph.GEOMETRIC

    def _core_params(self, A, B):
        return {"lambda_": self.lambda_, "tol": self.tol, "max_iter": self.max_iter}


class RandomWalkKernel(_IterativeWalkKernel):
    r"""Marginalised random-walk kernel: probability that two random walks emit the same labels.

    Kashima et al. (2003), with the stopping model the slides leave implicit: a walk starts at a
    uniform vertex, at each vertex stops with probability ``p_stop`` (always at an isolated vertex)
    or moves to a uniform neighbour. With :math:`t(u) = (1 - p_\mathrm{stop}) / \deg(u)` and
    :math:`s(u)` the stopping probability,

    .. math::

        K(G_1, G_2) = \frac{1}{|G_1| |G_2|} \mathbf 1^\top
        (I - \operatorname{diag}(t \otimes t) A_\times)^{-1} (s \otimes s),

    summed over the product graph's vertices: the probability that independent walks on
    ``G1`` and ``G2`` have the same label sequence. Solved per pair by Jacobi-preconditioned
    conjugate gradients on the equivalent symmetric, diagonally dominant system

    .. math::

        (\operatorname{diag}(t \otimes t)^{-1} - A_\times) x
        = \operatorname{diag}(t \otimes t)^{-1} (s \otimes s);

    converges for every ``p_stop`` in (0, 1).

    Parameters
    ----------
    p_stop : float, default=0.1
        Stopping probability at each step, in (0, 1).
    tol : float, default=1e-10
        Relative residual at which conjugate gradients stop.
    max_iter : int, default=1000
        Conjugate-gradient iterations per pair.
    node_label, unlabeled_nodes, edge_label, normalize, n_jobs, verbose
        As in :class:`WalkKernel`.

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
    GeometricWalkKernel : walks weighted by :math:`\lambda^\mathrm{length}` instead of
        probabilities.

    References
    ----------
    H. Kashima, K. Tsuda, A. Inokuchi. Marginalized kernels between labeled graphs. ICML 2003.
    Mairal & Vert, "Walk kernel examples", "Computation of random and geometric walk kernels".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import RandomWalkKernel
    >>> edge = (np.array([[0, 1], [1, 0]]), ["C", "C"])
    >>> K = RandomWalkKernel(p_stop=0.5).fit_transform([edge])
    >>> round(float(K[0, 0]), 6)
    0.333333
    """

    _parameter_constraints = {
        **GraphKernel._parameter_constraints,
        "p_stop": [Interval(Real, 0, 1, closed="neither")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
    }

    def __init__(self, p_stop=0.1, *, tol=1e-10, max_iter=1000, node_label="label",
                 unlabeled_nodes="constant", edge_label=None, normalize=False, n_jobs=None,
                 verbose=0):
        self.p_stop = p_stop
        self.tol = tol
        self.max_iter = max_iter
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    _core_kernel = _product_graph.RANDOM_WALK

    def _core_params(self, A, B):
        return {"p_stop": self.p_stop, "tol": self.tol, "max_iter": self.max_iter}


def walk_kernel(X, Y=None, *, n=3, **params):
    """Gram matrix of :class:`WalkKernel`; ``params`` as its keyword parameters.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import walk_kernel
    >>> edge = (np.array([[0, 1], [1, 0]]), ["C", "O"])
    >>> walk_kernel([edge], n=1)
    array([[2.]])
    """
    return pairwise_structured_kernel(WalkKernel(n=n, **params), X, Y)


def geometric_walk_kernel(X, Y=None, *, lambda_=0.01, **params):
    """Gram matrix of :class:`GeometricWalkKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(GeometricWalkKernel(lambda_=lambda_, **params), X, Y)


def random_walk_kernel(X, Y=None, *, p_stop=0.1, **params):
    """Gram matrix of :class:`RandomWalkKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(RandomWalkKernel(p_stop=p_stop, **params), X, Y)
