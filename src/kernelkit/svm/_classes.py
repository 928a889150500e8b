"""Support vector classification and regression trained by SMO (kernelkit._core._smo_solver)."""

from itertools import combinations
from numbers import Real

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from kernelkit.svm._base import BaseSMO
from kernelkit.svm._platt import couple_pairwise_probabilities, fit_sigmoid, sigmoid_probability
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._one_vs_one import pack_dual_coef
from kernelkit.utils._sklearn_compat import Interval, StrOptions, _ovr_decision_function
from kernelkit.utils._validation import check_class_labels

# Folds of the internal cross-validation that fits Platt's sigmoids (LIBSVM's choice).
_PLATT_FOLDS = 5
# The signs of a pair's two classes (LIBSVM's convention: the first class is +1).
_SIGNS = np.array([1.0, -1.0])

_COMMON_PARAMETERS = """C : float, default=1.0
        Box constraint :math:`0 \\le \\alpha_i \\le C_i` of the dual,
        :math:`C_i = C \\times \\text{class weight} \\times \\text{sample weight}`; larger C fits
        the training data more closely. Must be positive.
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "exponential", "min", \
"sinc", "precomputed"}, callable or kernel object, default="rbf"
        :math:`x \\cdot x'`, :math:`(\\gamma x \\cdot x' + \\mathrm{coef0})^\\mathrm{degree}`,
        :math:`\\exp(-\\gamma \\|x - x'\\|^2)`,
        :math:`\\tanh(\\gamma x \\cdot x' + \\mathrm{coef0})`,
        :math:`\\exp(-\\gamma \\|x - x'\\|_1)`, :math:`x \\cdot x' / (\\|x\\| \\|x'\\|)`,
        :math:`\\exp(\\gamma x \\cdot x')`, :math:`\\sum_k \\min(x_k, x'_k)`,
        :math:`\\prod_k \\sin(\\gamma (x_k - x'_k)) / (\\pi (x_k - x'_k))` (see
        :func:`kernelkit.kernels.pairwise_kernels`);
        ``"precomputed"``: ``X`` is the Gram matrix
        (``(n_samples, n_samples)`` in ``fit``; at prediction ``(n_samples_test,
        n_samples_train)``, or only the columns of the support vectors, ``(n_samples_test,
        n_SV)`` in the order of ``support_``); a callable ``kernel(X, Y)`` returns the Gram
        matrix and is evaluated once in Python, the solver then reads it as precomputed; a
        kernel object such as :class:`kernelkit.kernels.SpectrumKernel` is cloned and fitted on
        the training objects (strings, graphs), and ``X`` is then a sequence of such objects.
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : {"scale", "auto"} or float, default="scale"
        :math:`\\gamma` of the rbf/poly/sigmoid kernels: ``1 / (n_features × X.var())``,
        ``1 / n_features``, or the given non-negative value.
    coef0 : float, default=0.0
        Constant of the poly and sigmoid kernels.
    tol : float, default=1e-3
        Stop when the maximal violating pair gap
        :math:`\\max_{t \\in I_\\text{up}} -y_t G_t - \\min_{t \\in I_\\text{low}} -y_t G_t`
        (the KKT violation of Sangnier, Property 40) is below ``tol``.
    cache_size : float, default=200
        Kernel-row cache in MiB (rows are kept in double precision).
    shrinking : bool, default=True
        Whether to shrink the active set (with a final check on all variables).
    max_iter : int, default=-1
        Maximum number of SMO steps per dual problem; -1 means no limit other than a guard of
        ``max(10⁷, 100 × n_variables)`` steps. Stopping early issues a ``ConvergenceWarning``.
    verbose : int, default=0
        Progress on stderr. 1: one line per dual problem solved (steps, objective, support
        vectors, time), and while a problem takes more than a couple of seconds a line every
        two seconds (steps, violating pair gap, active set); 2: such a line every 10 000 steps.
    warm_start : bool, default=False
        Start each dual problem from the previous fit's solution when the problem has the same
        samples, labels and bounds — e.g. refitting on a new Gram matrix of the same training
        set, as multiple kernel learning does. The optimum is the same as from a cold start.
    validate_gram : {"fast", "auto", "full"}, default="fast"
        How a training Gram matrix (precomputed, callable or kernel object) is checked to be
        positive semi-definite before solving. "fast": completely up to 128 samples (well under
        a millisecond); above, a non-negative diagonal, while the solver tests
        :math:`K_{ii} + K_{jj} - 2 K_{ij} \\ge 0` on every pair it considers (free: it computes
        them anyway)
        and stops with a ValueError on a violation. "auto": symmetry and every 2×2 minor
        (O(n²)) and a Cholesky factorisation, above 1000 samples of the principal submatrix of
        1000 evenly spaced samples. "full": all of it at any size (O(n³)). A vector kernel's
        Gram is not tested (SMO stays bounded on an indefinite kernel such as the sigmoid, as
        libsvm); its diagonal is checked for a range that would make the solve meaningless."""

