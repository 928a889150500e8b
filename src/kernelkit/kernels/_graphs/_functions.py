"""Function forms of the graph kernels: ``kernel(X, Y=None, **params)`` → Gram matrix.

``Y`` None gives ``K(X, X)`` (each pair once); otherwise ``K(X, Y)`` of shape ``(n_X, n_Y)``,
computed by fitting on ``Y`` and transforming ``X``, which gives the same values (labels of
``X`` unseen in ``Y`` match nothing, as they should).
"""

from kernelkit.kernels._graphs._graphlet import GraphletKernel
from kernelkit.kernels._graphs._shortest_path import ShortestPathKernel
from kernelkit.kernels._graphs._subtree import SubtreeKernel
from kernelkit.kernels._graphs._walk import GeometricWalkKernel, RandomWalkKernel, WalkKernel
from kernelkit.kernels._graphs._weisfeiler_lehman import WeisfeilerLehmanKernel

__all__ = [
    "geometric_walk_kernel",
    "graphlet_kernel",
    "random_walk_kernel",
    "shortest_path_kernel",
    "subtree_kernel",
    "walk_kernel",
    "weisfeiler_lehman_kernel",
]


def _gram(kernel, X, Y):
    return kernel.fit_transform(X) if Y is None else kernel.fit(Y).transform(X)


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
    return _gram(WalkKernel(n=n, **params), X, Y)


def geometric_walk_kernel(X, Y=None, *, lambda_=0.01, **params):
    """Gram matrix of :class:`GeometricWalkKernel`; ``params`` as its keyword parameters."""
    return _gram(GeometricWalkKernel(lambda_=lambda_, **params), X, Y)


def random_walk_kernel(X, Y=None, *, p_stop=0.1, **params):
    """Gram matrix of :class:`RandomWalkKernel`; ``params`` as its keyword parameters."""
    return _gram(RandomWalkKernel(p_stop=p_stop, **params), X, Y)


def subtree_kernel(X, Y=None, *, depth=3, lambda_=1.0, **params):
    """Gram matrix of :class:`SubtreeKernel`; ``params`` as its keyword parameters."""
    return _gram(SubtreeKernel(depth=depth, lambda_=lambda_, **params), X, Y)


def weisfeiler_lehman_kernel(X, Y=None, *, n_iter=5, **params):
    """Gram matrix of :class:`WeisfeilerLehmanKernel`; ``params`` as its keyword parameters."""
    return _gram(WeisfeilerLehmanKernel(n_iter=n_iter, **params), X, Y)


def shortest_path_kernel(X, Y=None, **params):
    """Gram matrix of :class:`ShortestPathKernel`; ``params`` as its keyword parameters."""
    return _gram(ShortestPathKernel(**params), X, Y)


def graphlet_kernel(X, Y=None, *, k=3, n_samples=None, **params):
    """Gram matrix of :class:`GraphletKernel`; ``params`` as its keyword parameters."""
    return _gram(GraphletKernel(k=k, n_samples=n_samples, **params), X, Y)
