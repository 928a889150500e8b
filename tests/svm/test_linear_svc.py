"""LinearSVC (liblinear's dual coordinate descent and primal trust-region Newton method): the
optimality conditions of the dual and of the primal first, then the twin, the two solvers against
each other and against scikit-learn's liblinear, the weights, the choice of solver and bad
input."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from kernelkit._core._linear_dual_cd import linear_dual_cd_solve
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC as SklearnLinearSVC

from kernelkit.reference import linear_dual_cd_solve as reference_linear_dual_cd_solve
from kernelkit.svm import LinearSVC

TIGHT = {"tol": 1e-10, "max_iter": 100_000}
# dual=True and dual=False; the primal solves the squared hinge only
SOLVERS = [True, False]
LOSS_SOLVERS = [("squared_hinge", True), ("hinge", True), ("squared_hinge", False)]


def _data(n_classes, sparse, seed=0, n_samples=120):
    X, y = make_classification(n_samples, 15, n_informative=5, n_classes=n_classes,
                               n_clusters_per_class=1, random_state=seed)
    if sparse:
        # about half of the entries zero, as in count features
        X = sp.csr_matrix(np.where(np.abs(X) > 0.7, X, 0.0))
    return X, y


def _augmented(X, bias):
    X = X.toarray() if sp.issparse(X) else X
    return np.hstack([X, np.full((X.shape[0], 1), bias)])


@pytest.mark.parametrize("loss", ["squared_hinge", "hinge"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_kkt_conditions_of_the_dual(loss, fit_intercept, sparse, random_seed):
    """At the returned α: w = Σ y_i α_i x̄_i, 0 ≤ α ≤ U, and the projected gradient of
    D(α) = ½αᵀ(Q + D)α − 1ᵀα is ~0 (G ≥ 0 at α = 0, G ≤ 0 at α = U, G = 0 between)."""
    X, y = _data(2, sparse, seed=random_seed)
    C = 0.3
    clf = LinearSVC(C=C, loss=loss, dual=True, fit_intercept=fit_intercept,
                    random_state=random_seed, intercept_scaling=2.0, **TIGHT).fit(X, y)
    bias = 2.0 if fit_intercept else 0.0
    X_bar = _augmented(X, bias)
    labels = np.where(y == clf.classes_[1], 1.0, -1.0)
    alpha = clf.alpha_[0]
    w = np.r_[clf.coef_[0], clf.intercept_[0] / 2.0 if fit_intercept else 0.0]
    np.testing.assert_allclose(X_bar.T @ (labels * alpha), w, atol=1e-10)
    upper = np.inf if loss == "squared_hinge" else C
    diagonal = 0.5 / C if loss == "squared_hinge" else 0.0
    assert np.all(alpha >= 0) and np.all(alpha <= upper)
    G = labels * (X_bar @ w) - 1.0 + diagonal * alpha
    PG = np.where(alpha == 0, np.minimum(G, 0), np.where(alpha == upper, np.maximum(G, 0), G))
    assert np.abs(PG).max() < 1e-8
    # the decision function is wᵀx + b
    np.testing.assert_allclose(clf.decision_function(X), X_bar @ w, atol=1e-10)


def _primal_gradient(X_bar, labels, cost, w):
    """∇f(w) = w + 2 X̄_Iᵀ(C_I y_I (y_I X̄_I w − 1)) of f(w) = ½‖w‖² + Σ C_i max(0, 1 − y_i wᵀx̄_i)²."""
    slack = np.maximum(1.0 - labels * (X_bar @ w), 0.0)
    return w - 2.0 * X_bar.T @ (cost * labels * slack)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_optimality_of_the_primal(fit_intercept, sparse, random_seed):
    """At the returned w the gradient of the primal is ~0 relative to its value at 0, and α_ is
    the dual solution it determines, α_i = 2 C_i max(0, 1 − y_i wᵀx̄_i), with w = Σ y_i α_i x̄_i
    up to that gradient."""
    X, y = _data(2, sparse, seed=random_seed)
    C = 0.3
    clf = LinearSVC(C=C, dual=False, fit_intercept=fit_intercept, intercept_scaling=2.0,
                    **TIGHT).fit(X, y)
    bias = 2.0 if fit_intercept else 0.0
    X_bar = _augmented(X, bias)
    labels = np.where(y == clf.classes_[1], 1.0, -1.0)
    w = np.r_[clf.coef_[0], clf.intercept_[0] / 2.0 if fit_intercept else 0.0]
    cost = np.full(y.size, C)
    gradient = _primal_gradient(X_bar, labels, cost, w)
    initial = _primal_gradient(X_bar, labels, cost, np.zeros_like(w))
    assert np.linalg.norm(gradient) <= 1e-7 * np.linalg.norm(initial)
    alpha = clf.alpha_[0]
    np.testing.assert_allclose(alpha, 2 * C * np.maximum(1.0 - labels * (X_bar @ w), 0.0),
                               atol=1e-12)
    np.testing.assert_allclose(w - X_bar.T @ (labels * alpha), gradient, atol=1e-12)
    np.testing.assert_allclose(clf.decision_function(X), X_bar @ w, atol=1e-10)


def _well_conditioned(n_classes, sparse, seed=0):
    """Independent Gaussian features (about half of them zero when sparse), noisy linear
    classes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 15))
    if sparse:
        X = sp.csr_matrix(np.where(np.abs(X) > 0.7, X, 0.0))
    scores = X @ rng.normal(size=(15, n_classes))
    return X, np.argmax(scores + rng.normal(size=scores.shape), axis=1)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("tight", [False, True])
