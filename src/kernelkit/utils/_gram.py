"""Operations on Gram matrices shared by every kernel method (Mairal & Vert, "Kernel tricks"
slides).

Centring, cosine normalisation, the positive-definiteness test and the eigenvalue shift (public
through :mod:`kernelkit.kernels`), and the validation of a precomputed Gram matrix that every
estimator with ``kernel="precomputed"`` runs.

Tolerance policy (one for the whole library): a Gram matrix ``K`` is compared with its mirror and
its eigenvalues with zero up to ``δ = GRAM_RTOL · max(1, Σ_i |K_ii|)`` — absolute errors of
kernel values scale with their size, and the trace bounds every eigenvalue. Symmetry is the
same test for every estimator given a precomputed Gram or affinity matrix, whatever else it
checks (:func:`is_symmetric_gram`).

Training Gram policy (:func:`check_precomputed_gram` for a Gram matrix, :func:`check_gram_range`
and the same function on a sample of rows for a vector kernel), run before any solver:

1. values are finite;
2. scale: no value beyond ``max double / (4 n)``, where the solvers' sums over the ``n`` samples
   would overflow;
3. dynamic range: the median of the non-zero ``|K_ii|`` is at least ``ε² · max |K_ij|`` (``ε``
   the float64 machine epsilon). Row ``i`` can hold values up to ``sqrt(K_ii max K)``
   (Cauchy–Schwarz), so below that most samples' self-similarities are under the rounding error
   of their own rows' sums, and a solve is rounding noise (``exp(γ x·y)`` with a large ``γ``
   spans 1 to 1e300);
4. definiteness, by the solver: a solver that assumes a p.s.d. kernel and diverges otherwise
   (dual coordinate descent, a Cholesky factorisation, kernel Fisher analysis) requires that
   ``K + δI`` has a Cholesky factor (``psd="auto"``, ``"full"``); SMO bounds every step by the
   curvature of the pair it updates (libsvm's clipping of ``K_ii + K_jj − 2K_ij``), so it checks
   the small Grams only (``"fast"``); kernel PCA and Nystroem accept indefinite similarities
   (``False``). Above ``PSD_CHECK_MAX_SAMPLES`` samples, ``"auto"`` factorises an evenly
   spaced principal submatrix of that size: a principal submatrix of a p.s.d. matrix is p.s.d.,
   so a failure proves the matrix indefinite, at a fixed cost.
"""

import contextlib
import functools

import numpy as np
import scipy.sparse as sp
from scipy.linalg import LinAlgError, cholesky, eigvalsh
from sklearn.utils.validation import check_array
from threadpoolctl import ThreadpoolController

from kernelkit._core._gram import (
    GRAM_ASYMMETRIC,
    GRAM_BAD_MINOR,
    GRAM_NEGATIVE_DIAGONAL,
    GRAM_NON_FINITE,
    check_gram,
)

__all__ = [
    "FAST_CHECK_MAX_SAMPLES",
    "GRAM_RTOL",
    "PSD_CHECK_MAX_SAMPLES",
    "blas_controller",
    "blas_limit",
    "center_gram",
    "check_gram_range",
    "check_precomputed_gram",
    "definiteness_sample",
    "gram_tolerance",
    "is_positive_definite",
    "is_symmetric_gram",
    "kernel_distances",
    "normalize_gram",
    "normalizing_scale",
    "shift_to_psd",
]

GRAM_RTOL = 1e-8
# psd="auto": up to this size a precomputed Gram is checked to be p.s.d. by a Cholesky
# factorisation; above, the O(n³) check would cost as much as most fits: O(n²) necessary
# conditions are checked (a non-negative diagonal, symmetry, every 2×2 principal minor), and the
# Cholesky factorisation of a principal submatrix of this many evenly spaced samples.
PSD_CHECK_MAX_SAMPLES = 1000
# psd="fast": the whole check up to this size, where it costs under 0.1 ms (measured: Cholesky
# 0.08 ms and the O(n²) scan 0.01 ms at n = 128 on one core of the benchmark machine; 0.3 and
# 0.05 ms at n = 300, 12 and 2.4 ms at n = 1000); above, a non-negative diagonal only, for
# solvers that test the curvature K_ii + K_jj − 2K_ij of every pair they use (SMO).
FAST_CHECK_MAX_SAMPLES = 128


