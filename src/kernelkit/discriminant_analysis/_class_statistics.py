"""Class-wise Gaussian statistics shared by the discriminant classifiers (Sangnier,
*Introduction to machine learning*, §1.1.1: maximum-likelihood and unbiased estimators)."""

import warnings

import numpy as np

from kernelkit.utils._validation import (
    check_class_labels,
    validate_distance_data,
    warn_long_factorisation,
)

__all__ = ["ClassStatistics", "SpikedCovariance", "validated_statistics"]


def validated_statistics(estimator, X, y):
    """``(X, ClassStatistics)`` of a classifier's training data, validated (finite features of
    a safe scale, class labels, at least two samples)."""
    X, y = validate_distance_data(estimator, X, y, dtype=np.float64, ensure_min_samples=2)
    check_class_labels(y)
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


class SpikedCovariance:
    """A symmetric p.s.d. ``Σ = (1 − α) RᵀR / m + c I`` (``c = α tr(RᵀR / m) / d``: shrinkage
    towards the mean eigenvalue) known by its spectrum, ``Σ = V diag(λ) Vᵀ + c (I − VVᵀ)``.

    With fewer rows than features, ``V`` (d × n_rows) comes from the thin SVD of ``R`` (rank
    ``< d``: ``c`` is the eigenvalue of the complement of ``V``'s span), so the cost is
    O(n_rows² d) instead of the O(d³) eigendecomposition of the d × d matrix; otherwise ``V``
    holds all the eigenvectors of ``Σ``.

    Parameters
    ----------
    rows : ndarray of shape (n_rows, n_features)
    divisor : float
        ``m``.
    shrinkage : float in [0, 1]
        ``α``.
    what : str
        What the matrix is, for the warning on a singular one.
    """

    def __init__(self, rows, divisor, shrinkage, what):
        n_rows, d = rows.shape
        warn_long_factorisation(4.0 * n_rows * d * min(n_rows, d),
                                f"The {what} of {n_rows} samples x {d} features",
                                "reduce the number of features first (PCA, feature selection).")
        if n_rows < d:
            _, singular_values, vt = np.linalg.svd(rows, full_matrices=False)
            eigenvalues, self.eigenvectors = singular_values**2 / divisor, vt.T
        else:
            eigenvalues, self.eigenvectors = np.linalg.eigh(rows.T @ rows / divisor)
        self.complement = d - eigenvalues.size            # dimension of the complement of V
        self.floor = shrinkage * np.sum(eigenvalues) / d if d else 0.0
        self.eigenvalues = (1 - shrinkage) * eigenvalues + self.floor
        largest = max(self.eigenvalues.max(initial=0.0),
                      self.floor if self.complement else 0.0)
        tol = d * np.finfo(np.float64).eps * largest
        self.keep = self.eigenvalues > tol
        self.keep_complement = bool(self.complement) and self.floor > tol
        self.rank = int(self.keep.sum()) + self.complement * self.keep_complement
        if self.rank < d:
            warnings.warn(
                f"The {what} is singular (rank {self.rank} < {d} features: constant or collinear "
                "features, or fewer samples than features): its pseudo-inverse is used. "
                "Regularise it (shrinkage or reg_param) or remove the redundant features.",
                UserWarning, stacklevel=3)

    def solve(self, B):
        """``B Σ⁺`` for rows ``B`` of shape (k, d): ``Σ⁺`` inverts the eigenvalues above
        ``d · eps · λ_max`` and ignores the others (pseudo-inverse)."""
        V = self.eigenvectors
        coordinates = B @ V
        result = (coordinates[:, self.keep] / self.eigenvalues[self.keep]) @ V[:, self.keep].T
        if self.keep_complement:
            result += (B - coordinates @ V.T) / self.floor
        return result

    def matrix(self):
        """``Σ`` as a dense d × d array."""
        V = self.eigenvectors
        dense = (V * (self.eigenvalues - self.floor)) @ V.T
        dense.flat[::V.shape[0] + 1] += self.floor
        return dense