def test_primal_and_dual_solvers_agree(sparse, n_classes, tight):
    """The two solvers minimise the same problem: the same w and α up to their tolerances,
    ~1e-4 relative at the default tol (the primal's relative gradient tolerance leaves
    ~5e-5 to 3e-4 here), ~1e-7 at a tight one."""
    X, y = _well_conditioned(n_classes, sparse)
    params = dict(C=0.5, random_state=0, **(TIGHT if tight else {}))
    primal = LinearSVC(dual=False, **params).fit(X, y)
    dual = LinearSVC(dual=True, **params).fit(X, y)
    rtol = 1e-6 if tight else 2e-4
    scale = np.abs(dual.coef_).max()
    np.testing.assert_allclose(primal.coef_, dual.coef_, atol=rtol * scale)
    np.testing.assert_allclose(primal.intercept_, dual.intercept_, atol=rtol * scale)
    np.testing.assert_allclose(primal.alpha_, dual.alpha_, atol=rtol * np.abs(dual.alpha_).max())


def test_auto_is_scikit_learns_rule():
    """dual="auto": the primal when n_samples ≥ n_features (squared hinge), else the dual; the
    dual always for the hinge, which has no primal solver."""
    X, y = _data(2, sparse=False, n_samples=40)
    for n_samples, n_features, loss, dual in [(40, 15, "squared_hinge", False),
                                              (15, 15, "squared_hinge", False),
                                              (14, 15, "squared_hinge", True),
                                              (40, 15, "hinge", True)]:
        X_part, y_part = X[:n_samples, :n_features], y[:n_samples]
        auto = LinearSVC(loss=loss, random_state=0).fit(X_part, y_part)
        chosen = LinearSVC(loss=loss, dual=dual, random_state=0).fit(X_part, y_part)
        other = LinearSVC(loss=loss, dual=not dual, random_state=0) if loss != "hinge" else None
        np.testing.assert_array_equal(auto.coef_, chosen.coef_)
        assert auto.n_iter_ == chosen.n_iter_
        if other is not None:
            assert not np.array_equal(auto.coef_, other.fit(X_part, y_part).coef_)


