"""The transformer API shared by every kernel on structured data (strings, graphs).

``fit(X)`` remembers the training objects, ``transform(Y)`` returns ``K(Y, X_fit)`` of shape
``(n_Y, n_fit)``, ``fit_transform(X)`` returns ``K(X, X)``; so
``make_pipeline(SpectrumKernel(k=3), SVC(kernel="precomputed"))`` works as is, and so does
``SVC(kernel=SpectrumKernel(k=3))`` (see ``kernelkit.utils._kernels``).
"""

import time
from abc import ABCMeta, abstractmethod

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.utils._docstrings import filled_doc
from kernelkit.utils._gram import normalize_gram, normalizing_scale
from kernelkit.utils._progress import Progress, report, report_stage
from kernelkit.utils._sklearn_compat import ParameterNamesOncePerClass, _fit_context
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads
from kernelkit.utils._validation import check_fit_params, check_memory_request, record_fit_params

__all__ = ["ExplicitFeatureMixin", "StructuredKernel", "check_feature_columns", "fill_gram",
           "pairwise_structured_kernel"]

# Progress reports cut a Gram computation into about this many blocks of rows.
_N_PROGRESS_BLOCKS = 20


class StructuredKernel(ParameterNamesOncePerClass, TransformerMixin, BaseEstimator,
                       metaclass=ABCMeta):
    r"""Base class of kernels on structured objects, used as scikit-learn transformers.

    Subclasses declare their parameters in ``__init__`` and ``_parameter_constraints``
    (extending this one: ``normalize``, ``n_jobs``, ``verbose``), and implement three hooks:

    - ``_prepare(X, fitting)`` validates raw input and returns the internal representation
      (e.g. integer-coded sequences, a graph batch); ``fitting`` is True inside ``fit``, so
      vocabularies (alphabets, label maps) are learned there and reused at ``transform``;
    - ``_gram(A, B)`` returns the Gram matrix between two representations; ``B is None`` means
      the symmetric ``K(A, A)``, which a subclass should compute pair by pair only once;
    - ``_self_similarity(A)`` returns ``k(a, a)`` for every object (for ``normalize=True``).

    ``_normalize(K, diag_rows, diag_cols)`` may be overridden (e.g. to work in log space).
    Learned state: ``X_fit_`` (the representation), ``n_samples_fit_``, and ``diag_fit_`` when
    ``normalize`` is true.

    Parameters after ``fit``: those in ``_refit_free_params`` (``normalize``, ``n_jobs``,
    ``verbose``, and e.g. ``log`` or ``algorithm`` in subclasses) are read when the Gram is
    computed, so ``set_params`` may change them on a fitted kernel (the diagonal that
    ``normalize=True`` divides by is then computed on first use). Every other parameter shapes
    the fitted state (alphabet, k-mer spectra, label maps, feature space): after changing one,
    ``transform`` raises NotFittedError naming it until the kernel is refitted.

    Parameters
    ----------
    normalize : bool
        Cosine normalisation :math:`k(x, y) / \sqrt{k(x, x) k(y, y)}`.
    n_jobs : int or None
        Threads of the compiled cores (None: all allowed); results do not depend on it.
    verbose : int
        Progress on stderr.

    Attributes
    ----------
    X_fit_ : object
        The internal representation of the training objects.
    n_samples_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit_,)
        :math:`k(x, x)` of the training objects, when ``normalize``.

    References
    ----------
    .. [1] Mairal & Vert, *Kernel Methods in Machine Learning*, slides "Kernels for strings" and
       "Kernels for graphs" (a kernel is any positive definite function on the objects).
    .. [2] T. Gärtner, "A survey of kernels for structured data", SIGKDD Explorations 5(1), 2003.

    See Also
    --------
    kernelkit.kernels.VectorKernel : The same interface for vectors.
    kernelkit.mkl.SumKernel : A weighted sum of kernel objects.

    Examples
    --------
    A kernel on words counting their common letters, :math:`k(x, y) = |x \cap y|`:

    >>> import numpy as np
    >>> from kernelkit.kernels import StructuredKernel
    >>> class CommonLetters(StructuredKernel):
    ...     def __init__(self, normalize=False, n_jobs=None, verbose=0):
    ...         self.normalize = normalize
    ...         self.n_jobs = n_jobs
    ...         self.verbose = verbose
    ...     def _prepare(self, X, fitting):
    ...         return [set(x) for x in X]
    ...     def _gram(self, A, B=None):
    ...         B = A if B is None else B
    ...         return np.array([[len(a & b) for b in B] for a in A], dtype=float)
    ...     def _self_similarity(self, A):
    ...         return np.array([len(a) for a in A], dtype=float)
    >>> CommonLetters().fit_transform(["abc", "bcd", "xyz"])
    array([[3., 2., 0.],
           [2., 3., 0.],
           [0., 0., 3.]])
    """

    _refit_free_params = frozenset({"normalize", "n_jobs", "verbose"})

    _parameter_constraints: dict = {
        "normalize": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    @abstractmethod
    def _prepare(self, X, fitting):
        """Validate ``X`` and return its internal representation."""

    @abstractmethod
    def _gram(self, A, B=None):
        """``K(A, B)`` as a float64 ndarray; ``K(A, A)`` when ``B`` is None."""

    @abstractmethod
    def _self_similarity(self, A):
        """``k(a, a)`` for every object of ``A``, float64 ndarray."""

    def _normalize(self, K, diag_rows, diag_cols):
        return normalize_gram(K, diag_X=diag_cols, diag_Y=diag_rows)

    def _output(self, K):
        """The Gram matrix in its output form (e.g. out of log space), after normalisation."""
        return K

    def _cover(self, X):
        """Widen the fitted state so that blocks of the objects ``X`` compute their entries
        exactly as one computation over all of them would (e.g. a rescaling threshold set by
        the longest sequence). Nothing to do for most kernels."""

    def _block_diagonal(self, X):
        """``k(x, x)`` of the objects ``X`` with the fitted state: what ``transform(X)``
        divides by under ``normalize`` (log ``k`` for kernels computed in log space)."""
        self._check_fitted()
        return np.asarray(self._self_similarity(self._prepare(X, fitting=False)),
                          dtype=np.float64)

    def _block(self, X, Y=None, diag_X=None, diag_Y=None):
        """One block ``K(X, Y)`` of a bigger Gram matrix, with the fitted state (not refitted).

        Entries equal those of the whole Gram bit for bit when the kernel was fitted on all the
        columns' objects (``transform``) or on all the objects (``fit_transform``), and
        :meth:`_cover` saw the rows' objects: ``Y`` None computes the symmetric block
        ``K(X, X)`` as ``fit_transform`` does; ``diag_X``, ``diag_Y`` are the blocks'
        :meth:`_block_diagonal` (needed under ``normalize``).
        """
        self._check_fitted()
        A = self._prepare(X, fitting=False)
        B = None if Y is None else self._prepare(Y, fitting=False)
        K = self._gram(A, B)
        if self.normalize:
            K = self._normalize(K, np.asarray(diag_X, dtype=np.float64),
                                np.asarray(diag_X if Y is None else diag_Y, dtype=np.float64))
        return self._output(K)

    def _check_fitted(self):
        """NotFittedError if not fitted, or fitted with other values of the parameters the fitted
        state depends on (changed since by ``set_params``)."""
        check_is_fitted(self, "X_fit_")
        check_fit_params(self, getattr(self, "_fit_params", None))

    def _diag_fit(self):
        """``k(x, x)`` of the training objects: computed at ``fit`` under ``normalize``, else
        on first use (``normalize`` switched on after ``fit``), from the same representation
        so with the same values."""
        diag = getattr(self, "diag_fit_", None)
        if diag is None:
            diag = self.diag_fit_ = np.asarray(self._self_similarity(self.X_fit_),
                                               dtype=np.float64)
        return diag

    def _n_threads(self):
        return effective_n_threads(self.n_jobs)

    def _report(self, message, start):
        """Say how long a stage took (``verbose >= 2``, or 1 when it was slow)."""
        report_stage(type(self).__name__, self.verbose, message, start)

    def _report_gram(self, K, start):
        """The one line of a Gram computation at ``verbose >= 1``."""
        if self.verbose:
            report(type(self).__name__, f"Gram matrix {K.shape[0]} x {K.shape[1]}", start)

    def _for_pair(self, X, Y):
        """The kernel to compute ``K(X, Y)`` with (the function forms): fitted on ``Y``, it
        must also accept ``X``. String kernels widen an inferred alphabet to both sets."""
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Remember the training objects ``X``; ``y`` is ignored.

        Returns
        -------
        self : object
        """
        self._fit(X)
        return self

    def _fit(self, X):
        rep = self._prepare(X, fitting=True)
        self._fit_params = record_fit_params(self, self._refit_free_params)
        if hasattr(self, "diag_fit_"):
            del self.diag_fit_  # a previous fit's, whatever normalize is now
        self.X_fit_ = rep
        self.n_samples_fit_ = _length(rep)
        if self.normalize:
            self.diag_fit_ = np.asarray(self._self_similarity(rep), dtype=np.float64)
        return rep

    def transform(self, X):
        """Gram matrix ``K(X, X_fit)``.

        Parameters
        ----------
        X : sequence of objects

        Returns
        -------
        K : ndarray of shape (n_samples, n_samples_fit)
        """
        self._check_fitted()
        start = time.perf_counter()
        rep = self._prepare(X, fitting=False)
        K = self._gram(rep, self.X_fit_)
        if self.normalize:
            K = self._normalize(K, self._self_similarity(rep), self._diag_fit())
        self._report_gram(K, start)
        return K

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        """Fit on ``X`` and return ``K(X, X)``, computing each pair once.

        Returns
        -------
        K : ndarray of shape (n_samples, n_samples)
        """
        start = time.perf_counter()
        rep = self._fit(X)
        K = self._gram(rep, None)
        if self.normalize:
            K = self._normalize(K, self.diag_fit_, self.diag_fit_)
        self._report_gram(K, start)
        return K

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.pairwise = False
        tags.requires_fit = True
        return tags


_TRANSFORM_FEATURES_DOC = r"""Explicit features :math:`\Phi(x)` of the objects ``X`` (sparse).

    %(columns)s

    One rule for every kernel with explicit features: ``transform_features(Y) @
    transform_features(X_fit).T`` is ``transform(Y)`` and, on the fitted objects,
    ``Φ(X_fit) Φ(X_fit)ᵀ`` is ``fit_transform(X_fit)`` (up to rounding), with ``normalize``
    false or true. Under ``normalize`` row ``i`` is divided by :math:`\sqrt{k(x_i, x_i)}`, the
    self-similarity the Gram matrix divides by (features without a column count in it), and a
    row with :math:`k(x_i, x_i) = 0` stays zero, as that object's Gram entries do. A linear
    model on these features is then the kernel machine, at a cost linear in the number of
    objects.

    Parameters
    ----------
    X : sequence of objects
        What ``transform`` takes.

    Returns
    -------
    features : scipy.sparse.csr_array of shape (n_samples, n_features), dtype float64
        Canonical (sorted indices, no duplicates), with int32 indices where they fit (as
        liblinear-style solvers take them), int64 otherwise.
    """


class ExplicitFeatureMixin:
    r"""``transform_features`` for the kernels with a finite feature map,
    :math:`k(x, y) = \langle \Phi(x), \Phi(y) \rangle` (mixed in before the kernel's base).

    Subclasses implement ``_feature_matrix(rep)``, the unnormalised features of a representation
    returned by ``_prepare`` (a scipy.sparse array), and may refuse parameters without explicit
    features, or a feature space too wide to use (:func:`check_feature_columns`), in
    ``_check_feature_space()`` before any work. Normalisation and the output form are done here,
    so every such kernel follows one rule. A subclass describes its columns in
    ``_feature_columns`` (numpydoc text), which becomes part of its ``transform_features``
    docstring.
    """

    _feature_columns = "Columns: one per feature of the kernel's feature map."

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_feature_columns" not in cls.__dict__:
            return

        def transform_features(self, X):
            return ExplicitFeatureMixin.transform_features(self, X)

        transform_features.__doc__ = filled_doc(_TRANSFORM_FEATURES_DOC,
                                                columns=cls.__dict__["_feature_columns"])
        transform_features.__qualname__ = f"{cls.__qualname__}.transform_features"
        transform_features.__module__ = cls.__module__
        cls.transform_features = transform_features

    def _check_feature_space(self):
        """Raise ValueError when these parameters give no usable explicit features."""

    def _feature_matrix(self, rep):
        raise NotImplementedError

    def transform_features(self, X):
        self._check_fitted()
        self._check_feature_space()
        rep = self._prepare(X, fitting=False)
        features = canonical_features(self._feature_matrix(rep))
        if self.normalize:
            scale = normalizing_scale(self._self_similarity(rep))
            features.data *= np.repeat(scale, np.diff(features.indptr))
        return features

    transform_features.__doc__ = filled_doc(_TRANSFORM_FEATURES_DOC, columns=_feature_columns)


def canonical_features(features):
    """A float64 CSR copy of ``features``: sorted indices, duplicates summed, int32 indices
    where the number of entries and of columns allow."""
    out = sp.csr_array(features, dtype=np.float64, copy=True)
    out.sum_duplicates()
    if max(out.nnz, out.shape[1]) <= np.iinfo(np.int32).max:
        out.indices = out.indices.astype(np.int32, copy=False)
        out.indptr = out.indptr.astype(np.int32, copy=False)
    return out


def check_feature_columns(n_columns, what, fix):
    """Refuse, before any feature is built, a feature space too wide to use.

    Whatever uses explicit features touches every column: ``Φ Φᵀ`` and any transpose build a
    pointer array over the columns, a linear model keeps a weight per column (8 bytes each), so
    ``8 (n_columns + 1)`` bytes must fit in memory; beyond ``2^63 - 1`` columns a sparse index
    cannot even hold a column number.

    Parameters
    ----------
    n_columns : int
        Exact number of columns (a Python int, possibly beyond 64 bits).
    what : str
        The features and the parameters that size them, e.g. ``"SpectrumKernel(k=12) features
        over 20 letters (20^12 columns)"``.
    fix : str
        The parameters to change.

    Raises
    ------
    ValueError
    """
    if n_columns > np.iinfo(np.int64).max:
        raise ValueError(
            f"{what}: {_count_text(n_columns)} columns do not fit 64-bit sparse indices; {fix}")
    check_memory_request(8 * (n_columns + 1),
                         f"{what}: {_count_text(n_columns)} columns (Φ Φᵀ, a transpose or a "
                         "linear model holds 8 bytes per column)", fix)


def _count_text(n):
    """An exact count, or about it in scientific notation once it is too long to read."""
    if n < 10**12:
        return str(n)
    return f"about {float(n):.1e}" if n < 10**300 else f"about 10^{len(str(n)) - 1}"


def _length(rep):
    n = getattr(rep, "n_samples", None)
    return int(n) if n is not None else len(rep)


def pairwise_structured_kernel(kernel, X, Y=None):
    """``K(X, Y)`` of shape ``(n_X, n_Y)`` (``K(X, X)`` if Y is None) with the kernel object
    ``kernel``: the function forms (``spectrum_kernel``, ``weisfeiler_lehman_kernel``, ...).

    ``K(X, Y)`` is computed by fitting on ``Y`` and transforming ``X``, which gives the same
    values as the symmetric computation on the union (labels of ``X`` unseen in ``Y`` match
    nothing, as they should).
    """
    if Y is None:
        return kernel.fit_transform(X)
    return kernel._for_pair(X, Y).fit(Y).transform(X)


def _row_blocks(n_rows, n_cols, symmetric, n_blocks):
    """Row boundaries cutting the work (pairs computed) into ``n_blocks`` near-equal blocks."""
    rows = np.arange(n_rows + 1)
    # in the symmetric case row i computes the n − i pairs j ≥ i
    work = rows * n_cols - (rows * (rows - 1)) // 2 if symmetric else rows * n_cols
    targets = np.linspace(0, work[-1], n_blocks + 1)
    bounds = np.unique(np.searchsorted(work, targets))
    bounds[0], bounds[-1] = 0, n_rows
    return bounds


def fill_gram(fill_rows, n_rows, n_cols, symmetric, verbose=0, label="kernel"):
    """Allocate the ``(n_rows, n_cols)`` Gram and fill it with ``fill_rows(out, start, stop)``.

    The compiled pair cores fill any range of rows in parallel (``_core/_pair_gram.pxd``); calling
    them on one range keeps every thread busy, while ``verbose`` calls them on about 20
    successive blocks so that progress can be reported between blocks, at no measurable cost
    for blocks of this size. Lines are paced by time (:class:`~kernelkit.utils._progress.Progress`):
    a Gram matrix computed within a couple of seconds prints none.

    Parameters
    ----------
    fill_rows : callable
        ``fill_rows(out, row_start, row_stop)`` computes rows ``[row_start, row_stop)`` of ``out``
        (and, when ``symmetric``, their mirror images).
    n_rows, n_cols : int
    symmetric : bool
    verbose : int
        When positive, progress on stderr (:class:`kernelkit.utils._progress.Progress`).
    label : str
        Name shown in the progress report.

    Returns
    -------
    out : ndarray of shape (n_rows, n_cols), dtype float64
    """
    out = np.zeros((n_rows, n_cols), dtype=np.float64)
    if not verbose:
        fill_rows(out, 0, n_rows)
        return out
    bounds = _row_blocks(n_rows, n_cols, symmetric, min(n_rows, _N_PROGRESS_BLOCKS))
    with Progress(label, verbose, total=n_rows, unit="rows") as progress:
        for start, stop in zip(bounds[:-1], bounds[1:]):
            fill_rows(out, int(start), int(stop))
            progress.update(int(stop - start))
    return out

