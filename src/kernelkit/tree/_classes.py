"""CART decision trees (compiled growth: ``kernelkit._core._tree_builder``)."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, is_classifier
from sklearn.utils import check_random_state, compute_sample_weight
from sklearn.utils.validation import check_is_fitted

from kernelkit.tree._growth import TreeTrainingSet, draw_tree_seed
from kernelkit.tree._validation import (
    STOPPING_RULE_CONSTRAINTS,
    growth_params,
    validate_fit_input,
    validate_predict_input,
)
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import ParameterNamesOncePerClass, StrOptions, _fit_context
from kernelkit.utils._threads import effective_n_threads

__all__ = ["BaseDecisionTree", "DecisionTreeClassifier", "DecisionTreeRegressor",
           "ProbabilityVoteMixin"]


class ProbabilityVoteMixin:
    """``predict`` and ``predict_log_proba`` of a classifier from its ``predict_proba``."""

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba` (−inf for a probability of 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """Class of largest probability (ties: the first in ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class BaseDecisionTree(ParameterNamesOncePerClass, BaseEstimator):
    """Fitting and prediction shared by :class:`DecisionTreeClassifier` and
    :class:`DecisionTreeRegressor`."""

    _parameter_constraints: dict = {**STOPPING_RULE_CONSTRAINTS, "random_state": ["random_state"]}

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors (converted to float32).
        y : array-like of shape (n_samples,)
            Class labels (any hashable, e.g. strings) or regression targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; samples of weight 0 are left out.

        Returns
        -------
        self : object
            The fitted tree.
        """
        classifier = is_classifier(self)
        X, target, sample_weight = validate_fit_input(self, X, y, sample_weight,
                                                      classifier=classifier)
        class_weight = getattr(self, "class_weight", None)
        if class_weight is not None:
            expanded = compute_sample_weight(class_weight, self.classes_[target.astype(np.intp)])
            sample_weight = expanded if sample_weight is None else sample_weight * expanded
        params = growth_params(self, *X.shape)
        seed = draw_tree_seed(check_random_state(self.random_state))
        n_threads = effective_n_threads(self.n_jobs)
        training_set = TreeTrainingSet(X, self.splitter, self.max_bins, n_threads)
        self.tree_ = training_set.grow_tree(
            target, sample_weight, seed, criterion=self.criterion, params=params,
            n_classes=getattr(self, "n_classes_", 1), n_threads=n_threads)
        return self

    def apply(self, X):
        """Index of the leaf that each sample ends in.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_leaves : ndarray of shape (n_samples,), intp
            Node ids in ``[0, tree_.node_count)``.
        """
        X = validate_predict_input(self, X)
        return self.tree_.apply(X, effective_n_threads(self.n_jobs))

    def get_depth(self):
        """Depth of the tree (the root alone has depth 0)."""
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self):
        """Number of leaves of the tree."""
        check_is_fitted(self)
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        """Normalised mean decrease of impurity per feature (Gini importance), shape
        (n_features,)."""
        check_is_fitted(self)
        return self.tree_.compute_feature_importances()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        tags.input_tags.allow_nan = False
        return tags


_PARAMETERS = """splitter : {"best", "hist"}, default="best"
        ``"best"``: the exact search of the course over midpoints of consecutive distinct values
        (features presorted once per fit; values less than 1e-7 apart count as one).
        ``"hist"``: features binned once into at most ``max_bins`` quantile bins, splits searched
        between bins. When no feature has more than ``max_bins`` distinct values both search the
        same candidates, and both keep the first strict maximum of the computed impurity
        decrease (features in draw order, then thresholds in increasing order); but ``"hist"``
        sums the weights (and weighted targets) bin by bin (in the large nodes of a tree that
        draws most features, a larger child's histogram as its parent's minus its sibling's),
        so the sums may differ from ``"best"``'s in the last bit. The trees are then identical
        whenever these sums are exact (integer sample weights with class labels or integer
        targets, e.g. unweighted classification); otherwise two splits that tie in exact
        arithmetic (duplicated features, symmetric data) may be resolved differently, the
        decreases of the two choices agreeing to rounding.
    max_depth : int, default=None
        Maximal depth (the root has depth 0); None: grow until the stopping rules below.
    min_samples_split : int or float, default=2
        Minimal number of samples of a node that is split (a float: that fraction of the
        training samples, rounded up).
    min_samples_leaf : int or float, default=1
        Minimal number of samples of every leaf (a float: a fraction, rounded up).
    min_weight_fraction_leaf : float, default=0.0
        Minimal fraction of the total sample weight in every leaf.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Number of features drawn at random at every node among which the best split is searched
        (a float: that fraction of the features); None: all. More are examined while the drawn
        ones are all constant on the node.
    random_state : int, RandomState instance or None, default=None
        Seeds the feature draws. With ``max_features=None`` it only breaks ties between
        equally good splits. The draws follow scikit-learn's generator: the same
        ``random_state`` gives scikit-learn's tree.
    max_leaf_nodes : int, default=None
        Grow best-first (the leaf whose split decreases impurity most is split next) up to
        this many leaves; None: depth-first growth, no limit.
    min_impurity_decrease : float, default=0.0
        A node is split only if
        :math:`\\frac{W_A}{W} (D(A) - \\frac{W_L}{W_A} D(L) - \\frac{W_R}{W_A} D(R)) \\ge` this
        value (:math:`W`: weights; :math:`W` without index: the whole training set).
    max_bins : int, default=255
        Bins per feature of ``splitter="hist"`` (2 to 255).
    n_jobs : int, default=None
        Threads of the presort and of the split search in large nodes; None uses every
        thread the OpenMP runtime allows. The tree does not depend on it."""

_NOTES = """The input is converted to float32, as in scikit-learn, and thresholds are midpoints of
    two float32 training values. Feature values closer than 1e-7 count as equal. NaN and infinite
    values are rejected (there is no missing-value policy). Node ids are in preorder
    (depth-first growth) or in creation order (best-first). The feature draws and the
    floating-point expressions of the split search are scikit-learn's, so whenever the sums of
    the search are exact — classification, or integer targets, with unit or integer sample
    weights — the tree is scikit-learn's ``DecisionTree*(random_state=...)`` fitted on the same
    data, node for node. With fractional weights or targets, two features that cut a node into
    the same two sets of samples may be ranked differently by rounding (in either library, which
    sum in different orders): the trees then differ only in which of these equivalent splits
    they keep."""

_REFERENCES = """.. [1] Sangnier, *Introduction to machine learning*, §1.6.2 "Decision
       trees" (the split rule, the impurities, Friedman's criterion — printed as an argmin, it is
       maximised — and the stopping rules), Remark 1.6.1.
    .. [2] L. Breiman, J. Friedman, R. Olshen, C. Stone, *Classification and Regression Trees*,
       Wadsworth, 1984.
    .. [3] J. H. Friedman, "Greedy function approximation: a gradient boosting machine",
       Annals of Statistics 29(5), 2001 (the improvement criterion ``friedman_mse``)."""


@fill_doc(notes=_NOTES, references=_REFERENCES, parameters=_PARAMETERS)
class DecisionTreeClassifier(ProbabilityVoteMixin, ClassifierMixin, BaseDecisionTree):
    r"""CART classification tree.

    Grows the tree of Sangnier, §1.6.2 [1]_: every node (cell A) is split at the feature and
    threshold minimising :math:`\frac{W_L}{W_A} D(L) + \frac{W_R}{W_A} D(R)` (:math:`W`: summed
    sample weights) with the Gini impurity :math:`D = \sum_y p_y (1 - p_y)` or the entropy
    :math:`D = -\sum_y p_y \log_2 p_y`, until a
    stopping rule holds; a leaf predicts the weighted class fractions of its samples.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        Impurity ``D``; "log_loss" is the entropy.
    %(parameters)s
    class_weight : dict, "balanced" or None, default=None
        Multiplies the sample weights of each class; "balanced" uses
        ``n_samples / (n_classes × bincount(y))``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined when X has feature names that are all strings.
    n_outputs_ : int
        Always 1 (one target).
    max_features_ : int
        Features drawn per node.
    tree_ : kernelkit.tree._flat_tree.Tree
        The flat tree: ``children_left``, ``children_right``, ``feature``, ``threshold``,
        ``value`` (class fractions, shape (node_count, n_classes)), ``impurity``,
        ``n_node_samples``, ``weighted_n_node_samples``.
    feature_importances_ : ndarray of shape (n_features,)

    See Also
    --------
    DecisionTreeRegressor : the regression tree.
    kernelkit.ensemble.RandomForestClassifier : bagged trees with random features per node.
    kernelkit.reference.tree.cart_tree : the course's recursive CART, a slow readable twin.
    sklearn.tree.DecisionTreeClassifier : scikit-learn's implementation.

    Notes
    -----
    %(notes)s

    References
    ----------
    %(references)s

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from kernelkit.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    >>> clf.get_n_leaves(), round(float(clf.score(X, y)), 3)
    (3, 0.96)
    >>> clf.predict_proba(X[[0, 60]]).round(3)
    array([[1.   , 0.   , 0.   ],
           [0.   , 0.907, 0.093]])
    """

    _parameter_constraints: dict = {
        **BaseDecisionTree._parameter_constraints,
        "criterion": [StrOptions({"gini", "entropy", "log_loss"})],
        "class_weight": [dict, StrOptions({"balanced"}), None],
    }

    def __init__(self, criterion="gini", splitter="best", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_features=None,
                 random_state=None, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 class_weight=None, max_bins=255, n_jobs=None):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.class_weight = class_weight
        self.max_bins = max_bins
        self.n_jobs = n_jobs

    def predict_proba(self, X):
        """Weighted class fractions of the leaf of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        X = validate_predict_input(self, X)
        proba = self.tree_.predict(X, effective_n_threads(self.n_jobs))
        return proba / proba.sum(axis=1, keepdims=True)


@fill_doc(notes=_NOTES, references=_REFERENCES, parameters=_PARAMETERS)
class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    r"""CART regression tree.

    Grows the tree of Sangnier, §1.6.2 [1]_ with a regression impurity: the mean squared error
    :math:`D(A) = \frac1{W_A} \sum_i w_i (y_i - \bar y_A)^2` (a leaf predicts the weighted mean),
    Friedman's criterion (the split maximising
    :math:`\frac{W_L W_R}{W_L + W_R} (\bar y_L - \bar y_R)^2`, the same split as the
    squared error since parent SSE = children SSE + that term; the course prints it as an argmin,
    but it must be maximised), or the mean absolute deviation from the weighted median (a leaf
    predicts the weighted median).

    Parameters
    ----------
    criterion : {"squared_error", "friedman_mse", "absolute_error"}, default="squared_error"
        Impurity ``D``; "absolute_error" needs ``splitter="best"`` and costs O(n log n) per
        feature and node.
    %(parameters)s

    Attributes
    ----------
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined when X has feature names that are all strings.
    n_outputs_ : int
        Always 1.
    max_features_ : int
        Features drawn per node.
    tree_ : kernelkit.tree._flat_tree.Tree
        The flat tree (``value`` of shape (node_count, 1): mean or median of each node).
    feature_importances_ : ndarray of shape (n_features,)

    See Also
    --------
    DecisionTreeClassifier : the classification tree.
    kernelkit.ensemble.RandomForestRegressor : bagged trees with random features per node.
    kernelkit.reference.tree.cart_tree : the course's recursive CART, a slow readable twin.
    sklearn.tree.DecisionTreeRegressor : scikit-learn's implementation.

    Notes
    -----
    %(notes)s

    References
    ----------
    %(references)s

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from kernelkit.tree import DecisionTreeRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> reg = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    >>> reg.get_n_leaves(), round(float(reg.score(X, y)), 3)
    (8, 0.501)
    """

    _parameter_constraints: dict = {
        **BaseDecisionTree._parameter_constraints,
        "criterion": [StrOptions({"squared_error", "friedman_mse", "absolute_error"})],
    }

    def __init__(self, criterion="squared_error", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, max_bins=255, n_jobs=None):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.max_bins = max_bins
        self.n_jobs = n_jobs

    def predict(self, X):
        """Value (mean or median) of the leaf of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        X = validate_predict_input(self, X)
        return self.tree_.predict(X, effective_n_threads(self.n_jobs))[:, 0]