@functools.cache
def blas_controller():
    """A shared ``threadpoolctl.ThreadpoolController`` (inspecting the BLAS libraries costs
    milliseconds, so it is built once)."""
    return ThreadpoolController()


@contextlib.contextmanager
def blas_limit(n_threads):
    """A context running the BLAS libraries on ``n_threads`` threads, restoring their thread
    counts on exit.

    ``threadpoolctl``'s own ``limit`` inspects every library on entry (23–46 µs measured, as
    long as a small BLAS call); this sets and restores the counts of the BLAS controllers found
    once by :func:`blas_controller` (a few µs), and only those that differ.
    """
    changed = []
    for library in blas_controller().lib_controllers:
        if library.user_api == "blas":
            previous = library.get_num_threads()
            if previous != n_threads:
                library.set_num_threads(n_threads)
                changed.append((library, previous))
    try:
        yield
    finally:
        for library, previous in changed:
            library.set_num_threads(previous)


def gram_tolerance(K, rtol=GRAM_RTOL):
    """``rtol · max(1, Σ_i |K_ii|)``: the absolute tolerance of the Gram checks (``K`` dense or
    sparse)."""
    return rtol * max(1.0, float(np.abs(K.diagonal()).sum()))


def is_symmetric_gram(K, atol=None, n_threads=1):
    r"""Whether ``K`` is symmetric up to the library's tolerance.

    The one symmetry rule of every precomputed Gram or affinity matrix (SVMs, kernel ridge and
    logistic regression, kernel PCA, kernel Fisher analysis, nearest neighbours and centroids in
    a kernel's feature space, Nystroem, MKL, spectral clustering and embedding), at any size:

    .. math::

        |K_{ij} - K_{ji}| \le 10^{-8} |K_{ij}| + \delta \quad \text{for all } i < j, \qquad
        \delta = 10^{-8} \max(1, \textstyle\sum_i |K_{ii}|)

    (``GRAM_RTOL`` and :func:`gram_tolerance`): a relative term for the rounding of large
    entries, and an absolute one on the scale of the whole matrix, where the solvers' errors
    are. A dense matrix is scanned by the compiled ``kernelkit._core._gram.check_gram`` (the
    same test, tile by tile, no n × n temporary).

    Parameters
    ----------
    K : ndarray or scipy.sparse matrix of shape (n_samples, n_samples)
        Square, float64 and finite; a dense one C-contiguous.
    atol : float, default=None
        ``δ`` when the caller has it; None computes it from ``K``.
    n_threads : int, default=1
        OpenMP threads of the dense scan.

    Returns
    -------
    symmetric : bool
    """
    if atol is None:
        atol = gram_tolerance(K)
    if sp.issparse(K):
        excess = (abs(K - K.T) - GRAM_RTOL * abs(K)).tocoo()
        return not excess.nnz or bool(excess.data.max() <= atol)
    return not check_gram(K, atol, n_threads) & GRAM_ASYMMETRIC