@pytest.mark.parametrize("n_classes", [2, 5])
def test_noise_takes_few_newton_steps(n_classes):
    """Noisy labels, n_samples ≫ n_features: at the defaults the primal solver converges in a few
    Newton steps, as scikit-learn's defaults do (dual coordinate descent would take 1000 epochs
    and warn)."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(5000, 50)), rng.integers(0, n_classes, 5000)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ours = LinearSVC().fit(X, y)
    theirs = SklearnLinearSVC().fit(X, y)
    assert ours.n_iter_ <= 10
    # the same method: the same number of Newton steps and the same weights
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("loss, dual", LOSS_SOLVERS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_same_solution_as_liblinear(loss, dual, fit_intercept, sparse, n_classes):
    X, y = _data(n_classes, sparse)
    params = dict(C=0.5, loss=loss, dual=dual, fit_intercept=fit_intercept,
                  intercept_scaling=1.5, **TIGHT)
    ours = LinearSVC(random_state=0, **params).fit(X, y)
    theirs = SklearnLinearSVC(random_state=0, **params).fit(X, y)
    assert ours.coef_.shape == theirs.coef_.shape
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-7)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), atol=1e-6)


# scikit-learn 1.7 counts the sample weights in "balanced" class weights, as kernelkit does
BALANCED_WITH_SAMPLE_WEIGHTS = pytest.mark.scikit_learn(
    "1.7", reason="earlier releases' LinearSVC ignores sample_weight in class_weight='balanced'")


@pytest.mark.parametrize("class_weight", [
    pytest.param("balanced", marks=BALANCED_WITH_SAMPLE_WEIGHTS), {0: 3.0, 1: 0.5}])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("dual", SOLVERS)
def test_weights_as_liblinear(class_weight, n_classes, dual):
    """Class weights and sample weights scale C per sample, as liblinear (one-vs-rest: the
    positive class's weight, C for the rest)."""
    X, y = _data(n_classes, sparse=False)
    sample_weight = np.random.default_rng(0).uniform(0.0, 2.0, y.size)
    sample_weight[:10] = 0.0
    params = dict(C=0.5, dual=dual, class_weight=class_weight, random_state=0, **TIGHT)
    ours = LinearSVC(**params).fit(X, y, sample_weight=sample_weight)
    theirs = SklearnLinearSVC(**params).fit(X, y, sample_weight=sample_weight)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-7)
    # a sample of weight 0 takes no part
    assert np.all(ours.alpha_[:, :10] == 0)


@pytest.mark.parametrize("loss, dual", LOSS_SOLVERS)
def test_weight_two_equals_a_duplicated_sample(loss, dual):
    X, y = _data(2, sparse=False, n_samples=60)
    weight = np.ones(y.size)
    weight[:5] = 2.0
    weighted = LinearSVC(loss=loss, dual=dual, random_state=0, **TIGHT).fit(
        X, y, sample_weight=weight)
    repeated = LinearSVC(loss=loss, dual=dual, random_state=0, **TIGHT).fit(
        np.vstack([X, X[:5]]), np.r_[y, y[:5]])
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, atol=1e-7)
    np.testing.assert_allclose(weighted.intercept_, repeated.intercept_, atol=1e-7)


@pytest.mark.parametrize("layout", ["dense", "int32", "int64"])
@pytest.mark.parametrize("loss", ["squared_hinge", "hinge"])
def test_core_matches_twin(layout, loss):
    """Same arguments, same random order: the core and the twin take the same steps."""
    X, y = _data(3, sparse=layout != "dense", n_samples=40)
    if layout == "dense":
        rows = X
    else:
        index_dtype = np.int32 if layout == "int32" else np.int64
        rows = (X.data, X.indices.astype(index_dtype), X.indptr.astype(index_dtype))
    labels = np.array([np.where(y == k, 1.0, -1.0) for k in range(3)])
    cost = np.full(labels.shape, 0.7)
    cost[:, 3] = 0.0
    seeds = np.array([1, 2, 3], dtype=np.uint64)
    outputs = []
    for solve in (linear_dual_cd_solve, reference_linear_dual_cd_solve):
        w = np.zeros((3, X.shape[1] + 1))
        alpha = np.zeros(labels.shape)
        n_iter = np.zeros(3, dtype=np.int64)
        status = np.zeros(3, dtype=np.intc)
        solve({"X": rows, "n_features": X.shape[1], "y": labels, "cost": cost,
               "squared_hinge": loss == "squared_hinge", "bias": 1.0},
              {"tol": 1e-6, "max_iter": 500, "seeds": seeds, "n_threads": 1},
              w, alpha, n_iter, status)
        outputs.append((w, alpha, n_iter, status))
    (w, alpha, n_iter, status), (w_ref, alpha_ref, n_iter_ref, status_ref) = outputs
    np.testing.assert_allclose(w, w_ref, atol=1e-10)
    np.testing.assert_allclose(alpha, alpha_ref, atol=1e-10)
    np.testing.assert_array_equal(n_iter, n_iter_ref)
    np.testing.assert_array_equal(status, status_ref)
    assert np.all(alpha[:, 3] == 0)


