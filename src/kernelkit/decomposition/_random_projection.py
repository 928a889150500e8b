"""Random projections (Johnson–Lindenstrauss): Gaussian and sparse (Achlioptas, Li et al.)."""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
    validate_params,
)
from kernelkit.utils._validation import (
    MAX_INT,
    check_finite_result,
    check_memory_request,
    check_sparse_input,
)

__all__ = ["GaussianRandomProjection", "SparseRandomProjection", "johnson_lindenstrauss_min_dim"]


@validate_params(
    {"n_samples": ["array-like", Interval(Integral, 1, MAX_INT, closed="left")],
     "eps": ["array-like", Interval(Real, 0, 1, closed="neither")],
     "delta": [Interval(Real, 0, 1, closed="right"), None]},
    prefer_skip_nested_validation=True,
)
def johnson_lindenstrauss_min_dim(n_samples, *, eps=0.1, delta=None):
    r"""Smallest projection dimension that keeps pairwise distances within a factor
    :math:`1 \pm \varepsilon`.

    With ``delta=None``, the Dasgupta–Gupta bound
    :math:`p \ge 4 \log n / (\varepsilon^2/2 - \varepsilon^3/3)` (Sangnier §3.1.5 prints
    :math:`\varepsilon^2/3` in the denominator's first term, a typo). The bound is rounded up;
    ``sklearn.random_projection.johnson_lindenstrauss_min_dim`` truncates, so it can return one
    dimension less than the bound. With ``delta``, Sangnier, Theorem 68:
    :math:`p \ge 16 \varepsilon^{-2} \log(n / \sqrt\delta)` guarantees the ε-isometry of
    :math:`W \sim \mathcal N(0, 1/p)` on the :math:`n` points with probability at least
    :math:`1 - \delta` (``delta=1`` gives Corollary 69's :math:`16 \varepsilon^{-2} \log n`).

    Parameters
    ----------
    n_samples : int or array-like of int
        Number of points (≥ 1).
    eps : float or array-like of float, default=0.1
        Distortion, in (0, 1).
    delta : float in (0, 1] or None, default=None
        Failure probability of Sangnier, Theorem 68; None for the Dasgupta–Gupta bound.

    Returns
    -------
    n_components : int or ndarray of int
        Broadcast over ``n_samples`` and ``eps``.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.1.5, Lemma 67, Theorem 68, Corollary 69.
    S. Dasgupta, A. Gupta, "An elementary proof of a theorem of Johnson and Lindenstrauss",
    Random Structures & Algorithms 22, 2003.

    Examples
    --------
    >>> from kernelkit.decomposition import johnson_lindenstrauss_min_dim
    >>> int(johnson_lindenstrauss_min_dim(1000, eps=0.1))
    5921
    >>> int(johnson_lindenstrauss_min_dim(1000, eps=0.1, delta=0.05))
    13449
    """
    n = np.asarray(n_samples)
    e = np.asarray(eps, dtype=np.float64)
    if np.any(n < 1):
        raise ValueError(f"n_samples must be at least 1, got {n_samples!r}.")
    if np.any(e <= 0) or np.any(e >= 1):
        raise ValueError(f"eps must be in (0, 1), got {eps!r}.")
    if delta is None:
        bound = 4.0 * np.log(n) / (e**2 / 2.0 - e**3 / 3.0)
    else:
        bound = 16.0 / e**2 * np.log(n / np.sqrt(delta))
    return np.ceil(bound).astype(np.int64)[()]


class _BaseRandomProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin,
                            ParameterNamesOncePerClass, BaseEstimator):
    """Fit = draw ``components_`` of shape (n_components_, n_features); transform = ``X Wᵀ``."""

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left"), StrOptions({"auto"})],
        "eps": [Interval(Real, 0, 1, closed="neither")],
        "random_state": ["random_state"],
    }

    def _draw(self, n_components, n_features, random_state):
        raise NotImplementedError

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Draw the projection matrix for the shape of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Only its shape is used ("auto" sizes the projection by ``n_samples``).
        y : ignored

        Returns
        -------
        self
        """
        X = validate_data(self, check_sparse_input(X), accept_sparse="csr",
                          dtype=[np.float64, np.float32])
        n_samples, n_features = X.shape
        if self.n_components == "auto":
            k = int(johnson_lindenstrauss_min_dim(n_samples, eps=self.eps))
            if k > n_features:
                raise ValueError(
                    f"eps={self.eps} and n_samples={n_samples} need n_components={k} (the "
                    f"Dasgupta–Gupta bound), more than n_features={n_features}: a random "
                    "projection would not reduce the dimension."
                )
        else:
            k = self.n_components
        check_memory_request(self._draw_bytes(k, n_features),
                             f"{type(self).__name__}(n_components={k}) on {n_features} "
                             "features",
                             "ask for fewer components (about log(n_samples) / eps² suffice).")
        self.n_components_ = k
        self.components_ = self._draw(k, n_features, check_random_state(self.random_state))
        return self

    def transform(self, X):
        r"""Project: :math:`X W^\top`.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        X_new : {ndarray, sparse matrix} of shape (n_samples, n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, check_sparse_input(X), accept_sparse="csr",
                          dtype=[np.float64, np.float32], reset=False)
        check_memory_request(8.0 * X.shape[0] * self.n_components_,
                             f"{type(self).__name__}(n_components={self.n_components_}) "
                             f"projections of {X.shape[0]} samples",
                             "transform fewer samples at a time, or ask for fewer components.")
        with np.errstate(over="ignore", invalid="ignore"):   # refused just below
            out = X @ self.components_.T.astype(X.dtype, copy=False)
        check_finite_result(out, "X @ components_.T")
        if sp.issparse(out) and self._dense_output(X):
            return out.toarray()
        return out

    def _dense_output(self, X):
        return True

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags


