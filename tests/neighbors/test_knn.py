"""k nearest neighbours: the course's properties, compiled vs reference, scikit-learn, input."""

import numpy as np
import pytest
from kernelkit._core import _knn_brute
from sklearn import neighbors as sk
from sklearn.datasets import load_digits, make_blobs
from sklearn.model_selection import StratifiedKFold, cross_val_score

from kernelkit import reference
from kernelkit.neighbors import KNeighborsClassifier, KNeighborsRegressor


@pytest.fixture(scope="module")
def digits():
    return load_digits(return_X_y=True)


def test_one_neighbour_fits_distinct_training_points_exactly(digits):
    X, y = digits
    assert KNeighborsClassifier(1).fit(X, y).score(X, y) == 1.0


def test_all_neighbours_give_the_majority_class():
    X, y = make_blobs(60, centers=3, random_state=0)
    y = np.where(np.arange(60) < 30, 2, y)   # class 2 is the majority
    model = KNeighborsClassifier(60).fit(X, y)
    assert np.all(model.predict(X) == 2)


def test_compiled_search_equals_the_reference_for_both_float_types():
    rng = np.random.default_rng(0)
    # small integers: every distance is exact in both precisions, and many are tied (broken by
    # the training index in both)
    X, Q = rng.integers(-3, 4, size=(300, 5)), rng.integers(-3, 4, size=(40, 5))
    for dtype in (np.float64, np.float32):
        idx, dist = np.empty((40, 7), dtype=np.intp), np.empty((40, 7))
        _knn_brute.knn_brute(Q.astype(dtype), X.astype(dtype), idx, dist, 2)
        ref_idx, ref_dist = np.empty_like(idx), np.empty_like(dist)
        reference.knn_brute(Q, X, ref_idx, ref_dist)
        np.testing.assert_array_equal(dist, ref_dist)
        np.testing.assert_array_equal(idx, ref_idx)
    D = rng.random((30, 50))
    D[:, 7] = D[:, 3]
    idx, dist = np.empty((30, 6), dtype=np.intp), np.empty((30, 6))
    ref_idx, ref_dist = np.empty_like(idx), np.empty_like(dist)
    _knn_brute.knn_select(D, idx, dist, 2)
    reference.knn_select(D, ref_idx, ref_dist)
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_array_equal(dist, ref_dist)


def test_float32_screening_keeps_the_exact_neighbours():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(2000, 40))
    X[7] = X[3]                                   # exact duplicates: ties by index
    Q = np.vstack([rng.normal(size=(60, 40)), X[3] + 1e-9])
    idx, dist = np.empty((61, 6), dtype=np.intp), np.empty((61, 6))
    _knn_brute.knn_brute_screened(Q, X, Q.astype(np.float32), X.astype(np.float32), idx, dist, 2)
    ref_idx, ref_dist = np.empty_like(idx), np.empty_like(dist)
    reference.knn_brute(Q, X, ref_idx, ref_dist)
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_allclose(dist, ref_dist, rtol=1e-12, atol=1e-15)
    # the estimator uses it for float64 data in 16 dimensions or more
    model = KNeighborsClassifier(6).fit(X, np.arange(2000) % 3)
    assert model._search_index(1).fit_X32 is not None
    np.testing.assert_array_equal(model.kneighbors(Q, return_distance=False), ref_idx)


def test_no_float32_screening_where_products_leave_float32():
    """Entries of 1e20 would overflow float32 products (inf distances): the search runs in
    double precision, for training data and for queries alike."""
    rng = np.random.default_rng(5)
    X, Q = rng.normal(size=(300, 20)), rng.normal(size=(20, 20))
    y = np.arange(300) % 3
    want = KNeighborsClassifier(4).fit(X, y).kneighbors(Q, return_distance=False)
    big = KNeighborsClassifier(4).fit(X * 1e20, y)
    assert big._search_index(1).fit_X32 is None
    np.testing.assert_array_equal(big.kneighbors(Q * 1e20, return_distance=False), want)
    small = KNeighborsClassifier(4).fit(X, y)
    assert small._search_index(1).fit_X32 is not None
    np.testing.assert_array_equal(small.kneighbors(Q * 1e20 / 1e20, return_distance=False), want)
    far = Q.copy()
    far[0] = 1e20                                 # one query beyond float32 products
    idx = small.kneighbors(far, return_distance=False)
    np.testing.assert_array_equal(idx[1:], want[1:])
    assert np.isfinite(small.kneighbors(far)[0]).all()