def check_precomputed_gram(K, *, n_samples=None, psd="auto", n_threads=1,
                           name="Precomputed Gram matrix", finite=False, ridge=0.0):
    """Validate a training Gram matrix given with ``kernel="precomputed"``.

    Checks that ``K`` is a finite, square float matrix (``(n_samples, n_samples)`` when
    ``n_samples`` is given) whose values neither overflow nor span a meaningless range
    (:func:`check_gram_range`) and that it is symmetric (:func:`is_symmetric_gram`: the same
    rule for every estimator and every ``psd``), then, by ``psd``:

    * ``"auto"``: a non-negative diagonal and ``|K_ij| ≤ sqrt(K_ii K_jj)`` (necessary conditions
      for positive semi-definiteness, O(n²)), and a Cholesky factorisation of ``K + δI`` (of an
      evenly spaced principal submatrix of ``PSD_CHECK_MAX_SAMPLES`` samples above that size);
    * ``"full"``: the same with the Cholesky factorisation at any size;
    * ``"fast"``: all of it up to ``FAST_CHECK_MAX_SAMPLES`` samples, only a non-negative
      diagonal above — for solvers that test the 2×2 minors they use themselves (SMO);
    * ``False``: symmetry only (kernel PCA accepts indefinite similarities and reports their
      negative eigenvalues).

    The conditions are tested in that order, finiteness first; finiteness, symmetry and the
    O(n²) conditions in one compiled pass over the matrix (``kernelkit._core._gram.check_gram``,
    ``n_threads`` OpenMP threads). With ``ridge > 0`` the definiteness conditions are those of
    ``K + ridge·I``, the matrix a regularised solver factorises (kernel ridge, the squared-hinge
    SVM's dual), so an indefinite similarity whose negative eigenvalues the regularisation
    outweighs is accepted.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
    n_samples : int, default=None
        Expected number of samples (e.g. the length of ``y``).
    psd : {"auto", "full", "fast"} or False, default="auto"
    n_threads : int, default=1
    name : str
        How the matrix is called in error messages.
    finite : bool or callable, default=False
        True: ``K`` is already a finite float64 C-contiguous ndarray (validated by the caller):
        skip the conversion and the finiteness test. A callable: ``K`` is a float64
        C-contiguous ndarray not yet tested for finiteness; a NaN or infinite entry calls it to
        raise the caller's own error (an estimator's, as scikit-learn words it) instead of the
        default ``ValueError`` naming ``name``.
    ridge : float, default=0.0
        Diagonal shift added by the solver before it relies on definiteness.

    Returns
    -------
    K : ndarray of shape (n_samples, n_samples), float64, C-contiguous

    Raises
    ------
    ValueError
        Naming the condition that fails.
    """
    def non_finite():
        if callable(finite):
            finite()   # the caller's own error
        raise ValueError(f"{name} has NaN or infinite values.")

    untested = finite is not True
    if not (finite is True and isinstance(K, np.ndarray) and K.dtype == np.float64
            and K.ndim == 2 and K.flags.c_contiguous):
        if not callable(finite):
            K = check_array(K, dtype=np.float64, order="C", ensure_all_finite=False,
                            input_name="X")
        untested = True
    if untested and (not psd or ridge):
        # these paths test the range before the scan, or scan K + ridge·I: finiteness first
        if not np.isfinite(K).all():
            non_finite()
        untested = False

    def refuse(message):
        # an untested K is refused for a NaN or infinite value before anything else
        if untested and not np.isfinite(K).all():
            non_finite()
        raise ValueError(message)

    if K.shape[0] != K.shape[1]:
        refuse(f"{name} should be square, got shape {K.shape}; with kernel=\"precomputed\", X "
               "must be the (n_samples, n_samples) training Gram matrix.")
    if n_samples is not None and K.shape[0] != n_samples:
        refuse(f"{name} has {K.shape[0]} rows but y has {n_samples} samples.")
    atol = gram_tolerance(K)
    if not psd:
        _check_gram_scale(K, name)
        if not is_symmetric_gram(K, atol, n_threads):
            raise ValueError(f"{name} is not symmetric, so it is not a valid kernel.")
        return K
    shifted = K
    if ridge:
        # the Cholesky test below adds atol back: K + ridge·I itself must be positive definite
        # (the regularised solvers diverge along a null direction)
        shifted = K.copy()
        shifted.flat[::K.shape[0] + 1] += ridge - atol
    # the scan's symmetry test is is_symmetric_gram's (the diagonal shift does not enter it)
    flags = check_gram(shifted, atol, n_threads)
    if untested and flags & GRAM_NON_FINITE:
        non_finite()
    if not flags & ~GRAM_NON_FINITE and shifted is K and K.size:
        # the range check, which comes first, needs max |K_ij|: the scan has shown that
        # |K_ij| <= (1 + 1e-8) sqrt(K_ii K_jj) + atol, so the diagonal bounds it, and the two
        # passes over the matrix (max and min) are saved
        diagonal = np.diagonal(K)
        check_gram_range((1.0 + 1e-8) * float(diagonal.max()) + atol, diagonal, K.shape[0],
                         name)
    else:
        _check_gram_scale(K, name)
    if flags & GRAM_NEGATIVE_DIAGONAL:
        raise ValueError(
            f"{name} has negative diagonal entries k(x, x) < 0: it is not positive "
            "semi-definite."
        )
    if flags & GRAM_ASYMMETRIC:
        raise ValueError(f"{name} is not symmetric, so it is not a valid kernel.")
    if psd == "fast" and K.shape[0] > FAST_CHECK_MAX_SAMPLES:
        return K   # the solver tests the 2×2 minors it reads; no factorisation at this size
    if flags & GRAM_BAD_MINOR:
        raise ValueError(
            f"{name} violates |K_ij| <= sqrt(K_ii K_jj): it is not positive semi-definite."
        )
    sample = definiteness_sample(K.shape[0], psd)
    _check_cholesky(shifted if sample is None else shifted[np.ix_(sample, sample)], atol, name)
    return K


