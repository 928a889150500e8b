"""Class-wise Gaussian statistics shared by the discriminant classifiers (Sangnier,
*Introduction to machine learning*, §1.1.1: maximum-likelihood and unbiased estimators)."""

import warnings

import numpy as np
from sklearn.utils.validation import validate_data

from kernelkit.utils._validation import check_class_labels, check_distance_scale

__all__ = ["ClassStatistics", "inverse_and_logdet", "validated_statistics"]


def validated_statistics(estimator, X, y):
    """``(X, ClassStatistics)`` of a classifier's training data, validated (finite features of
    a safe scale, class labels, at least two samples)."""
    X, y = validate_data(estimator, X, y, dtype=np.float64, ensure_min_samples=2)
    check_class_labels(y)
    check_distance_scale(X)
    return X, ClassStatistics(X, y, estimator.priors, type(estimator).__name__)


class ClassStatistics:
    """Labels, priors, means and centred rows of a labelled sample.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), validated
    y : ndarray of shape (n_samples,), validated class labels
    priors : array-like of shape (n_classes,) or None
        Given class probabilities; None: the class proportions.
    estimator : str
        Name of the estimator, for error messages.
    """

    def __init__(self, X, y, priors, estimator):
        self.classes, y_index = np.unique(y, return_inverse=True)
        n_classes = self.classes.size
        if n_classes < 2:
            raise ValueError(f"{estimator} needs at least two classes; got {n_classes} class.")
        self.counts = np.bincount(y_index, minlength=n_classes)
        self.y_index = y_index
        if priors is None:
            self.priors = self.counts / y.shape[0]
        else:
            priors = np.asarray(priors, dtype=np.float64)
            if priors.shape != (n_classes,):
                raise ValueError(f"priors has shape {priors.shape}; expected ({n_classes},), one "
                                 "probability per class.")
            if np.any(priors <= 0) or not np.isclose(priors.sum(), 1.0):
                raise ValueError("priors must be positive and sum to 1.")
            self.priors = priors
        # rows grouped by class once: each class's rows are then a contiguous view
        order = np.argsort(y_index, kind="stable")
        self._bounds = np.r_[0, np.cumsum(self.counts)]
        grouped = X[order]
        self.means = np.add.reduceat(grouped, self._bounds[:-1], axis=0) / self.counts[:, None] \
            if X.shape[1] else np.zeros((n_classes, 0))
        grouped -= np.repeat(self.means, self.counts, axis=0)
        # centred rows, grouped by class (class 0's rows first)
        self.centred = grouped

    def class_rows(self, k):
        """Centred rows of class ``k`` (a view)."""
        return self.centred[self._bounds[k]:self._bounds[k + 1]]

    def within_scatter(self):
        """``Σ_k Σ_{i: y_i = k} (x_i − μ_k)(x_i − μ_k)ᵀ``."""
        return self.centred.T @ self.centred


def inverse_and_logdet(covariance, what, tol=None):
    """Pseudo-inverse and log pseudo-determinant of a symmetric p.s.d. ``covariance``, and its
    rank; a rank deficit (constant or collinear features) warns, naming ``what``."""
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    if tol is None:
        tol = covariance.shape[0] * np.finfo(np.float64).eps * max(eigenvalues.max(), 0.0)
    keep = eigenvalues > tol
    rank = int(keep.sum())
    if rank < covariance.shape[0]:
        warnings.warn(
            f"The {what} is singular (rank {rank} < {covariance.shape[0]} features: constant or "
            "collinear features): its pseudo-inverse is used. Regularise it (shrinkage or "
            "reg_param) or remove the redundant features.", UserWarning, stacklevel=3)
    V = eigenvectors[:, keep]
    inverse = (V / eigenvalues[keep]) @ V.T
    return inverse, float(np.sum(np.log(eigenvalues[keep]))), rank