def test_sparse_and_dense_give_the_same_model():
    X, y = _data(3, sparse=True)
    kwargs = {"C": 0.1, "dual": True, "random_state": 0, "tol": 1e-6}
    on_sparse = LinearSVC(**kwargs).fit(X, y)
    on_dense = LinearSVC(**kwargs).fit(X.toarray(), y)
    # same rows in the same random order: the same steps, up to the order of additions
    np.testing.assert_allclose(on_sparse.coef_, on_dense.coef_, atol=1e-10)
    assert on_sparse.n_iter_ == on_dense.n_iter_
    np.testing.assert_allclose(on_sparse.decision_function(X),
                               on_dense.decision_function(X.toarray()), atol=1e-10)


@pytest.mark.parametrize("dual", SOLVERS)
def test_csr_is_read_in_place(dual):
    X, y = _data(2, sparse=True)
    X_large = sp.csr_matrix((X.data, X.indices.astype(np.int64), X.indptr.astype(np.int64)),
                            shape=X.shape)
    a = LinearSVC(dual=dual, random_state=0).fit(X, y)
    b = LinearSVC(dual=dual, random_state=0).fit(X_large, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)


@pytest.mark.parametrize("dual", SOLVERS)
def test_repeated_csr_entries_count_as_their_sum(dual):
    X, y = _data(2, sparse=True)
    # every stored entry split in two halves at the same position
    repeated = sp.csr_matrix((np.repeat(X.data / 2, 2), np.repeat(X.indices, 2), 2 * X.indptr),
                             shape=X.shape)
    assert not repeated.has_canonical_format
    a = LinearSVC(dual=dual, random_state=0).fit(X, y)
    b = LinearSVC(dual=dual, random_state=0).fit(repeated, y)
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-12)
    assert not repeated.has_canonical_format  # the caller's matrix is left as it was


@pytest.mark.parametrize("dual", SOLVERS)
def test_threads_do_not_change_the_result(dual):
    X, y = _data(3, sparse=True)
    one = LinearSVC(C=0.1, dual=dual, random_state=0, n_jobs=1).fit(X, y)
    two = LinearSVC(C=0.1, dual=dual, random_state=0, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    np.testing.assert_array_equal(one.alpha_, two.alpha_)


def test_string_labels_and_binary_orientation():
    X, y = _data(2, sparse=False)
    labels = np.array(["no", "yes"])[y]
    clf = LinearSVC(random_state=0).fit(X, labels)
    assert clf.coef_.shape == (1, X.shape[1]) and clf.intercept_.shape == (1,)
    scores = clf.decision_function(X)
    np.testing.assert_array_equal(clf.predict(X), np.where(scores > 0, "yes", "no"))
    assert clf.score(X, labels) > 0.9


@pytest.mark.parametrize("dual", SOLVERS)
def test_max_iter_warns(dual):
    X, y = _data(3, sparse=False)
    with pytest.warns(ConvergenceWarning, match="max_iter=1 "):
        clf = LinearSVC(C=100.0, dual=dual, max_iter=1, tol=1e-12, random_state=0).fit(X, y)
    assert clf.n_iter_ == 1


@pytest.mark.parametrize("params, match", [
    ({"C": 0.0}, "'C' parameter"),
    ({"loss": "log"}, "'loss' parameter"),
    ({"tol": -1.0}, "'tol' parameter"),
    ({"max_iter": 0}, "'max_iter' parameter"),
    ({"intercept_scaling": 0.0}, "'intercept_scaling' parameter"),
    ({"class_weight": "uniform"}, "'class_weight' parameter"),
    ({"dual": "primal"}, "'dual' parameter"),
    ({"dual": False, "loss": "hinge"}, r"dual=False\).*loss='squared_hinge'"),
])
def test_bad_parameters(params, match):
    X, y = _data(2, sparse=False)
    with pytest.raises(ValueError, match=match):
        LinearSVC(**params).fit(X, y)


def test_bad_input():
    X, y = _data(2, sparse=True)
    bad = X.copy()
    bad.data[0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LinearSVC().fit(bad, y)
    with pytest.raises(ValueError, match="at least two classes"):
        LinearSVC().fit(X, np.zeros(y.size))
    with pytest.raises(ValueError, match="classes not in y"):
        LinearSVC(class_weight={7: 2.0}).fit(X, y)
    weight = np.where(y == 1, 0.0, 1.0)
    with pytest.raises(ValueError, match="class 1 has none"):
        LinearSVC(class_weight="balanced").fit(X, y, sample_weight=weight)
    with pytest.raises(ValueError, match="(?i)negative"):
        LinearSVC().fit(X, y, sample_weight=-np.ones(y.size))
    clf = LinearSVC().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :3])


