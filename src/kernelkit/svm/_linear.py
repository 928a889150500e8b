"""The linear SVM on dense or sparse features, trained by liblinear's dual coordinate descent
(compiled solver ``kernelkit._core._linear_dual_cd``, twin
:func:`kernelkit.reference.linear_dual_cd_solve`) or by its trust-region Newton method on the
primal (:mod:`kernelkit.svm._linear_primal`)."""

import time
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit._core._linear_dual_cd import linear_dual_cd_solve
from kernelkit.svm._linear_primal import primal_dual_variables, squared_hinge_primal_solve
from kernelkit.utils._progress import iteration_callback, model_name, report
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _check_sample_weight,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, blas_threads, effective_n_threads
from kernelkit.utils._validation import (
    MAX_INT,
    check_class_labels,
    check_memory_request,
    check_sparse_input,
)

__all__ = ["LinearSVC"]


class LinearSVC(ClassifierMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Linear support vector classifier trained as liblinear does: dual coordinate descent, or
    a trust-region Newton method on the primal.

    For labels :math:`y_i = \pm 1` and a per-sample cost :math:`C_i` (``C`` times the class
    weight times the sample weight), the primal problem is

    .. math::

        \min_w f(w) = \frac12 \|w\|^2 + \sum_i C_i \, \xi(w; x_i, y_i), \qquad
        \xi = \max(0, 1 - y_i w^\top x_i) \text{ (hinge) or its square (squared hinge)},

    and its dual

    .. math::

        \min_{0 \le \alpha_i \le U_i} \frac12 \alpha^\top (Q + D) \alpha - \mathbf 1^\top \alpha,
        \qquad Q_{ij} = y_i y_j x_i^\top x_j,

    with :math:`U_i = C_i`, :math:`D = 0` for the hinge and :math:`U_i = \infty`,
    :math:`D_{ii} = 1/(2C_i)` for the squared hinge [1]_; at the optimum
    :math:`w = \sum_i y_i \alpha_i x_i`. Two solvers, chosen by ``dual``:

    - ``dual=True``: coordinate descent minimises the dual exactly in one :math:`\alpha_i` at a
      time while keeping :math:`w = \sum_i y_i \alpha_i x_i`, so each step costs the number of
      non-zeros of the row :math:`x_i`. Each epoch visits the variables in a random order;
      variables stuck at a bound leave the epochs (shrinking) and come back for a final check;
      the solve stops when the spread of the projected gradients, :math:`\max PG - \min PG`, is
      at most ``tol`` (liblinear's ``solve_l2r_l1l2_svc`` [2]_). Fast when the features
      outnumber the samples or the data are nearly separable (few support vectors); on noisy
      data with many more samples than features it can need thousands of epochs.
    - ``dual=False`` (squared hinge only: the hinge has no gradient): the trust-region Newton
      method of liblinear's ``L2R_L2LOSS_SVC`` [3]_. Each step minimises the quadratic model
      of :math:`f` within a trust region by conjugate gradients, with the Hessian of the active
      set :math:`I = \{i : y_i w^\top x_i < 1\}` reached through products,
      :math:`\nabla^2 f(w)\, v = v + 2 X_I^\top C_I X_I v` (the generalised Hessian: the squared
      hinge is once differentiable only [4]_). A handful of steps, each costing tens of
      products with the data, whatever the noise; it stops when
      :math:`\|\nabla f(w)\| \le \epsilon \|\nabla f(0)\|`,
      :math:`\epsilon = \mathrm{tol} \cdot \max(\min(n_+, n_-), 1) / n` (liblinear's rule;
      :math:`n_\pm` the samples of each label of the problem). ``alpha_`` is then the dual
      solution that :math:`w` determines, :math:`\alpha_i = 2 C_i \max(0, 1 - y_i w^\top x_i)`.
    - ``dual="auto"`` (default): scikit-learn's rule, the primal when ``n_samples >=
      n_features`` and the loss is the squared hinge, the dual otherwise.

    Both minimise the same :math:`f` and agree up to their tolerances; the dual is
    scikit-learn's ``LinearSVC(dual=True)`` (same problem and stopping rule; the random order
    differs) and the primal its ``LinearSVC(dual=False)`` (the same steps). CSR input is read in
    place, never densified.

    The intercept is liblinear's: a constant feature of value ``intercept_scaling`` is appended
    to every sample, and its weight is regularised with the others
    (``intercept_ = intercept_scaling * w[-1]``); raise ``intercept_scaling`` to weaken that
    penalty. Several classes are handled one-vs-rest, one problem per class; as in liblinear,
    the class weight of a problem's positive class scales its positive samples and the rest
    keep ``C``.

    Parameters
    ----------
    C : float, default=1.0
        Cost of the losses (inverse regularisation strength), > 0.
    loss : {"squared_hinge", "hinge"}, default="squared_hinge"
    dual : "auto" or bool, default="auto"
        The solver: dual coordinate descent (True), the primal trust-region Newton method
        (False, squared hinge only), or ``"auto"``: the primal when ``n_samples >= n_features``
        and ``loss="squared_hinge"``, else the dual (scikit-learn's rule).
    tol : float, default=1e-4
        Dual: stop when :math:`\max PG - \min PG \le` ``tol`` over all variables in one
        epoch. Primal: stop when :math:`\|\nabla f(w)\| \le \epsilon \|\nabla f(0)\|`,
        :math:`\epsilon` = ``tol`` times the smaller label's share of the samples (at least
        one sample's).
    max_iter : int, default=1000
        Maximum number of epochs (dual) or Newton steps (primal) per problem; stopping there
        warns (``ConvergenceWarning``).
    fit_intercept : bool, default=True
    intercept_scaling : float, default=1.0
        Value of the constant feature that carries the intercept, > 0.
    class_weight : dict, "balanced" or None, default=None
        Multiplies ``C`` for the samples of each class (``"balanced"``:
        ``n_samples / (n_classes * bincount(y))``).
    random_state : int, RandomState instance or None, default=None
        Seeds the random order of the variables in each epoch of the dual solver (the primal
        solver is deterministic).
    verbose : int, default=0
        Progress on stderr: 1, a line per fit (epochs or Newton steps of each problem, time),
        and for the primal lines every two seconds during a long solve; 2, a line per Newton
        step.
    n_jobs : int, default=None
        Dual: threads over the one-vs-rest problems. Primal: BLAS threads of the products with
        the data (one thread below 10⁸ operations a product). Results do not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        Weights, positive towards ``classes_[1]`` for two classes.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        ``intercept_scaling`` times the weight of the constant feature (0 without intercept).
    alpha_ : ndarray of shape (n_problems, n_samples)
        The dual variables of each problem (one problem for two classes); from the primal
        solver, the dual solution its weights determine.
    n_iter_ : int
        Largest number of epochs (dual) or Newton steps (primal) over the problems.
    n_features_in_ : int

    See Also
    --------
    kernelkit.svm.SVC : kernel SVM (SMO); with ``kernel="linear"`` the same hinge model with an
        unregularised intercept.
    kernelkit.svm.SquaredHingeSVC : the squared-hinge kernel SVM without intercept.
    kernelkit.reference.linear_dual_cd_solve : the dual solver's pure-Python twin.

    References
    ----------
    .. [1] C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan, "A dual
       coordinate descent method for large-scale linear SVM", ICML 2008.
    .. [2] R.-E. Fan, K.-W. Chang, C.-J. Hsieh, X.-R. Wang, C.-J. Lin, "LIBLINEAR: a library for
       large linear classification", JMLR 9, 2008.
    .. [3] C.-J. Lin, R. C. Weng, S. S. Keerthi, "Trust region Newton method for large-scale
       logistic regression", JMLR 9, 2008 (§5: the L2-loss SVM).
    .. [4] O. L. Mangasarian, "A finite Newton method for classification", Optimization Methods
       and Software 17, 2002.

    Examples
    --------
    On sparse features (read in place):

    >>> import scipy.sparse as sp
    >>> from sklearn.datasets import make_classification
    >>> from kernelkit.svm import LinearSVC
    >>> X, y = make_classification(n_samples=300, n_features=40, random_state=0)
    >>> X = sp.csr_matrix(X * (X > 0.5))
    >>> clf = LinearSVC(C=0.1, random_state=0).fit(X, y)
    >>> clf.coef_.shape, clf.intercept_.shape
    ((1, 40), (1,))
    >>> round(float(clf.score(X, y)), 3)
    0.937

    Noisy labels and many more samples than features: ``dual="auto"`` takes the primal, which
    needs a few Newton steps where coordinate descent needs hundreds of epochs, for the same
    weights:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(1000, 20)), rng.integers(0, 2, 1000)
    >>> primal = LinearSVC().fit(X, y)
    >>> dual = LinearSVC(dual=True, random_state=0).fit(X, y)
    >>> primal.n_iter_, dual.n_iter_
    (3, 858)
    >>> bool(np.allclose(primal.coef_, dual.coef_, atol=1e-4))
    True
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "loss": [StrOptions({"squared_hinge", "hinge"})],
        "dual": ["boolean", StrOptions({"auto"})],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0.0, None, closed="neither")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, C=1.0, *, loss="squared_hinge", dual="auto", tol=1e-4, max_iter=1000,
                 fit_intercept=True, intercept_scaling=1.0, class_weight=None,
                 random_state=None, verbose=0, n_jobs=None):
        self.C = C
        self.loss = loss
        self.dual = dual
        self.tol = tol
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.verbose = verbose
        self.n_jobs = n_jobs

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit one linear SVM (two classes) or one per class against the rest.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features; a CSR matrix is read in place (other sparse formats are converted to CSR).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights multiplying each sample's ``C`` (as liblinear); a sample of
            weight 0 takes no part.

        Returns
        -------
        self : LinearSVC
        """
        # the solver's ‖x_i‖² sums the squares of the stored entries: repeated ones merged
        X = check_sparse_input(X, canonical=True)
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, order="C",
                             accept_large_sparse=True)
        check_class_labels(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"LinearSVC needs samples of at least two classes; y has one class "
                             f"({self.classes_[0]!r}).")
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                             ensure_non_negative=True)
        n_classes = self.classes_.size
        class_weight = self._class_weight(codes, sample_weight)
        if n_classes == 2:
            positives = [codes == 1]
            # two classes: one problem, each sample with its own class's weight
            costs = [class_weight[codes]]
        else:
            positives = [codes == k for k in range(n_classes)]
            # one-vs-rest as liblinear: the positive class's weight, C for the rest
            costs = [np.where(codes == k, class_weight[k], 1.0) for k in range(n_classes)]
        n_problems = len(positives)
        n_samples, n_features = X.shape
        dual = self._resolve_dual(n_samples, n_features)
        # the primal copies the active rows of X once per Newton step
        data_bytes = 0 if dual else (X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
                                     if sp.issparse(X) else X.nbytes)
        check_memory_request(data_bytes + 8.0 * n_problems * (3 * n_samples + n_features),
                             f"LinearSVC(dual={dual}) on {n_samples} samples x {n_features} "
                             f"features, {n_problems} problems", "use fewer samples or classes.")
        labels = np.where(np.array(positives), 1.0, -1.0)
        cost = self.C * np.array(costs) * sample_weight
        bias = float(self.intercept_scaling) if self.fit_intercept else 0.0
        start = time.perf_counter()
        if dual:
            w, alpha, n_iter, converged = self._solve_dual(X, labels, cost, bias)
        else:
            w, alpha, n_iter, converged = self._solve_primal(X, labels, cost, bias)
        if self.verbose:
            unit = "epochs" if dual else "Newton steps"
            report("LinearSVC", f"{n_problems} problems on {n_samples} samples: {unit} "
                   f"{n_iter.tolist()}", start)
        if not np.all(converged):
            stop = ("epochs with a projected-gradient spread above" if dual else
                    "Newton steps with a gradient norm above the relative")
            warnings.warn(f"{'Dual coordinate descent' if dual else 'Trust-region Newton'} "
                          f"stopped after max_iter={self.max_iter} {stop} tol={self.tol}; "
                          "increase max_iter, lower C or scale the features.",
                          ConvergenceWarning, stacklevel=3)
        self.coef_ = w[:, :n_features]
        self.intercept_ = bias * w[:, n_features]
        self.alpha_ = alpha
        self.n_iter_ = int(n_iter.max())
        return self

    def _resolve_dual(self, n_samples, n_features):
        """The solver: ``dual`` as given, or scikit-learn's rule for ``"auto"`` (the primal when
        the samples are at least as many as the features and the loss has a primal solver)."""
        if self.dual == "auto":
            return self.loss == "hinge" or n_samples < n_features
        if not self.dual and self.loss == "hinge":
            raise ValueError("LinearSVC(dual=False) solves the primal of the squared hinge only "
                             "(the hinge is not differentiable, liblinear has no primal solver "
                             "for it): pass loss='squared_hinge', or dual=True or 'auto' for "
                             "loss='hinge'.")
        return bool(self.dual)

    def _solve_dual(self, X, labels, cost, bias):
        """Dual coordinate descent (compiled): ``(w, alpha, n_iter, converged)``."""
        n_problems, n_samples = labels.shape
        seeds = check_random_state(self.random_state).randint(
            0, np.iinfo(np.int64).max, size=n_problems).astype(np.uint64)
        w = np.zeros((n_problems, X.shape[1] + 1))
        alpha = np.zeros((n_problems, n_samples))
        n_iter = np.zeros(n_problems, dtype=np.int64)
        status = np.zeros(n_problems, dtype=np.intc)
        rows = (X.data, X.indices, X.indptr) if sp.issparse(X) else X
        linear_dual_cd_solve(
            {"X": rows, "n_features": X.shape[1], "y": labels, "cost": cost,
             "squared_hinge": self.loss == "squared_hinge", "bias": bias},
            {"tol": float(self.tol), "max_iter": int(self.max_iter), "seeds": seeds,
             "n_threads": effective_n_threads(self.n_jobs)},
            w, alpha, n_iter, status)
        return w, alpha, n_iter, status == 0

    def _solve_primal(self, X, labels, cost, bias):
        """Trust-region Newton on the primal: ``(w, alpha, n_iter, converged)``, ``alpha``
        recovered from ``w`` by the optimality conditions."""
        def progress(p):
            name = model_name(self.classes_, p)
            return iteration_callback(
                "LinearSVC", self.verbose, 1,
                lambda n_iter, f, norm: f"{name}: Newton step {n_iter}, objective {f:.10g}, "
                                        f"gradient norm {norm:.3g}", unit="Newton steps")
        nnz = X.nnz if sp.issparse(X) else X.size
        # the products with the rows: one BLAS thread while small; an overflow is caught below
        # (a trial step where f overflows is rejected, a gradient that does is an error)
        with (blas_threads(2.0 * nnz, effective_n_threads(self.n_jobs)),
              np.errstate(over="ignore", invalid="ignore")):
            try:
                w, n_iter, converged = squared_hinge_primal_solve(
                    X, labels, cost, bias, float(self.tol), int(self.max_iter), progress)
            except FloatingPointError as error:
                largest = abs(X.data if sp.issparse(X) else X).max(initial=0.0)
                raise ValueError(
                    f"LinearSVC's primal solver (dual=False, or 'auto' with n_samples >= "
                    f"n_features) cannot solve the problem in float64: {error} "
                    f"(largest |feature| {largest:.3g}, intercept_scaling="
                    f"{self.intercept_scaling!r}, largest C times weight {cost.max():.3g}). "
                    "Scale the features (e.g. StandardScaler), lower intercept_scaling or C."
                ) from None
            alpha = primal_dual_variables(X, labels, cost, bias, w)
        return w, alpha, n_iter, converged

    def _class_weight(self, codes, sample_weight):
        """The factor of ``C`` of each class."""
        n_classes = self.classes_.size
        if self.class_weight is None:
            return np.ones(n_classes)
        if isinstance(self.class_weight, dict):
            unknown = set(self.class_weight) - set(self.classes_.tolist())
            if unknown:
                raise ValueError(f"class_weight names classes not in y: {sorted(unknown)!r}; "
                                 f"the classes are {self.classes_.tolist()!r}.")
            return np.array([float(self.class_weight.get(c, 1.0)) for c in self.classes_.tolist()])
        # "balanced": total weight over n_classes times each class's weight
        totals = np.bincount(codes, weights=sample_weight, minlength=n_classes)
        if np.any(totals <= 0):
            missing = self.classes_[np.flatnonzero(totals <= 0)[0]].tolist()
            raise ValueError(f"class_weight='balanced' needs a sample of positive weight in "
                             f"every class; class {missing!r} has none.")
        return totals.sum() / (n_classes * totals)

    def decision_function(self, X):
        r""":math:`w^\top x + b`: shape (n_samples,) for two classes (positive towards
        ``classes_[1]``), else (n_samples, n_classes), one-vs-rest scores.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray
        """
        check_is_fitted(self)
        X = validate_data(self, check_sparse_input(X), reset=False, accept_sparse="csr",
                          dtype=np.float64, accept_large_sparse=True)
        scores = safe_sparse_dot(X, self.coef_.T, dense_output=True) + self.intercept_
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """Class of each sample: sign of the score (two classes) or the largest score.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