def definiteness_sample(n_samples, psd):
    """The samples whose principal submatrix the definiteness test factorises: None (all of
    them) for ``psd="full"`` or up to ``PSD_CHECK_MAX_SAMPLES``, else that many evenly spaced
    indices (deterministic, so a fit does not depend on a random draw)."""
    if psd == "full" or n_samples <= PSD_CHECK_MAX_SAMPLES:
        return None
    return np.linspace(0, n_samples - 1, PSD_CHECK_MAX_SAMPLES).round().astype(np.intp)


def _check_cholesky(K, atol, name):
    """A ValueError naming ``name`` unless ``K + atol·I`` has a Cholesky factor, i.e. unless the
    smallest eigenvalue of ``K`` is at least ``−atol`` (up to rounding)."""
    try:
        # One BLAS thread: at this size threading gains little and stalls on a busy machine.
        with blas_limit(1):
            cholesky(K + atol * np.eye(K.shape[0]), lower=True, check_finite=False)
    except LinAlgError:
        raise ValueError(
            f"{name} is not positive semi-definite (it has a negative eigenvalue below -{atol:.3g},"
            " beyond rounding); this estimator needs a p.d. kernel (its solver would diverge, or "
            "its kernel distances be undefined). Use a positive definite kernel or other kernel "
            "parameters (kernelkit.kernels.shift_to_psd can repair an indefinite Gram matrix)."
        ) from None


def check_gram_range(largest, diagonal, n_samples, name):
    """Refuse a Gram matrix whose values overflow the solvers' sums or span a range that makes
    a solve meaningless (points 2 and 3 of the module's policy).

    Parameters
    ----------
    largest : float
        ``max |K_ij|`` (for a p.s.d. kernel, ``max_i K_ii`` by Cauchy–Schwarz).
    diagonal : ndarray of shape (n_samples,)
        ``K_ii``.
    n_samples : int
    name : str
        How the matrix is called in error messages (the kernel and its parameters).

    Raises
    ------
    ValueError
        When ``largest > max double / (4 n_samples)``, or when the median of the non-zero
        ``|K_ii|`` is below ``ε² · largest``.
    """
    limit = np.finfo(np.float64).max / (4.0 * max(n_samples, 1))
    if largest > limit:
        raise ValueError(f"{name} has values up to {largest:.3g}, beyond {limit:.3g}: sums over "
                         f"its {n_samples} samples would overflow float64. Rescale the kernel "
                         "(or its parameters, e.g. a smaller gamma or degree).")
    magnitudes = np.abs(diagonal[diagonal != 0])
    if magnitudes.size == 0:
        return
    typical = float(np.median(magnitudes))
    if typical < np.finfo(np.float64).eps ** 2 * largest:
        raise ValueError(
            f"{name} spans values from {typical:.3g} (median |k(x, x)|) to {largest:.3g}: most "
            "samples' self-similarities are below the rounding error of their kernel rows, so a "
            "solve on it is rounding noise. Rescale X or use a smaller gamma or degree."
        )


def _check_gram_scale(K, name):
    """:func:`check_gram_range` on a whole Gram matrix."""
    if K.size == 0:
        return
    largest = max(float(K.max()), -float(K.min()))
    check_gram_range(largest, np.diagonal(K), K.shape[0], name)


def _check_gram(K, name="K"):
    return check_array(K, dtype=np.float64, ensure_all_finite=True, input_name=name)


