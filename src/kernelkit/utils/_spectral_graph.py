"""Similarity graphs, graph Laplacians and their minor eigenvectors.

Shared by :class:`~kernelkit.cluster.SpectralClustering` (Sangnier, Algorithms 11–13) and
:class:`~kernelkit.manifold.SpectralEmbedding` (Sangnier, §3.3.1). Sangnier, §2.2.3–2.2.7.

Sparse graphs (k-NN, mutual k-NN, ε-neighbourhood, sparse precomputed) stay sparse all the way to
the eigensolver; only the fully connected Gaussian graph and dense precomputed affinities are
dense. Self-loops are dropped from every graph: they do not change ``L = D − W`` but would change
the degrees ``D`` of the normalised Laplacians.
"""

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import eigsh, lobpcg
from scipy.spatial import cKDTree
from sklearn.utils import check_random_state
from sklearn.utils.validation import validate_data

from kernelkit._core._linkage import mst_single_linkage
from kernelkit.utils._gram import is_symmetric_gram
from kernelkit.utils._kernels import pairwise_kernels
from kernelkit.utils._threads import lapack_threads
from kernelkit.utils._validation import check_sparse_input, validate_distance_data

__all__ = [
    "AFFINITIES",
    "LAPLACIANS",
    "graph_input_tags",
    "similarity_graph",
    "graph_laplacian",
    "n_graph_components",
    "laplacian_eigenvectors",
    "validate_graph_data",
]

AFFINITIES = ("rbf", "nearest_neighbors", "mutual_nearest_neighbors", "epsilon", "precomputed")
LAPLACIANS = ("unnormalized", "random_walk", "symmetric")
# Graphs up to this size are solved densely: LAPACK beats ARPACK's start-up there.
_DENSE_SOLVER_MAX_SAMPLES = 1000


def validate_graph_data(estimator, X):
    """``X`` validated by ``estimator`` (float64, at least two samples) for
    :func:`similarity_graph` with ``estimator.affinity``: samples, whose scale is checked
    before distances are taken, or an affinity matrix, dense or CSR, when the affinity is
    "precomputed"."""
    precomputed = estimator.affinity == "precomputed"
    if precomputed:
        X = check_sparse_input(X)
        X = validate_data(estimator, X, accept_sparse="csr", dtype=np.float64,
                          ensure_min_samples=2)
    else:
        X = validate_distance_data(estimator, X, dtype=np.float64, ensure_min_samples=2)
    return X


def graph_input_tags(tags, affinity):
    """``tags`` of an estimator built on :func:`similarity_graph`: a "precomputed" affinity is
    a pairwise matrix, and may be sparse."""
    tags.input_tags.pairwise = affinity == "precomputed"
    tags.input_tags.sparse = affinity == "precomputed"
    return tags


def similarity_graph(X, affinity="rbf", *, gamma=1.0, n_neighbors=10, eps=None, n_jobs=None):
    """Symmetric, non-negative similarity matrix ``W`` with a zero diagonal (Sangnier, §2.2.4).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), or (n_samples, n_samples) for "precomputed"
        Samples (Euclidean distances), or an affinity matrix, dense or sparse.
    affinity : {"rbf", "nearest_neighbors", "mutual_nearest_neighbors", "epsilon", "precomputed"}
        * "rbf": fully connected, ``W_ij = exp(−gamma ‖x_i − x_j‖²)`` (dense);
        * "nearest_neighbors": ``W_ij = 1`` when ``i`` is among the ``n_neighbors`` nearest
          neighbours of ``j`` *or* ``j`` among those of ``i`` (sparse);
        * "mutual_nearest_neighbors": the same with *and* (sparse, a subgraph of the former);
        * "epsilon": ``W_ij = 1`` when ``‖x_i − x_j‖ ≤ eps`` (sparse);
        * "precomputed": ``X`` itself, checked square, symmetric and non-negative.
    gamma : float
        Inverse squared length scale of "rbf" (``1/(2σ²)`` in the course's notation).
    n_neighbors : int
        ``k`` of the k-NN graphs, at most ``n_samples − 1``; the course advises ``k ~ log n``.
    eps : float or None
        Radius of "epsilon". None: the longest edge of the Euclidean minimum spanning tree, the
        smallest radius that connects the graph (Sangnier, §2.2.7), found in O(n) memory.
    n_jobs : int or None
        Threads of the "rbf" Gram matrix; None: every thread the OpenMP runtime allows.

    Returns
    -------
    W : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_samples)
    """
    if affinity == "precomputed":
        return _checked_affinity(X)
    n_samples = X.shape[0]
    if affinity == "rbf":
        W = pairwise_kernels(X, metric="rbf", gamma=gamma, n_jobs=n_jobs)   # exactly symmetric
        np.fill_diagonal(W, 0.0)
        return W
    if affinity in ("nearest_neighbors", "mutual_nearest_neighbors"):
        A = _knn_graph(X, min(n_neighbors, n_samples - 1))
        W = A.maximum(A.T) if affinity == "nearest_neighbors" else A.minimum(A.T)
        return W.tocsr()
    if affinity == "epsilon":
        if eps is None:
            eps = _connecting_radius(X)
        pairs = cKDTree(X).query_pairs(eps, output_type="ndarray")
        rows = np.concatenate([pairs[:, 0], pairs[:, 1]])
        cols = np.concatenate([pairs[:, 1], pairs[:, 0]])
        return sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n_samples, n_samples))
    raise ValueError(f"affinity must be one of {AFFINITIES}, got {affinity!r}.")


