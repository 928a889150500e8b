"""Fisher discriminant analysis, linear and kernel (Sangnier, *Introduction to machine
learning*, §1.1.3 to §1.1.5): directions that maximise the Rayleigh quotient, then a rule on the
projections."""

from numbers import Integral, Real

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
)
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.discriminant_analysis._class_statistics import (
    ClassStatistics,
    SpikedCovariance,
    validated_statistics,
)
from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    kernel_input_tags,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._progress import stage
from kernelkit.utils._ridge import positive_definite_solver
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT
from kernelkit.utils._validation import MAX_INT, check_class_labels

__all__ = ["FisherDiscriminantAnalysis", "KernelFisherDiscriminantAnalysis", "best_threshold"]


def best_threshold(h, positive):
    """Offset ``b`` minimising the training error of ``sign(h + b)`` (``positive``: boolean).

    The error of ``a ↦ (1/n) Σ 1{Y_i ≠ sign(h(X_i) + a)}`` is constant between its steps at
    ``−h(X_i)`` (Sangnier, §1.1.3): the ``m`` distinct projections cut the line into ``m + 1``
    intervals; each is evaluated once (O(n log n)) and the middle of the first best one is taken
    (on a step itself ``sign`` is 0, an error for every sample).
    """
    order = np.argsort(h, kind="stable")
    h_sorted, pos_sorted = h[order], positive[order]
    distinct = np.flatnonzero(np.r_[h_sorted[1:] != h_sorted[:-1], True])  # last of each value
    # threshold t below the (j+1)-th distinct value: samples up to it are predicted negative
    negatives_left = np.r_[0, np.cumsum(~pos_sorted)[distinct]]
    positives_left = np.r_[0, np.cumsum(pos_sorted)[distinct]]
    errors = positives_left + ((~positive).sum() - negatives_left)
    best = int(np.argmin(errors))
    values = h_sorted[distinct]
    if best == 0:
        t = values[0] - 1.0
    elif best == len(values):
        t = values[-1] + 1.0
    else:
        t = 0.5 * (values[best - 1] + values[best])
    return -t


class _FisherRule(ClassifierMixin, ParameterNamesOncePerClass, BaseEstimator):
    """Binary classification from projections ``h(x)``: by the nearest projected class mean or
    by the empirical threshold. Subclasses provide ``_project``."""

    def _fit_rule(self, h, positive):
        self._h_means = np.array([h[~positive].mean(), h[positive].mean()])
        if self.rule == "threshold":
            self.intercept_ = best_threshold(h, positive)
        else:  # the midpoint of the projected means (h is oriented: mean of class 1 larger)
            self.intercept_ = -0.5 * self._h_means.sum()

    def decision_function(self, X):
        """:math:`h(x) + b`: positive for ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or objects for a kernel object

        Returns
        -------
        scores : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self._project(X) + self.intercept_

    def predict(self, X):
        """Class ``classes_[1]`` where :math:`h(x) + b > 0`, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


def _binary_classes(stats, estimator):
    if stats.classes.size != 2:
        raise ValueError(f"Only binary classification is supported by {estimator}; got "
                         f"{stats.classes.size} classes (LinearDiscriminantAnalysis handles "
                         "several).")