def test_results_do_not_depend_on_the_thread_count(digits):
    X, y = digits
    a = KNeighborsClassifier(7, n_jobs=1).fit(X[:1200], y[:1200]).kneighbors(X[1200:])
    b = KNeighborsClassifier(7, n_jobs=2).fit(X[:1200], y[:1200]).kneighbors(X[1200:])
    np.testing.assert_array_equal(a[1], b[1])
    np.testing.assert_array_equal(a[0], b[0])


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_equal_to_scikit_learn_brute_on_digits_and_blobs(digits, weights):
    X_blobs, y_blobs = make_blobs(3000, n_features=3, centers=5, cluster_std=3.0, random_state=0)
    for X, y in (digits, (X_blobs, y_blobs)):
        X_train, y_train, X_test = X[::2], y[::2], X[1::2]
        ours = KNeighborsClassifier(5, weights=weights).fit(X_train, y_train)
        theirs = sk.KNeighborsClassifier(5, weights=weights, algorithm="brute").fit(X_train,
                                                                                     y_train)
        d_ours, i_ours = ours.kneighbors(X_test)
        d_theirs, i_theirs = theirs.kneighbors(X_test)
        np.testing.assert_allclose(d_ours, d_theirs, rtol=1e-9, atol=1e-7)
        # where the 5th and 6th distances are equal, which of them is kept is a convention
        # (kernelkit: the smaller training index; scikit-learn: argpartition's choice)
        d_six = ours.kneighbors(X_test, 6)[0]
        untied = d_six[:, 4] < d_six[:, 5] * (1 - 1e-12)
        assert untied.mean() > 0.9
        for a, b in zip(i_ours[untied], i_theirs[untied]):
            assert set(a) == set(b)
        np.testing.assert_allclose(ours.predict_proba(X_test)[untied],
                                   theirs.predict_proba(X_test)[untied], atol=1e-12)
        np.testing.assert_array_equal(ours.predict(X_test)[untied],
                                      theirs.predict(X_test)[untied])


def test_regressor_equals_scikit_learn():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(500, 4)), rng.normal(size=500)
    ours = KNeighborsRegressor(6, weights="distance").fit(X[:400], y[:400]).predict(X[400:])
    theirs = sk.KNeighborsRegressor(6, weights="distance", algorithm="brute").fit(
        X[:400], y[:400]).predict(X[400:])
    np.testing.assert_allclose(ours, theirs, rtol=1e-10)


def test_kd_tree_and_brute_force_agree():
    X, y = make_blobs(5000, n_features=4, centers=4, random_state=2)
    brute = KNeighborsClassifier(5, algorithm="brute").fit(X[:4000], y[:4000])
    tree = KNeighborsClassifier(5, algorithm="kd_tree").fit(X[:4000], y[:4000])
    np.testing.assert_allclose(brute.kneighbors(X[4000:])[0], tree.kneighbors(X[4000:])[0],
                               rtol=1e-9)
    np.testing.assert_array_equal(brute.predict(X[4000:]), tree.predict(X[4000:]))


def test_linear_kernel_neighbours_are_the_euclidean_ones(digits):
    X, y = digits
    euclidean = KNeighborsClassifier(5).fit(X[:1000], y[:1000])
    linear = KNeighborsClassifier(5, kernel="linear").fit(X[:1000], y[:1000])
    np.testing.assert_array_equal(linear.kneighbors(X[1000:1200], return_distance=False),
                                  euclidean.kneighbors(X[1000:1200], return_distance=False))
    np.testing.assert_allclose(linear.kneighbors(X[1000:1200])[0],
                               euclidean.kneighbors(X[1000:1200])[0], rtol=1e-9, atol=1e-6)