def _checked_affinity(W):
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise ValueError(f"affinity='precomputed' needs a square matrix, got shape {W.shape}.")
    if sp.issparse(W):
        W = sp.csr_matrix(W, dtype=np.float64, copy=True)
        values = W.data
    else:
        W = np.array(W, dtype=np.float64, copy=True, order="C")
        values = W
    if values.size and values.min() < 0:
        raise ValueError("affinity='precomputed': the affinity matrix has negative entries.")
    if not is_symmetric_gram(W):   # the symmetry rule of every precomputed Gram matrix
        raise ValueError("affinity='precomputed': the affinity matrix is not symmetric.")
    if sp.issparse(W):
        W.setdiag(0.0)
        W.eliminate_zeros()
    else:
        np.fill_diagonal(W, 0.0)
    return W


def _knn_graph(X, k):
    """0/1 matrix with ``A_ij = 1`` when ``j`` is one of the ``k`` nearest neighbours of ``i``."""
    n_samples = X.shape[0]
    _, neighbours = cKDTree(X).query(X, k=k + 1)
    neighbours = neighbours.reshape(n_samples, k + 1)
    # Drop the point itself; with duplicates it may not be listed first, or at all (then the
    # k+1-th neighbour is dropped instead).
    not_self = neighbours != np.arange(n_samples)[:, None]
    keep = not_self & (np.cumsum(not_self, axis=1) <= k)
    rows = np.broadcast_to(np.arange(n_samples)[:, None], neighbours.shape)[keep]
    return sp.csr_matrix((np.ones(rows.size), (rows, neighbours[keep])),
                         shape=(n_samples, n_samples))


def _connecting_radius(X):
    """Longest edge of the Euclidean minimum spanning tree (compiled Prim, O(n) memory)."""
    if X.shape[0] < 2:
        return 0.0
    Z = np.empty((X.shape[0] - 1, 4))
    mst_single_linkage(np.ascontiguousarray(X, dtype=np.float64), Z, "euclidean")
    # the tree's and cKDTree's distance arithmetic may differ in the last bits: widen slightly
    # so that the longest edge is kept
    return float(Z[-1, 2]) * (1.0 + 1e-9)


def n_graph_components(W):
    """Number of connected components of the similarity graph ``W``: the multiplicity of the
    Laplacian eigenvalue 0 (Sangnier, Prop 62)."""
    return connected_components(W if sp.issparse(W) else sp.csr_matrix(W), directed=False)[0]


def graph_laplacian(W, laplacian="unnormalized"):
    """Graph Laplacian of a similarity matrix (Sangnier, §2.2.5, Def 2.2.2 and 2.2.3).

    Parameters
    ----------
    W : ndarray or sparse matrix of shape (n_samples, n_samples)
        Symmetric non-negative similarities.
    laplacian : {"unnormalized", "random_walk", "symmetric"}
        ``L = D − W``, ``L_w = D⁻¹L = I − D⁻¹W`` or ``L_s = D^{−1/2} L D^{−1/2}``. An isolated
        vertex (zero degree) keeps a zero row in every form: it is a connected component of its
        own (Sangnier, Prop 62).

    Returns
    -------
    L : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        Same storage as ``W``; symmetric except for "random_walk".
    degrees : ndarray of shape (n_samples,)
    """
    degrees = np.asarray(W.sum(axis=1)).ravel()
    if sp.issparse(W):
        L = (sp.diags(degrees) - W).tocsr()
    else:
        L = np.diag(degrees) - W
    if laplacian == "unnormalized":
        return L, degrees
    safe = np.where(degrees > 0, degrees, 1.0)
    if laplacian == "random_walk":
        scale_rows, scale_cols = 1.0 / safe, np.ones_like(safe)
    elif laplacian == "symmetric":
        scale_rows = scale_cols = 1.0 / np.sqrt(safe)
    else:
        raise ValueError(f"laplacian must be one of {LAPLACIANS}, got {laplacian!r}.")
    if sp.issparse(L):
        return (sp.diags(scale_rows) @ L @ sp.diags(scale_cols)).tocsr(), degrees
    return scale_rows[:, None] * L * scale_cols[None, :], degrees