class FisherDiscriminantAnalysis(ClassNamePrefixFeaturesOutMixin, TransformerMixin, _FisherRule):
    r"""Fisher's linear discriminant for two classes.

    The direction :math:`w` maximises the Rayleigh quotient

    .. math::

        r(w) = \frac{\pi_1 \pi_0 (w^\top (\mu_1 - \mu_0))^2}{w^\top \Sigma w}

    with :math:`\Sigma = \pi_1 \Sigma_1 + \pi_0 \Sigma_0` (the class covariances by maximum
    likelihood), whose maximisers are the multiples of :math:`\Sigma^{-1} (\mu_1 - \mu_0)`
    (Sangnier, §1.1.3, Proposition 9); a sample is projected to :math:`h(x) = w^\top x`.
    ``rule="nearest_centroid"`` assigns it to the class whose projected mean is closer;
    ``rule="threshold"`` uses the offset :math:`b` of least training error, searched over the
    steps of the error as the course describes. With equal covariances, :math:`w` is the LDA
    direction (Remark 1.1.3).

    Parameters
    ----------
    rule : {"nearest_centroid", "threshold"}, default="nearest_centroid"
    priors : array-like of shape (2,), default=None
        Class probabilities weighting the covariances; None: the class proportions.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (n_features,)
        The direction :math:`w = \Sigma^{-1} (\mu_1 - \mu_0)` (pseudo-inverse, with a warning,
        if :math:`\Sigma` is singular).
    intercept_ : float
        :math:`b`: predict ``classes_[1]`` when :math:`w^\top x + b > 0`.
    means_ : ndarray of shape (2, n_features)
    scalings_ : ndarray of shape (n_features, 1)
        :math:`w / \lVert w \rVert`, the direction of ``transform``.
    xbar_ : ndarray of shape (n_features,)
        Prior-weighted mean :math:`\pi_0 \mu_0 + \pi_1 \mu_1`, subtracted before projecting.
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.1.3: problem (P1), Proposition 9,
       Remark 1.1.3.

    See Also
    --------
    KernelFisherDiscriminantAnalysis : The same rule in a kernel's feature space.
    LinearDiscriminantAnalysis : The Gaussian model with a shared covariance, and its projection.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from kernelkit.discriminant_analysis import FisherDiscriminantAnalysis
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> fda = FisherDiscriminantAnalysis(rule="threshold").fit(X, y)
    >>> round(fda.score(X, y), 2), fda.transform(X).shape
    (0.98, (569, 1))
    """

    _parameter_constraints = {
        "rule": [StrOptions({"nearest_centroid", "threshold"})],
        "priors": ["array-like", None],
    }

    def __init__(self, *, rule="nearest_centroid", priors=None):
        self.rule = rule
        self.priors = priors

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the direction and the rule.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), two classes

        Returns
        -------
        self : FisherDiscriminantAnalysis
        """
        X, stats = validated_statistics(self, X, y)
        _binary_classes(stats, type(self).__name__)
        # Σ = Σ_k π_k R_kᵀR_k / n_k = RᵀR with R the rows of class k scaled by √(π_k / n_k)
        weights = np.sqrt(stats.priors / stats.counts)
        covariance = SpikedCovariance(stats.centred * np.repeat(weights, stats.counts)[:, None],
                                      1.0, 0.0, "within-class covariance")
        self.classes_, self.means_ = stats.classes, stats.means
        self.coef_ = covariance.solve((stats.means[1] - stats.means[0])[None, :])[0]
        self.xbar_ = stats.priors @ stats.means
        norm = np.linalg.norm(self.coef_)
        self.scalings_ = (self.coef_ / norm if norm > 0 else self.coef_)[:, None]
        self._fit_rule(X @ self.coef_, stats.y_index == 1)
        return self

    def _project(self, X):
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_

    def transform(self, X):
        r"""Project on the unit Fisher direction: :math:`(x - \bar x)^\top w / \lVert w \rVert`,
        larger for ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, 1)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return (X - self.xbar_) @ self.scalings_

    @property
    def _n_features_out(self):
        return 1