@pytest.mark.parametrize("X_scale, params", [(1.7e308, {}), (1e154, {}),
                                             (1.0, {"intercept_scaling": 1e300}),
                                             (1.0, {"C": 1e300})])
def test_primal_overflow_is_a_clear_error(X_scale, params):
    """Features, an intercept feature or costs whose squares overflow float64: the primal's
    gradient or Hessian products are not finite, and the fit says so instead of looping."""
    X, y = _data(2, sparse=False)
    with pytest.raises(ValueError, match="primal solver .* float64.*Scale the features"):
        LinearSVC(dual=False, **params).fit(np.sign(X) * X_scale if X_scale > 1 else X, y)


def test_ctrl_c_stops_the_solver(ctrl_c):
    # three one-vs-rest problems in two threads, an unreachable tolerance and no useful
    # regularisation: up to 10⁶ epochs over 20 000 rows; a second fit afterwards still works
    setup = """
        import numpy as np
        from kernelkit.svm import LinearSVC
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(20000, 20)), rng.integers(0, 3, 20000)
        model = LinearSVC(C=1e6, dual=True, tol=1e-14, max_iter=10**6, n_jobs=2)
        run = lambda: model.fit(X, y)
    """
    after = """
        print(model.set_params(max_iter=10).fit(X[:50], y[:50]).predict(X[:1]).shape == (1,))
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]


def test_malformed_sparse_X_is_refused(sparse_inputs):
    """Inconsistent index arrays are refused before the solver or scipy reads them (an index
    far beyond n_features crashed the fit with a segmentation fault)."""
    sparse_inputs.assert_refused("""
        from sklearn.datasets import make_classification
        from kernelkit.svm import LinearSVC
        Z, y = make_classification(40, 8, random_state=0)
        model = LinearSVC(random_state=0).fit(Z, y)
        def make():
            return sp.csr_matrix(np.where(np.abs(Z) > 0.7, Z, 0.0))
        """, ["LinearSVC(random_state=0).fit(X, y)", "model.decision_function(X)"])


def test_every_sparse_layout_gives_the_model_of_the_csr_matrix(sparse_inputs):
    """uint32 or int64 indices, non-contiguous arrays, repeated entries, unused storage, CSC or
    COO: the solver reads the same rows (non-contiguous and uint32 arrays were refused)."""
    X, y = _data(3, sparse=True)
    expected = LinearSVC(C=0.1, random_state=0).fit(X, y)
    for case, given in sparse_inputs.equivalent(X):
        model = LinearSVC(C=0.1, random_state=0).fit(given, y)
        np.testing.assert_allclose(model.coef_, expected.coef_, atol=1e-10, err_msg=case)
        np.testing.assert_allclose(model.decision_function(given), expected.decision_function(X),
                                   atol=1e-10, err_msg=case)
