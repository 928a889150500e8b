"""The transformer API shared by every kernel on structured data (strings, graphs).

``fit(X)`` remembers the training objects, ``transform(Y)`` returns ``K(Y, X_fit)`` of shape
``(n_Y, n_fit)``, ``fit_transform(X)`` returns ``K(X, X)``; so
``make_pipeline(SpectrumKernel(k=3), SVC(kernel="precomputed"))`` works as is.
"""

from abc import abstractmethod

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.utils._gram import normalize_gram

__all__ = ["StructuredKernel"]


class StructuredKernel(TransformerMixin, BaseEstimator):
    """Base class of kernels on structured objects, used as scikit-learn transformers.

    Subclasses declare their parameters in ``__init__`` (including ``normalize``, ``n_jobs``,
    ``verbose``) and implement three hooks:

    - ``_prepare(X, fitting)`` validates raw input and returns the internal representation
      (e.g. integer-coded sequences, a graph batch); ``fitting`` is True inside ``fit``, so
      vocabularies (alphabets, label maps) are learned there and reused at ``transform``;
    - ``_gram(A, B)`` returns the Gram matrix between two representations; ``B is None`` means
      the symmetric ``K(A, A)``, which a subclass should compute pair by pair only once;
    - ``_self_similarity(A)`` returns ``k(a, a)`` for every object (for ``normalize=True``).

    ``_normalize(K, diag_rows, diag_cols)`` may be overridden (e.g. to work in log space).
    Learned state: ``X_fit_`` (the representation), ``n_samples_fit_``, and ``diag_fit_`` when
    ``normalize`` is true.
    """

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
        self.X_fit_ = rep
        self.n_samples_fit_ = _length(rep)
        if getattr(self, "normalize", False):
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
        check_is_fitted(self, "X_fit_")
        rep = self._prepare(X, fitting=False)
        K = self._gram(rep, self.X_fit_)
        if getattr(self, "normalize", False):
            K = self._normalize(K, self._self_similarity(rep), self.diag_fit_)
        return K

    def fit_transform(self, X, y=None):
        """Fit on ``X`` and return ``K(X, X)``, computing each pair once.

        Returns
        -------
        K : ndarray of shape (n_samples, n_samples)
        """
        rep = self._fit(X)
        K = self._gram(rep, None)
        if getattr(self, "normalize", False):
            K = self._normalize(K, self.diag_fit_, self.diag_fit_)
        return K

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.pairwise = False
        tags.requires_fit = True
        return tags


def _length(rep):
    n = getattr(rep, "n_samples", None)
    return int(n) if n is not None else len(rep)