class KernelFisherDiscriminantAnalysis(ClassNamePrefixFeaturesOutMixin, TransformerMixin,
                                       _FisherRule):
    r"""Kernel Fisher discriminant (Mika et al. 1999; several classes: Baudat & Anouar 2000).

    With :math:`w = \sum_i \alpha_i \varphi(x_i)`, the Rayleigh quotient becomes

    .. math::

        r(\alpha) = \frac{\alpha^\top M \alpha}{\alpha^\top N \alpha}, \qquad
        M = \sum_k \pi_k (v_k - \bar v)(v_k - \bar v)^\top

    where :math:`v_k` is the column mean of the Gram matrix over class :math:`k`,
    :math:`\bar v = \sum_k \pi_k v_k`, and :math:`N = \sum_k \pi_k \Psi_k / n_k + \mu I`,
    :math:`\Psi_k = K_k H K_k^\top` the within-class scatter in feature space (:math:`K_k` the
    Gram columns of class :math:`k`, :math:`H` the centring matrix) (Sangnier, §1.1.4). For two
    classes :math:`M = \pi_0 \pi_1 (v_1 - v_0)(v_1 - v_0)^\top`, so
    :math:`\alpha \propto N^{-1} (v_1 - v_0)` and :math:`h(x) = \sum_i \alpha_i k(x, x_i)`;
    with :math:`C` classes the directions are the :math:`C - 1` leading generalised eigenvectors
    of :math:`M \alpha = \lambda N \alpha`, the multi-class Fisher projection of
    :class:`LinearDiscriminantAnalysis` (§1.1.5) in feature space. The ridge :math:`\mu`
    (``alpha``) is needed: without it the :math:`n \times n` matrix has rank at most
    :math:`n - C` and the system the course writes is singular. Dividing :math:`\Psi_k` by
    :math:`n_k` makes :math:`N` the kernel form of :class:`FisherDiscriminantAnalysis`'s
    :math:`\Sigma`: with a linear kernel and a small ridge, ``transform`` gives the projections of
    :class:`FisherDiscriminantAnalysis` (two classes) and of :class:`LinearDiscriminantAnalysis`
    (several), up to sign. Two classes are classified by the rules of
    :class:`FisherDiscriminantAnalysis`; several by the nearest projected class mean
    (``rule="nearest_centroid"``).

    Parameters
    ----------
    kernel : str, callable, "precomputed" or kernel object, default="rbf"
        A vector kernel name, ``kernel(X, Y) -> Gram``, a precomputed Gram matrix, or a
        kernelkit string or graph kernel such as ``SpectrumKernel(k=3)``.
    alpha : float, default=1e-3
        The ridge :math:`\mu` added to :math:`N`.
    n_components : int, default=None
        Directions kept by ``transform`` and by the multi-class rule (at most
        :math:`C - 1`; None: all of them).
    rule : {"nearest_centroid", "threshold"}, default="nearest_centroid"
        ``"threshold"`` is for two classes.
    gamma, degree, coef0 : float
        Parameters of the vector kernels (``gamma=None``: ``1 / n_features``).
    kernel_params : dict, default=None
        Extra keyword arguments of a callable kernel.
    priors : array-like of shape (n_classes,), default=None
    n_jobs : int, default=None
        Threads for the Gram matrices.
    verbose : int, default=0
        1: a line on stderr per stage of ``fit`` (Gram matrix, within-class matrix, solve),
        with its time.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    dual_coef_ : ndarray of shape (n_samples_fit,)
        Two classes: :math:`\alpha = N^{-1} (v_1 - v_0)`, the direction of
        ``decision_function``. Not set for several classes (see ``dual_scalings_``).
    intercept_ : float
        Two classes: the offset :math:`b` of the rule.
    dual_scalings_ : ndarray of shape (n_samples_fit, n_components)
        The directions of ``transform``, by decreasing quotient, each of unit norm in feature
        space (:math:`a^\top K a = 1`; a direction of zero norm stays zero); for two classes
        :math:`\alpha` rescaled.
    explained_variance_ratio_ : ndarray of shape (n_components,)
        Each direction's share of the eigenvalues of :math:`N^{-1} M`.
    n_features_in_ : int
        For vector input.

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.1.4 and §1.1.5.
    .. [2] S. Mika, G. Rätsch, J. Weston, B. Schölkopf and K.-R. Müller, "Fisher discriminant
       analysis with kernels", Neural Networks for Signal Processing IX (1999).
    .. [3] G. Baudat and F. Anouar, "Generalized discriminant analysis using a kernel
       approach", Neural Computation 12 (2000).

    See Also
    --------
    FisherDiscriminantAnalysis : The linear two-class rule (a linear kernel).
    LinearDiscriminantAnalysis : The linear multi-class projection.
    kernelkit.svm.SVC : A kernel classifier by margin rather than by class scatter.

    Examples
    --------
    >>> from sklearn.datasets import make_circles
    >>> from kernelkit.discriminant_analysis import KernelFisherDiscriminantAnalysis
    >>> X, y = make_circles(200, factor=0.4, noise=0.05, random_state=0)
    >>> kfda = KernelFisherDiscriminantAnalysis(kernel="rbf", gamma=2.0).fit(X, y)
    >>> kfda.score(X, y), kfda.transform(X).shape
    (1.0, (200, 1))
    """

    _parameter_constraints = {
        "kernel": KERNEL_CONSTRAINT,
        "alpha": [Interval(Real, 0, None, closed="left")],
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "rule": [StrOptions({"nearest_centroid", "threshold"})],
        "gamma": [Interval(Real, 0, None, closed="left"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "kernel_params": [dict, None],
        "priors": ["array-like", None],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, kernel="rbf", *, alpha=1e-3, n_components=None, rule="nearest_centroid",
                 gamma=None, degree=3, coef0=1.0, kernel_params=None, priors=None, n_jobs=None,
                 verbose=0):
        self.kernel = kernel
        self.alpha = alpha
        self.n_components = n_components
        self.rule = rule
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.priors = priors
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        r"""Fit the directions and the rule.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), (n_samples, n_samples) Gram matrix, or
            sequence of objects for a kernel object
        y : array-like of shape (n_samples,), at least two classes

        Returns
        -------
        self : KernelFisherDiscriminantAnalysis
        """
        X, y = validate_kernel_data(self, X, y, ensure_min_samples=2)
        check_class_labels(y)
        label, n = type(self).__name__, len(y)
        stats = ClassStatistics(np.zeros((n, 0)), y, self.priors, label)
        n_classes = stats.classes.size
        if n_classes > 2 and self.rule == "threshold":
            raise ValueError(f"rule='threshold' is a two-class rule; got {n_classes} classes: "
                             "use rule='nearest_centroid'.")
        if self.n_components is not None and self.n_components > n_classes - 1:
            raise ValueError(f"n_components={self.n_components} is larger than n_classes - 1 = "
                             f"{n_classes - 1}.")
        with stage(label, self.verbose, f"Gram matrix {n} x {n}"):
            self._kernel = resolve_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                                          coef0=self.coef0, kernel_params=self.kernel_params,
                                          n_jobs=self.n_jobs)
            K = self._kernel.training_gram()
        # overflow of the products of kernel values is refused by name just below
        with stage(label, self.verbose, "within-class matrix"), np.errstate(over="ignore",
                                                                           invalid="ignore"):
            N = self.alpha * np.eye(n)
            v = np.empty((n_classes, n))
            for k in range(n_classes):
                columns = K[:, stats.y_index == k]
                v[k] = columns.mean(axis=1)
                N += stats.priors[k] * (columns @ columns.T / stats.counts[k]
                                        - np.outer(v[k], v[k]))
        self._kernel.check_finite(N, "entries of the within-class matrix")
        self.classes_ = stats.classes
        with stage(label, self.verbose, "Cholesky solve"):
            solve = positive_definite_solver(
                N, f"The within-class matrix N with alpha={self.alpha}",
                advice=" (N has rank at most n - C without the ridge): use a positive alpha.")
            if n_classes == 2:
                self.dual_coef_ = solve(v[1] - v[0])
                self._kernel.check_finite(self.dual_coef_, "dual coefficients")
                h = K @ self.dual_coef_
                self._fit_rule(h, stats.y_index == 1)
                directions, ratios = self.dual_coef_[:, None], np.ones(1)
                squared_norms = np.array([self.dual_coef_ @ h])
            else:
                directions, ratios = _leading_directions(solve, v, stats.priors,
                                                         self.n_components)
                self._kernel.check_finite(directions, "dual coefficients")
                squared_norms = np.einsum("ij,ij->j", directions, K @ directions)
        norms = np.sqrt(np.maximum(squared_norms, 0.0))
        # a direction of zero discriminant power (equal class means) may vanish: keep it zero
        self.dual_scalings_ = directions / np.where(norms > 0, norms, 1.0)
        self.explained_variance_ratio_ = ratios
        self._xbar_projected = stats.priors @ v @ self.dual_scalings_
        self._projected_means = v @ self.dual_scalings_ - self._xbar_projected
        if n_classes > 2:  # orient each direction: classes_[0] on its negative side
            signs = np.where(self._projected_means[0] > 0, -1.0, 1.0)
            self.dual_scalings_ *= signs
            self._xbar_projected *= signs
            self._projected_means *= signs
        return self

    def _project(self, X):
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=len(self.dual_scalings_))
        return self._kernel.cross(X) @ self.dual_coef_

    def transform(self, X):
        r"""Project on the discriminant directions: :math:`\sum_i a_i k(x, x_i)` minus its
        prior-weighted mean over the classes, for each column :math:`a` of ``dual_scalings_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), (n_samples, n_samples_fit) Gram matrix,
            or sequence of objects for a kernel object

        Returns
        -------
        X_new : ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self)
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=len(self.dual_scalings_))
        return self._kernel.cross(X) @ self.dual_scalings_ - self._xbar_projected

    def decision_function(self, X):
        r"""Two classes: :math:`h(x) + b`, positive for ``classes_[1]``. Several classes:
        :math:`-\frac12 \lVert z - m_k \rVert^2` per class, :math:`z` the projection of
        :math:`x` and :math:`m_k` the projected class means.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix, or objects for a kernel
            object

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        check_is_fitted(self)
        if self.classes_.size == 2:
            return super().decision_function(X)
        z = self.transform(X)
        return -0.5 * ((z[:, None, :] - self._projected_means[None]) ** 2).sum(axis=2)

    def predict(self, X):
        """The class of largest ``decision_function`` (two classes: its sign)."""
        check_is_fitted(self)
        if self.classes_.size == 2:
            return super().predict(X)
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]

    @property
    def _n_features_out(self):
        return self.dual_scalings_.shape[1]

    def __sklearn_tags__(self):
        tags = kernel_input_tags(super().__sklearn_tags__(), self.kernel)
        tags.classifier_tags.multi_class = True
        return tags


def _leading_directions(solve, v, priors, n_components):
    """The leading generalised eigenvectors of ``M a = λ N a`` and their shares of the
    eigenvalues.

    With ``M = DᵀΠD`` (``D`` the rows ``v_k − v̄``, ``Π = diag(π)``), every eigenvector of
    positive eigenvalue is ``N⁻¹ DᵀΠ^½ u`` for an eigenpair ``(λ, u)`` of the C × C matrix
    ``Π^½ D N⁻¹ Dᵀ Π^½``, as in :class:`LinearDiscriminantAnalysis`: one solve with C
    right-hand sides, no n × n eigendecomposition.
    """
    deviations = v - priors @ v
    roots = np.sqrt(priors)
    solved = solve(deviations.T)                                   # N⁻¹ Dᵀ
    values, vectors = np.linalg.eigh(roots[:, None] * (deviations @ solved) * roots)
    values = np.maximum(values, 0.0)
    order = np.argsort(values)[::-1][:(n_components or len(values) - 1)]
    total = values.sum()
    ratios = values[order] / total if total > 0 else np.zeros(order.size)
    return solved @ (roots[:, None] * vectors[:, order]), ratios