_COMMON_REFERENCES = """.. [1] Sangnier, *Introduction to machine learning*: §1.4.6 (dual
       (P11) — printed with :math:`+\\tfrac12 \\alpha^\\top Q \\alpha`, a sign typo: the dual
       maximises :math:`-\\tfrac12 \\alpha^\\top Q \\alpha + \\mathbf 1^\\top \\alpha`),
       Algorithm 4 (SMO), Property 40 (KKT); §1.5.3 (ε-SVR, dual (P16)).
    .. [2] Mairal & Vert, *Kernel Methods in Machine Learning*: soft-margin SVM, duality,
       hinge loss.
    .. [3] J. Platt, "Sequential minimal optimization: a fast algorithm for training support
       vector machines", 1998.
    .. [4] R.-E. Fan, P.-H. Chen, C.-J. Lin, "Working set selection using second order
       information for training SVM", JMLR 6, 2005.
    .. [5] C.-C. Chang, C.-J. Lin, "LIBSVM: a library for support vector machines", ACM TIST,
       2011.
    .. [6] J. Platt, "Probabilistic outputs for support vector machines", 1999; H.-T. Lin,
       C.-J. Lin, R. Weng, "A note on Platt's probabilistic outputs for support vector
       machines", Machine Learning 68, 2007.
    .. [7] T.-F. Wu, C.-J. Lin, R. Weng, "Probability estimates for multi-class classification
       by pairwise coupling", JMLR 5, 2004."""