class GaussianRandomProjection(_BaseRandomProjection):
    r"""Gaussian random projection :math:`x \mapsto W x` with
    :math:`W_{ij} \sim \mathcal N(0, 1/p)` iid.

    :math:`E\|Wx\|^2 = \|x\|^2` (Sangnier, Remark 3.1.6), and for :math:`p` from
    :func:`johnson_lindenstrauss_min_dim` all pairwise distances of :math:`n` points are kept within
    :math:`1 \pm \varepsilon` with high probability (Theorem 68). Sparse input gives dense output (W
    is dense).

    Parameters
    ----------
    n_components : int or "auto", default="auto"
        Target dimension ``p``; "auto" uses the Dasgupta–Gupta bound for ``eps``.
    eps : float, default=0.1
        Distortion for "auto".
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    components_ : ndarray of shape (n_components_, n_features)
    n_components_ : int
    n_features_in_ : int

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.1.5, Theorem 68.
    W. B. Johnson, J. Lindenstrauss, "Extensions of Lipschitz mappings into a Hilbert space",
    Contemp. Math. 26, 1984.

    See Also
    --------
    SparseRandomProjection : sparse ``W``, cheaper to draw and apply.
    johnson_lindenstrauss_min_dim : the dimension bounds.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.decomposition import GaussianRandomProjection
    >>> X = np.random.default_rng(0).normal(size=(20, 10000))
    >>> GaussianRandomProjection(n_components=300, random_state=0).fit_transform(X).shape
    (20, 300)
    """

    def __init__(self, n_components="auto", *, eps=0.1, random_state=None):
        self.n_components = n_components
        self.eps = eps
        self.random_state = random_state

    def _draw_bytes(self, n_components, n_features):
        return 8.0 * n_components * n_features

    def _draw(self, n_components, n_features, random_state):
        return random_state.normal(0.0, 1.0 / np.sqrt(n_components), (n_components, n_features))


class SparseRandomProjection(_BaseRandomProjection):
    r"""Sparse random projection: :math:`W_{ij} = \pm 1 / \sqrt{s p}` with probability
    :math:`s/2` each, else 0.

    Entries have mean 0 and variance :math:`1/p`, so :math:`E\|Wx\|^2 = \|x\|^2` as for the
    Gaussian matrix (Sangnier, Remark 3.1.6). ``density=1/3`` is Achlioptas' database-friendly
    projection; "auto" is Li, Hastie and Church's very sparse :math:`1/\sqrt{d}`
    (:math:`d` = ``n_features``). ``W`` is stored as CSR and
    sparse input stays sparse unless ``dense_output``.

    Parameters
    ----------
    n_components : int or "auto", default="auto"
        Target dimension ``p``; "auto" uses the Dasgupta–Gupta bound for ``eps``.
    density : float in (0, 1] or "auto", default="auto"
        Share ``s`` of non-zero entries.
    eps : float, default=0.1
        Distortion for "auto".
    dense_output : bool, default=False
        Return a dense array even for sparse input.
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    components_ : scipy.sparse.csr_matrix of shape (n_components_, n_features)
    density_ : float
    n_components_ : int
    n_features_in_ : int

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.1.5, Remark 3.1.6.
    D. Achlioptas, "Database-friendly random projections", J. Comput. Syst. Sci. 66, 2003.
    P. Li, T. Hastie, K. Church, "Very sparse random projections", KDD 2006.

    See Also
    --------
    GaussianRandomProjection
    johnson_lindenstrauss_min_dim

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from kernelkit.decomposition import SparseRandomProjection
    >>> X = sp.random(20, 10000, density=0.01, format="csr", random_state=0)
    >>> Y = SparseRandomProjection(n_components=300, random_state=0).fit_transform(X)
    >>> sp.issparse(Y), Y.shape
    (True, (20, 300))
    """

    _parameter_constraints = {
        **_BaseRandomProjection._parameter_constraints,
        "density": [Interval(Real, 0, 1, closed="right"), StrOptions({"auto"})],
        "dense_output": ["boolean"],
    }

    def __init__(self, n_components="auto", *, density="auto", eps=0.1, dense_output=False,
                 random_state=None):
        self.n_components = n_components
        self.density = density
        self.eps = eps
        self.dense_output = dense_output
        self.random_state = random_state

    def _draw_bytes(self, n_components, n_features):
        # an index and a value per non-zero, and a row pointer
        s = 1.0 / np.sqrt(n_features) if self.density == "auto" else float(self.density)
        return n_components * (16.0 * s * n_features + 8.0)

    def _draw(self, n_components, n_features, random_state):
        s = 1.0 / np.sqrt(n_features) if self.density == "auto" else float(self.density)
        self.density_ = s
        # Non-zeros per row ~ Binomial(n_features, s), positions without replacement.
        indices, indptr = [], [0]
        for _ in range(n_components):
            nnz = random_state.binomial(n_features, s)
            indices.append(np.sort(random_state.choice(n_features, nnz, replace=False)))
            indptr.append(indptr[-1] + nnz)
        indices = np.concatenate(indices) if indices else np.empty(0, dtype=np.intp)
        signs = random_state.choice([-1.0, 1.0], size=indices.size)
        data = signs / np.sqrt(s * n_components)
        return sp.csr_matrix((data, indices, np.asarray(indptr)), shape=(n_components, n_features))

    def _dense_output(self, X):
        return self.dense_output or not sp.issparse(X)