def test_gaussian_kernel_keeps_the_euclidean_neighbour_sets():
    rng = np.random.default_rng(3)
    X, Q = rng.normal(size=(400, 3)), rng.normal(size=(50, 3))
    y = (X[:, 0] > 0).astype(int)
    euclidean = KNeighborsClassifier(4).fit(X, y)
    gaussian = KNeighborsClassifier(4, kernel="rbf", kernel_params={"gamma": 0.5}).fit(X, y)
    for a, b in zip(euclidean.kneighbors(Q, return_distance=False),
                    gaussian.kneighbors(Q, return_distance=False)):
        assert set(a) == set(b)


def test_zero_gamma_gaussian_weights_are_uniform(digits):
    X, y = digits
    uniform = KNeighborsClassifier(6).fit(X[:1000], y[:1000])
    gaussian = KNeighborsClassifier(6, weights="gaussian", gamma=0.0).fit(X[:1000], y[:1000])
    np.testing.assert_allclose(gaussian.predict_proba(X[1000:]), uniform.predict_proba(X[1000:]))


def test_kneighbors_of_the_training_set_excludes_each_sample():
    X, y = make_blobs(100, random_state=4)
    model = KNeighborsClassifier(3).fit(X, y)
    indices = model.kneighbors(return_distance=False)
    assert not np.any(indices == np.arange(100)[:, None])
    theirs = sk.KNeighborsClassifier(3, algorithm="brute").fit(X, y).kneighbors(
        return_distance=False)
    np.testing.assert_array_equal(indices, theirs)


def test_precomputed_distances_equal_the_euclidean_search():
    X, y = make_blobs(200, random_state=5)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    euclidean = KNeighborsClassifier(5).fit(X[:150], y[:150])
    precomputed = KNeighborsClassifier(5, metric="precomputed").fit(D[:150, :150], y[:150])
    np.testing.assert_array_equal(precomputed.predict(D[150:, :150]), euclidean.predict(X[150:]))


def test_string_and_graph_kernels_in_cross_validation():
    from kernelkit.datasets import load_mutag, load_secreted_proteins
    from kernelkit.kernels import SpectrumKernel, WeisfeilerLehmanKernel

    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    mutag = load_mutag()
    graphs = KNeighborsClassifier(5, kernel=WeisfeilerLehmanKernel(n_iter=3, normalize=True))
    assert cross_val_score(graphs, mutag.graphs, mutag.target, cv=folds).mean() > 0.75
    sequences, target, _ = load_secreted_proteins()
    strings = KNeighborsClassifier(5, kernel=SpectrumKernel(k=2, normalize=True))
    assert cross_val_score(strings, sequences[:200], target[:200], cv=folds).mean() > 0.7


def test_bad_input_is_refused_clearly():
    X, y = make_blobs(30, random_state=6)
    with pytest.raises(ValueError, match="larger than the 30 training samples"):
        KNeighborsClassifier(31).fit(X, y).predict(X)
    with pytest.raises(ValueError, match="n_neighbors"):
        KNeighborsClassifier(0).fit(X, y)
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KNeighborsClassifier().fit(X_nan, y)
    fitted = KNeighborsClassifier().fit(X, np.array(["a", "b", "c"])[y])
    assert set(fitted.predict(X)) <= {"a", "b", "c"}
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :1])
    with pytest.raises(ValueError, match="square"):
        KNeighborsClassifier(metric="precomputed").fit(X, y)
    with pytest.raises(ValueError, match="precomputed"):
        KNeighborsClassifier(kernel="precomputed").fit(X @ X.T, y).kneighbors(X[:3] @ X.T)
    with pytest.raises(ValueError, match="metric"):
        KNeighborsClassifier(kernel="rbf", metric="precomputed").fit(X, y)