@fill_doc(common_parameters=_COMMON_PARAMETERS, references=_COMMON_REFERENCES)
class SVC(ClassifierMixin, BaseSMO):
    r"""C-support vector classification, trained by SMO with second-order working sets.

    Solves the dual

    .. math::

        \min_\alpha \tfrac12 \alpha^\top Q \alpha - \mathbf 1^\top \alpha
        \quad \text{s.t.} \quad y^\top \alpha = 0, \quad 0 \le \alpha_i \le C_i,

    with :math:`Q_{ij} = y_i y_j k(x_i, x_j)` [1]_, by sequential minimal optimisation [3]_ with the
    working-set selection of Fan, Chen & Lin [4]_, shrinking, and a double-precision LRU cache of
    kernel rows (long rows are computed in parallel; a precomputed Gram is read in place).
    Multiclass problems are split one-vs-one, as in LIBSVM [5]_ and scikit-learn. The decision
    function is :math:`f(x) = \sum_i \alpha_i y_i k(x_i, x) + b`.

    With ``probability=True``, each one-vs-one decision value is mapped to a probability by
    Platt's sigmoid, fitted on decision values of an internal 5-fold cross-validation (shuffled
    by ``random_state``) [6]_, and the pairwise probabilities are coupled into class
    probabilities [7]_, as LIBSVM does. As in scikit-learn, :meth:`predict_proba` may then
    disagree with :meth:`predict` on samples near the boundary (they come from different
    models), and fitting costs about six times as much.

    Parameters
    ----------
    %(common_parameters)s
    class_weight : dict or "balanced", default=None
        Multiplies ``C`` for the samples of each class; "balanced" uses
        ``n_samples / (n_classes × bincount(y))``.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of :meth:`decision_function` for more than two classes: the one-vs-one values
        ``(n_samples, n_classes (n_classes − 1) / 2)``, or their aggregation into one-vs-rest
        scores ``(n_samples, n_classes)`` (scikit-learn's rule: votes plus a bounded confidence).
        Prediction always uses one-vs-one votes.
    probability : bool, default=False
        Whether to fit Platt's sigmoids, enabling :meth:`predict_proba`.
    random_state : None, int or RandomState, default=None
        Shuffles the internal cross-validation folds of ``probability=True`` (the solver itself
        is deterministic).
    n_jobs : int, default=None
        OpenMP threads for the kernel rows long enough to be worth splitting (about 10⁶
        ``n_samples × n_features``) and for the Gram checks; None uses every thread the runtime
        allows. Results do not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
        Multipliers of ``C`` per class.
    support_ : ndarray of shape (n_SV,), int32
        Indices of the support vectors (:math:`\alpha_i > 0` in some one-vs-one problem), grouped by
        class in the order of ``classes_``, increasing within a class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Their rows of ``X`` (empty for ``kernel="precomputed"``).
    n_support_ : ndarray of shape (n_classes,), int32
        Number of support vectors per class.
    dual_coef_ : ndarray of shape (n_classes − 1, n_SV)
        :math:`y_i \alpha_i` of each support vector in the one-vs-one problems, in scikit-learn's
        layout (the coefficients of class ``a`` against class ``b`` are in row ``b − 1`` if
        ``a < b``, else row ``b``). For two classes the sign is that of ``decision_function``:
        positive towards ``classes_[1]``.
    intercept_ : ndarray of shape (n_classes (n_classes − 1) / 2,)
        Offsets ``b`` of the one-vs-one decision functions.
    n_iter_ : ndarray of shape (n_classes (n_classes − 1) / 2,), int32
        SMO steps per one-vs-one problem.
    dual_objective_ : ndarray of shape (n_classes (n_classes − 1) / 2,)
        :math:`\tfrac12 \alpha^\top Q \alpha - \mathbf 1^\top \alpha` at the solution of each
        one-vs-one problem (LIBSVM's ``obj``).
    probA_, probB_ : ndarray of shape (n_classes (n_classes − 1) / 2,)
        Platt's :math:`(A, B)` of each one-vs-one problem:
        :math:`P(\text{first class} \mid f) = 1 / (1 + e^{A f + B})` (``probability=True`` only).
    shape_fit_ : tuple
        Shape of the training ``X``.
    n_features_in_ : int
        Number of features (not set for a kernel object's non-array input).

    See Also
    --------
    SVR : ε-support vector regression with the same solver.
    kernelkit.reference.smo.smo_solve : the course's simplified SMO, a slow readable twin.
    sklearn.svm.SVC : LIBSVM's implementation.

    References
    ----------
    %(references)s

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from kernelkit.svm import SVC
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = SVC(C=1.0).fit(X, y)
    >>> clf.n_support_
    array([ 7, 29, 24], dtype=int32)
    >>> round(float(clf.score(X, y)), 3)
    0.973
    """

    _parameter_constraints: dict = {
        **BaseSMO._parameter_constraints,
        "class_weight": [StrOptions({"balanced"}), dict, None],
        "decision_function_shape": [StrOptions({"ovr", "ovo"})],
        "probability": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, cache_size=200,
        shrinking=True, probability=False, class_weight=None, verbose=0, max_iter=-1,
        decision_function_shape="ovr", random_state=None, n_jobs=None, warm_start=False,
        validate_gram="fast",
    ):
        super().__init__(C=C, kernel=kernel, degree=degree, gamma=gamma, coef0=coef0, tol=tol,
                         cache_size=cache_size, shrinking=shrinking, verbose=verbose,
                         max_iter=max_iter, n_jobs=n_jobs, warm_start=warm_start,
                         validate_gram=validate_gram)
        self.probability = probability
        self.class_weight = class_weight
        self.decision_function_shape = decision_function_shape
        self.random_state = random_state

    def _fit(self, X, gram, y, sample_weight):
        """One SVM per pair of classes."""
        check_class_labels(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(
                f"The number of classes has to be greater than one; got {n_classes} class.")
        # compute_class_weight validates its arguments at every call (~0.1 ms)
        self.class_weight_ = (np.ones(n_classes) if self.class_weight is None else
                              compute_class_weight(self.class_weight, classes=self.classes_, y=y))
        upper = self.C * self.class_weight_[y_index] * sample_weight
        # the samples of each class with a positive bound, in order
        kept = np.flatnonzero(upper > 0)
        by_class = kept[np.argsort(y_index[kept], kind="stable")]
        members = np.split(by_class, np.cumsum(np.bincount(y_index[kept],
                                                            minlength=n_classes))[:-1])
        for c, rows in enumerate(members):
            if rows.size == 0:
                raise ValueError(
                    f"Invalid input: class {self.classes_[c]!r} has no sample with a positive "
                    "weight (sample_weight × class_weight), so the classifier cannot be fit.")
        pairs = list(combinations(range(n_classes), 2))
        # the linear term of every pair: a view of one array of −1 (the solver copies it)
        minus_ones = np.full(y_index.size, -1.0)
        problems = []
        for a, b in pairs:
            rows = np.concatenate([members[a], members[b]])
            signs = np.repeat(_SIGNS, [members[a].size, members[b].size])
            problems.append((gram, rows, signs, minus_ones[:rows.size], upper[rows]))
        solutions = self._solve_all(problems, warm=self.warm_start)
        if self.probability:
            self.probA_, self.probB_ = self._fit_platt(X, gram, problems)

        # y_i α_i of every sample in every pair (LIBSVM's convention: class a is +1).
        pair_coef = np.zeros((y_index.size, len(pairs)))
        for k, ((_, rows, signs, _, _), (alpha, _, _, _)) in enumerate(zip(problems, solutions)):
            pair_coef[rows, k] = signs * alpha
        is_support = np.any(pair_coef != 0.0, axis=1)
        support = np.concatenate([rows[is_support[rows]] for rows in members])
        self.support_ = support.astype(np.int32)
        self._keep_support(X, support)
        self.n_support_ = np.array([np.count_nonzero(is_support[rows]) for rows in members],
                                   dtype=np.int32)
        self._pair_coef = pair_coef[support]
        self._pair_intercept = np.array([-rho for _, rho, _, _ in solutions])
        self.n_iter_ = np.array([n_iter for _, _, _, n_iter in solutions], dtype=np.int32)
        self.dual_objective_ = np.array([objective for _, _, objective, _ in solutions])

        dual_coef = pack_dual_coef(self._pair_coef, self.n_support_)
        # Two classes: scikit-learn's sign, positive towards classes_[1].
        sign = -1.0 if n_classes == 2 else 1.0
        self.dual_coef_ = sign * dual_coef
        self.intercept_ = sign * self._pair_intercept
        return self

    def _pair_decision(self, X):
        """One-vs-one decision values in LIBSVM's convention (positive: the first class)."""
        return self._kernel_to_support(X) @ self._pair_coef + self._pair_intercept

    def decision_function(self, X):
        """Signed distance-like scores of the samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples_train)

        Returns
        -------
        scores : ndarray of shape (n_samples,), (n_samples, n_classes) or (n_samples, n_pairs)
            Two classes: ``f(x)``, positive towards ``classes_[1]``. More: one-vs-rest
            aggregates or the one-vs-one values, as set by ``decision_function_shape``.
        """
        scores = self._pair_decision(X)
        n_classes = self.classes_.size
        if n_classes == 2:
            return -scores[:, 0]
        if self.decision_function_shape == "ovr":
            return _ovr_decision_function(scores < 0, -scores, n_classes)
        return scores

    def predict(self, X):
        """Class of each sample by one-vs-one voting (ties: the earlier class, as LIBSVM).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples_train)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        scores = self._pair_decision(X)
        n_classes = self.classes_.size
        votes = np.zeros((scores.shape[0], n_classes), dtype=np.intp)
        for k, (a, b) in enumerate(combinations(range(n_classes), 2)):
            first = scores[:, k] > 0
            votes[:, a] += first
            votes[:, b] += ~first
        return self.classes_[np.argmax(votes, axis=1)]


    def _fit_platt(self, X, gram, problems):
        """Platt's ``(A, B)`` of every one-vs-one problem, from the decision values of an
        internal 5-fold cross-validation (LIBSVM's ``svm_binary_svc_probability``)."""
        rng = check_random_state(self.random_state)
        A, B = np.empty(len(problems)), np.empty(len(problems))
        for k, (_, rows, signs, _, upper) in enumerate(problems):
            order = rng.permutation(rows.size)
            decision = np.empty(rows.size)
            for fold in np.array_split(order, _PLATT_FOLDS):
                if fold.size == 0:
                    continue
                train = np.setdiff1d(order, fold, assume_unique=True)
                if np.all(signs[train] > 0) or np.all(signs[train] < 0):
                    decision[fold] = signs[train[0]]   # one class left: LIBSVM's ±1
                    continue
                (alpha, rho, _, _), = self._solve_all(
                    [(gram, rows[train], signs[train], -np.ones(train.size), upper[train])],
                    remember=False)
                decision[fold] = (self._cross_gram(X, gram, rows[fold], rows[train])
                                  @ (signs[train] * alpha) - rho)
            A[k], B[k] = fit_sigmoid(decision, signs > 0)
        return A, B

    def _check_proba(self):
        if not self.probability:
            raise AttributeError("predict_proba is not available when probability=False; fit "
                                 "with SVC(probability=True).")
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        """Class probabilities (Platt's sigmoids coupled over the one-vs-one problems).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), (n_samples, n_samples_train) or
            sequence of objects

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        check_is_fitted(self, "probA_")
        pairwise = sigmoid_probability(self._pair_decision(X), self.probA_, self.probB_)
        n_classes = self.classes_.size
        if n_classes == 2:
            return np.column_stack([pairwise[:, 0], 1.0 - pairwise[:, 0]])
        return couple_pairwise_probabilities(
            pairwise, list(combinations(range(n_classes), 2)), n_classes)

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))


@fill_doc(common_parameters=_COMMON_PARAMETERS, references=_COMMON_REFERENCES)
class SVR(RegressorMixin, BaseSMO):
    r"""ε-support vector regression, trained by SMO on the 2n-variable dual.

    Solves Sangnier, §1.5.3 (P16) [1]_: with :math:`\beta = \alpha^+ - \alpha^-`,

    .. math::

        \min \tfrac12 \beta^\top K \beta - y^\top \beta + \varepsilon \mathbf 1^\top
        (\alpha^+ + \alpha^-) \quad \text{s.t.} \quad \mathbf 1^\top \beta = 0, \quad
        0 \le \alpha^\pm_i \le C_i,

    written as one problem over :math:`(\alpha^+, \alpha^-)` with signs :math:`(+1, -1)` and
    solved by the same SMO as :class:`SVC` [3]_ [4]_ [5]_ (the two variables of a sample share
    one cached kernel row).
    The prediction is :math:`f(x) = \sum_i \beta_i k(x_i, x) + b`.

    Parameters
    ----------
    %(common_parameters)s
    epsilon : float, default=0.1
        Half-width of the ε-insensitive tube: residuals smaller than ε cost nothing.
    n_jobs : int, default=None
        OpenMP threads for the kernel rows long enough to be worth splitting (about 10⁶
        ``n_samples × n_features``) and for the Gram checks; None uses every thread the runtime
        allows. Results do not depend on it.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,), int32
        Indices of the support vectors (:math:`\beta_i \ne 0`), increasing.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Their rows of ``X`` (empty for ``kernel="precomputed"``).
    n_support_ : ndarray of shape (1,), int32
    dual_coef_ : ndarray of shape (1, n_SV)
        :math:`\beta_i = \alpha^+_i - \alpha^-_i`.
    intercept_ : ndarray of shape (1,)
        Offset ``b``.
    n_iter_ : int
        SMO steps.
    dual_objective_ : float
        :math:`\tfrac12 \alpha^\top Q \alpha + p^\top \alpha` of the 2n-variable problem at the
        solution (LIBSVM's ``obj``).
    shape_fit_ : tuple
    n_features_in_ : int

    See Also
    --------
    SVC : support vector classification with the same solver.
    sklearn.svm.SVR : LIBSVM's implementation.

    References
    ----------
    %(references)s

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.svm import SVR
    >>> X = np.linspace(0, 6, 40)[:, None]
    >>> reg = SVR(C=10.0, epsilon=0.05).fit(X, np.sin(X).ravel())
    >>> bool(np.max(np.abs(reg.predict(X) - np.sin(X).ravel())) < 0.1)
    True
    """

    _parameter_constraints: dict = {
        **BaseSMO._parameter_constraints,
        "epsilon": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(
        self, C=1.0, epsilon=0.1, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
        cache_size=200, shrinking=True, verbose=0, max_iter=-1, n_jobs=None, warm_start=False,
        validate_gram="fast",
    ):
        super().__init__(C=C, kernel=kernel, degree=degree, gamma=gamma, coef0=coef0, tol=tol,
                         cache_size=cache_size, shrinking=shrinking, verbose=verbose,
                         max_iter=max_iter, n_jobs=n_jobs, warm_start=warm_start,
                         validate_gram=validate_gram)
        self.epsilon = epsilon

    def _fit(self, X, gram, y, sample_weight):
        """The ε-SVR's one dual problem."""
        upper = self.C * sample_weight
        rows = np.flatnonzero(upper > 0)
        if rows.size == 0:
            raise ValueError("Every sample has weight 0: there is nothing to fit.")
        y_rows = y[rows].astype(np.float64)
        (alpha, rho, objective, n_iter), = self._solve_all([(
            gram, rows,
            np.concatenate([np.ones(rows.size), -np.ones(rows.size)]),
            np.concatenate([self.epsilon - y_rows, self.epsilon + y_rows]),
            np.concatenate([upper[rows], upper[rows]]),
        )], warm=self.warm_start)
        beta = alpha[:rows.size] - alpha[rows.size:]
        is_support = beta != 0.0
        support = rows[is_support]
        self.support_ = support.astype(np.int32)
        self._keep_support(X, support)
        self.n_support_ = np.array([support.size], dtype=np.int32)
        self.dual_coef_ = beta[is_support][None, :]
        self.intercept_ = np.array([-rho])
        self.n_iter_ = int(n_iter)
        self.dual_objective_ = float(objective)
        return self

    def predict(self, X):
        r""":math:`f(x) = \sum_i \beta_i k(x_i, x) + b`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples_train)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        return self._kernel_to_support(X) @ self.dual_coef_[0] + self.intercept_[0]