def laplacian_eigenvectors(W, n_components, laplacian="random_walk", *, eigen_solver="auto",
                           tol=0.0, random_state=None):
    """The ``n_components`` minor eigenpairs of a graph Laplacian (Sangnier, Algorithms 11–13).

    For "random_walk" the generalised problem ``L u = λ D u`` is solved through the symmetric
    ``L_s``: ``(λ, v)`` is an eigenpair of ``L_s`` iff ``(λ, D^{−1/2} v)`` is one of ``L_w``
    (Sangnier, Prop 61), so a symmetric solver is used throughout; the eigenvectors returned are
    ``D``-orthonormal.

    Parameters
    ----------
    W : ndarray or sparse matrix of shape (n_samples, n_samples)
        Symmetric non-negative similarities with a zero diagonal (:func:`similarity_graph`).
    n_components : int
        Number of eigenpairs, smallest eigenvalues first.
    laplacian : {"unnormalized", "random_walk", "symmetric"}
    eigen_solver : {"auto", "dense", "arpack", "lobpcg"}
        "dense": LAPACK on the densified Laplacian; "arpack": ``scipy.sparse.linalg.eigsh`` in
        shift-invert mode around a small negative shift (``L + σI`` is positive definite, so
        the factorisation exists even for disconnected graphs); "lobpcg": ``scipy.sparse.
        linalg.lobpcg``, matrix-free, for graphs too large to factorise. "auto": dense for dense
        ``W`` or up to 1000 samples, ARPACK otherwise.
    tol : float
        Eigensolver tolerance (0: machine precision for ARPACK, LOBPCG's default otherwise).
    random_state : int, RandomState instance or None
        Starting vector of the iterative solvers.

    Returns
    -------
    eigenvalues : ndarray of shape (n_components,)
        Increasing.
    eigenvectors : ndarray of shape (n_samples, n_components)
        Each with its largest-magnitude entry positive (a deterministic sign).
    """
    n_samples = W.shape[0]
    if not 1 <= n_components <= n_samples:
        raise ValueError(f"n_components={n_components} must be in [1, n_samples={n_samples}].")
    symmetric_kind = "unnormalized" if laplacian == "unnormalized" else "symmetric"
    L, degrees = graph_laplacian(W, symmetric_kind)
    if eigen_solver == "auto":
        eigen_solver = ("dense" if not sp.issparse(L) or n_samples <= _DENSE_SOLVER_MAX_SAMPLES
                        else "arpack")
    random_state = check_random_state(random_state)
    if eigen_solver == "dense":
        dense = L.toarray() if sp.issparse(L) else L
        with lapack_threads(4.0 * n_samples**3 / 3.0):   # the tridiagonal reduction
            values, vectors = eigh(dense, subset_by_index=[0, n_components - 1])
    elif eigen_solver == "arpack":
        # spectrum scale: eigenvalues of L_s lie in [0, 2], those of L in [0, 2 max degree]
        scale = 1.0 if symmetric_kind == "symmetric" else max(float(degrees.max()), 1.0)
        v0 = random_state.uniform(-1, 1, n_samples)
        values, vectors = eigsh(sp.csc_matrix(L), k=n_components, sigma=-1e-3 * scale,
                                which="LM", tol=tol, v0=v0)
    elif eigen_solver == "lobpcg":
        start = random_state.standard_normal((n_samples, n_components + 1))
        values, vectors = lobpcg(sp.csr_matrix(L), start, largest=False,
                                 tol=tol if tol > 0 else None, maxiter=2000)
    else:
        raise ValueError(f"eigen_solver must be 'auto', 'dense', 'arpack' or 'lobpcg', "
                         f"got {eigen_solver!r}.")
    order = np.argsort(values, kind="stable")[:n_components]
    values, vectors = values[order], vectors[:, order]
    if laplacian == "random_walk":
        vectors = vectors / np.sqrt(np.where(degrees > 0, degrees, 1.0))[:, None]
    # Laplacians are positive semi-definite: a negative eigenvalue is rounding; clamp it
    return np.maximum(values, 0.0), _sign_fixed(vectors)


def _sign_fixed(vectors):
    """Flip each column so that its largest-magnitude entry is positive."""
    largest = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[largest, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1.0
    return vectors * signs