def center_gram(K, K_fit=None):
    r"""Centre a Gram matrix in feature space.

    :math:`K_c = (I - \mathbf 1 \mathbf 1^\top / n) K (I - \mathbf 1 \mathbf 1^\top / n)` for the
    training Gram (Mairal & Vert, kernel PCA "centering"); for a test block
    :math:`K(Y, X_\mathrm{fit})` the training feature mean is subtracted instead:
    :math:`K_c = K - \mathbf 1_m \bar k^\top - \bar k_Y \mathbf 1^\top + \bar{\bar k}` with
    :math:`\bar k` the column means of ``K_fit``.

    Parameters
    ----------
    K : array-like of shape (n_samples_Y, n_samples_fit)
        Gram matrix to centre. Square and symmetric when ``K_fit`` is None.
    K_fit : array-like of shape (n_samples_fit, n_samples_fit), default=None
        Training Gram matrix; when given, ``K`` is a test block ``K(Y, X_fit)``.

    Returns
    -------
    K_centered : ndarray of shape (n_samples_Y, n_samples_fit)

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import center_gram
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> center_gram(X @ X.T)
    array([[ 1.,  0., -1.],
           [ 0.,  0.,  0.],
           [-1.,  0.,  1.]])
    """
    K = _check_gram(K)
    if K_fit is None:
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"K must be square to be centred on itself, got shape {K.shape}.")
        row_mean = K.mean(axis=0)
        # In place after the first subtraction: one n×n allocation, same operation order.
        K_centered = K - row_mean[None, :]
        K_centered -= K.mean(axis=1)[:, None]
        K_centered += row_mean.mean()
        return K_centered
    K_fit = _check_gram(K_fit, "K_fit")
    if K_fit.shape[0] != K_fit.shape[1] or K.shape[1] != K_fit.shape[0]:
        raise ValueError(
            f"K has shape {K.shape} but K_fit has shape {K_fit.shape}: expected K of shape "
            f"(n_samples_Y, {K_fit.shape[0]}) and a square K_fit."
        )
    fit_mean = K_fit.mean(axis=0)
    K_centered = K - fit_mean[None, :]
    K_centered -= K.mean(axis=1)[:, None]
    K_centered += fit_mean.mean()
    return K_centered


def normalize_gram(K, diag_X=None, diag_Y=None):
    r"""Cosine normalisation :math:`K_{ij} / \sqrt{k(y_i, y_i) k(x_j, x_j)}`.

    The normalised kernel is again positive definite and has unit diagonal (Mairal & Vert, "kernel
    normalisation"). Rows (or columns) whose self-similarity is zero are left at zero.

    Parameters
    ----------
    K : array-like of shape (n_samples_Y, n_samples_X)
    diag_X : array-like of shape (n_samples_X,), default=None
        Self-similarities of the column objects; defaults to ``diag(K)`` (square K).
    diag_Y : array-like of shape (n_samples_Y,), default=None
        Self-similarities of the row objects; defaults to ``diag_X`` when K is square and
        ``diag_Y`` is not given.

    Returns
    -------
    K_normalized : ndarray of shape (n_samples_Y, n_samples_X)

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import normalize_gram
    >>> normalize_gram(np.array([[4.0, 2.0], [2.0, 9.0]]))
    array([[1.        , 0.33333333],
           [0.33333333, 1.        ]])
    """
    K = _check_gram(K)
    diag_X, diag_Y = _self_similarities(K, diag_X, diag_Y)
    # one outer product, so a symmetric K stays exactly symmetric
    return K * (normalizing_scale(diag_Y)[:, None] * normalizing_scale(diag_X)[None, :])