@pytest.mark.parametrize("estimator", [KNeighborsClassifier, KNeighborsRegressor])
def test_overflowing_kernel_distances_are_named(estimator):
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.arange(30) % 2
    with pytest.raises(ValueError, match="would overflow"):    # the training Gram
        estimator(3, kernel=lambda A, B: np.full((len(A), len(B)), 1e308)).fit(X, y)
    # training values in range, query values beyond: the distances overflow at predict
    fitted = estimator(3, kernel=lambda A, B: np.full((len(A), len(B)),
                                                      1.0 if A is B else 1e308)).fit(X, y)
    with pytest.raises(ValueError, match="kernel distances .* overflow"):
        fitted.predict(X[:5])


def test_float32_data_is_screened_by_its_own_products_and_ranked_exactly():
    """From 16 features, float32 rows are screened by their float32 GEMM and ranked by exact
    double-precision differences of the float32 values (no float64 copy): the reference's
    neighbours; entries whose float32 products would underflow are not screened."""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(2000, 40)).astype(np.float32)
    X[7] = X[3]                                   # exact duplicates: ties by index
    Q = np.vstack([rng.normal(size=(40, 40)), X[3]]).astype(np.float32)
    idx, dist = np.empty((41, 6), dtype=np.intp), np.empty((41, 6))
    _knn_brute.knn_brute(Q, X, idx, dist, 2, True)
    ref_idx, ref_dist = np.empty_like(idx), np.empty_like(dist)
    reference.knn_brute(Q, X, ref_idx, ref_dist)
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_allclose(dist, ref_dist, rtol=1e-12, atol=1e-15)
    model = KNeighborsClassifier(6).fit(X, np.arange(2000) % 3)
    index = model._search_index(1)
    assert index.screen32 and index.fit_X32 is None
    np.testing.assert_array_equal(model.kneighbors(Q, return_distance=False), ref_idx)
    tiny = KNeighborsClassifier(6).fit(X * np.float32(1e-20), np.arange(2000) % 3)
    assert not tiny._search_index(1).screen32


@pytest.mark.parametrize("estimator", [KNeighborsClassifier, KNeighborsRegressor])
@pytest.mark.parametrize("options", [dict(algorithm="brute"), dict(algorithm="kd_tree"),
                                     dict(algorithm="brute", kernel="rbf")],
                         ids=["brute", "kd_tree", "kernel"])
def test_verbose_prints_progress_lines_during_the_search(estimator, options, capsys,
                                                         monkeypatch):
    from kernelkit.utils import _progress

    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "INTERVAL", 0.0)
    X, y = make_blobs(600, n_features=4, centers=3, random_state=0)
    Q = X[::2] + 0.1
    quiet = estimator(n_neighbors=4, **options).fit(X, y)
    expected = quiet.predict(Q), quiet.kneighbors(None)
    assert capsys.readouterr().err == ""
    loud = estimator(n_neighbors=4, verbose=1, **options).fit(X, y)
    assert capsys.readouterr().err == ""                  # fit only stores the samples
    got = loud.predict(Q), loud.kneighbors(None)
    np.testing.assert_array_equal(got[0], expected[0])
    for got_array, expected_array in zip(got[1], expected[1]):
        np.testing.assert_array_equal(got_array, expected_array)
    lines = capsys.readouterr().err.splitlines()
    name = estimator.__name__
    if "kernel" not in options:
        # the first search builds the index: a line, as it lasted more than DELAY
        index = "KD-tree" if options["algorithm"] == "kd_tree" else "brute force"
        assert lines.pop(0).startswith(f"[{name}] search index: {index}, ")
    # twenty blocks of queries per search, a line after each: 300 queries, then 600
    assert len(lines) == 40
    assert lines[0].startswith(f"[{name}] 15/300 queries, ")
    assert lines[19].startswith(f"[{name}] 300/300 queries, ")
    assert lines[-1].startswith(f"[{name}] 600/600 queries, ")