def normalizing_scale(self_similarity):
    r"""The factor :math:`1 / \sqrt{k(x, x)}` that cosine normalisation scales each object's
    row (of a Gram or of explicit features) by, and 0 where :math:`k(x, x) = 0`: the object is
    then orthogonal to everything and stays so.

    Parameters
    ----------
    self_similarity : array-like of shape (n_samples,)

    Returns
    -------
    scale : ndarray of shape (n_samples,), dtype float64
    """
    self_similarity = np.asarray(self_similarity, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.where(self_similarity > 0, 1.0 / np.sqrt(self_similarity), 0.0)


def _self_similarities(K, diag_X, diag_Y):
    """Validated ``(k(x_j, x_j))_j`` of the columns and ``(k(y_i, y_i))_i`` of the rows of K."""
    if diag_X is None:
        if K.shape[0] != K.shape[1]:
            raise ValueError("diag_X is required when K is not square.")
        diag_X = np.diag(K)
    diag_X = np.asarray(diag_X, dtype=np.float64)
    diag_Y = diag_X if diag_Y is None else np.asarray(diag_Y, dtype=np.float64)
    if diag_X.shape != (K.shape[1],) or diag_Y.shape != (K.shape[0],):
        raise ValueError(
            f"diagonals of shapes {diag_Y.shape} and {diag_X.shape} do not match K of shape "
            f"{K.shape}."
        )
    if np.any(diag_X < 0) or np.any(diag_Y < 0):
        raise ValueError("self-similarities k(x, x) must be non-negative for a p.d. kernel.")
    return diag_X, diag_Y


def kernel_distances(K, diag_X=None, diag_Y=None):
    r"""Distances in the feature space of a kernel (Mairal & Vert, "kernel distance"):

    .. math::

        d(y_i, x_j) = \|\varphi(y_i) - \varphi(x_j)\|
        = \sqrt{k(y_i, y_i) + k(x_j, x_j) - 2 k(y_i, x_j)}.

    Any kernel — on vectors, strings or graphs — thereby gives a metric for distance-based
    methods such as ``KMedoids(metric="precomputed")`` or ``DBSCAN(metric="precomputed")``.
    Rounding can make a squared distance slightly negative: it is clamped to 0; a square ``K``
    gives an exactly symmetric matrix with a zero diagonal.

    Parameters
    ----------
    K : array-like of shape (n_samples_Y, n_samples_X)
    diag_X, diag_Y : array-like, default=None
        Self-similarities of the column and row objects, as in :func:`normalize_gram`.

    Returns
    -------
    distances : ndarray of shape (n_samples_Y, n_samples_X)

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import kernel_distances, linear_kernel
    >>> X = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> kernel_distances(linear_kernel(X))
    array([[0., 5.],
           [5., 0.]])
    """
    K = _check_gram(K)
    diag_X, diag_Y = _self_similarities(K, diag_X, diag_Y)
    squared = diag_Y[:, None] + diag_X[None, :] - 2.0 * K
    np.maximum(squared, 0.0, out=squared)
    if K.shape[0] == K.shape[1] and diag_Y is diag_X:
        squared = (squared + squared.T) / 2
        np.fill_diagonal(squared, 0.0)
    return np.sqrt(squared, out=squared)


def is_positive_definite(K, tol=1e-8):
    r"""Whether a symmetric Gram matrix is positive semi-definite up to ``tol``.

    True when ``K`` is symmetric and its smallest eigenvalue is at least :math:`-\delta`, with
    :math:`\delta = \mathrm{tol} \cdot \max(1, \sum_i |K_{ii}|)` (:func:`gram_tolerance`; Mairal &
    Vert, definition of a p.d. kernel: :math:`\sum_{ij} a_i a_j K_{ij} \ge 0`).

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
    tol : float, default=1e-8

    Returns
    -------
    bool

    Examples
    --------
    >>> from kernelkit.kernels import is_positive_definite
    >>> is_positive_definite([[1.0, 0.5], [0.5, 1.0]])
    True
    >>> is_positive_definite([[1.0, 2.0], [2.0, 1.0]])
    False
    """
    K = _check_gram(K)
    if K.shape[0] != K.shape[1]:
        return False
    atol = gram_tolerance(K, tol)
    if not np.allclose(K, K.T, rtol=tol, atol=atol):
        return False
    if K.shape[0] == 0:
        return True
    return bool(eigvalsh(K, subset_by_index=[0, 0])[0] >= -atol)


def shift_to_psd(K, tol=0.0):
    r"""Add :math:`s I` to a symmetric matrix so that its smallest eigenvalue is at least ``tol``.

    :math:`s = \max(0, \mathrm{tol} - \lambda_{\min}(K))`. This is how Saigo et al. (2004) use the
    log local alignment kernel, which is not positive definite. Only the training Gram is shifted:
    the shift amounts to giving every training object a private feature, so test blocks ``K(Y,
    X_fit)`` are used unchanged.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Symmetric matrix.
    tol : float, default=0.0
        Smallest eigenvalue wanted after the shift.

    Returns
    -------
    K_shifted : ndarray of shape (n_samples, n_samples)
    shift : float
        The ``s`` added to the diagonal (0.0 when K already qualifies).

    Examples
    --------
    >>> from kernelkit.kernels import shift_to_psd
    >>> K_shifted, shift = shift_to_psd([[1.0, 2.0], [2.0, 1.0]])
    >>> shift
    1.0
    >>> K_shifted
    array([[2., 2.],
           [2., 2.]])
    """
    K = check_array(K, dtype=np.float64, ensure_all_finite=True, input_name="K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be square, got shape {K.shape}.")
    if not np.allclose(K, K.T):
        raise ValueError("K must be symmetric for an eigenvalue shift.")
    smallest = float(eigvalsh(K, subset_by_index=[0, 0])[0])
    shift = max(0.0, tol - smallest)
    return K + shift * np.eye(K.shape[0]), shift
