"""The search index of the Euclidean k-NN search (KD-tree or float32 screening): built by the
first query, not by fit, once (threads querying a fresh estimator at once included), dropped by
a refit, left out of pickles and built again, the same, after loading."""

import copy
import os
import pickle
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from sklearn.base import clone

from kernelkit.neighbors import KNeighborsClassifier, KNeighborsRegressor, _base
from kernelkit.neighbors._search_index import SearchIndex
from kernelkit.utils._threads import effective_n_threads

ESTIMATORS = [KNeighborsClassifier, KNeighborsRegressor]


def _clustered(n_samples, n_features, seed=0):
    """Rows in 20 Gaussian clusters (the KD-tree prunes: "auto" keeps it from 20 000 rows), the
    cluster of each as its label and a target."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 20, n_samples)
    X = rng.normal(scale=3.0, size=(20, n_features))[labels] + rng.normal(
        size=(n_samples, n_features))
    return X, labels


# (data, parameters, the index the first query builds): the KD-tree kept by "auto", the float32
# copy of float64 rows in 16 dimensions or more, float32 rows screened by their own products
CASES = {
    "auto-tree": (lambda: _clustered(20_000, 5), {}, "KD-tree"),
    "float32-copy": (lambda: _clustered(1_500, 24), {}, "brute force, float32 screening"),
    "float32-rows": (lambda: tuple(a.astype(np.float32) if a.ndim == 2 else a
                                   for a in _clustered(1_500, 24)), {},
                     "brute force, float32 screening"),
    "kd-tree": (lambda: _clustered(1_500, 3), {"algorithm": "kd_tree"}, "KD-tree"),
    "brute": (lambda: _clustered(1_500, 3), {"algorithm": "brute"}, "brute force"),
}


def _fit(estimator, case, **params):
    make_data, case_params, _ = CASES[case]
    X, labels = make_data()
    model = estimator(n_neighbors=6, **case_params, **params).fit(X, labels)
    return model, X, labels


def _queries(X, seed=1):
    rng = np.random.default_rng(seed)
    return (X[rng.integers(0, len(X), 200)] + rng.normal(scale=0.3, size=(200, X.shape[1]))
            ).astype(X.dtype)


@pytest.fixture
def builds(monkeypatch):
    """The arguments of every SearchIndex built through the estimators, in a list; each build
    sleeps 20 ms first, which leaves other threads time to start a second build if they could."""
    calls = []

    def counting_build(*args):
        calls.append(args)
        time.sleep(0.02)
        return SearchIndex(*args)

    monkeypatch.setattr(_base, "SearchIndex", counting_build)
    return calls


@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize("case", CASES)
def test_fit_builds_nothing_and_the_first_query_builds_the_index_once(estimator, case, builds):
    model, X, _ = _fit(estimator, case)
    assert model._index.value is None and builds == []
    fitted_state = dict(model.__dict__)
    Q = _queries(X)
    first = model.kneighbors(Q)
    index = model._index.value
    assert index.describe() == CASES[case][2]
    model.predict(Q)
    training = model.kneighbors()
    assert model._index.value is index and len(builds) == 1
    assert model.__dict__ == fitted_state       # the same objects: queries set no attribute
    np.testing.assert_array_equal(first[1], model.kneighbors(Q)[1])
    assert training[1].shape == (len(X), 6)


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_training_neighbours_build_the_index(estimator, builds):
    model, X, _ = _fit(estimator, "kd-tree")
    distances, indices = model.kneighbors(n_neighbors=3)
    assert len(builds) == 1 and model._index.value.tree is not None
    # each sample's neighbours among the others: the search of its row without itself
    distances_of_rows, indices_of_rows = model.kneighbors(X, n_neighbors=4)
    assert not np.any(indices == np.arange(len(X))[:, None])
    np.testing.assert_array_equal(indices, indices_of_rows[:, 1:])
    np.testing.assert_array_equal(distances, distances_of_rows[:, 1:])


@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize("case", ["auto-tree", "float32-copy", "brute"])
def test_threads_querying_a_fresh_estimator_build_one_index_and_agree_with_serial(
        estimator, case, builds):
    serial, X, labels = _fit(estimator, case)
    Q = _queries(X)
    want_predictions, want_neighbors = serial.predict(Q), serial.kneighbors(Q)
    want_training = serial.kneighbors(n_neighbors=2)
    model = clone(serial).fit(X, labels)
    builds.clear()
    n_threads = 8
    barrier = threading.Barrier(n_threads)

    def query(thread):
        barrier.wait()                      # all threads reach the first query together
        if thread % 4 == 3:
            return model.kneighbors(n_neighbors=2)
        return model.predict(Q) if thread % 2 else model.kneighbors(Q)

    with ThreadPoolExecutor(n_threads) as pool:
        results = list(pool.map(query, range(n_threads)))
    assert len(builds) == 1
    for thread, got in enumerate(results):
        if thread % 4 == 3:
            want = want_training
        elif thread % 2:
            want = (want_predictions,)
            got = (got,)
        else:
            want = want_neighbors
        for got_array, want_array in zip(got, want, strict=True):
            np.testing.assert_array_equal(got_array, want_array)


@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize("case", ["auto-tree", "float32-copy"])
def test_pickles_hold_the_fitted_state_without_the_index(estimator, case, builds):
    model, X, labels = _fit(estimator, case)
    never_queried = pickle.dumps(model)
    # the training rows and labels, not the tree (a copy of the rows) nor the float32 copy
    assert len(never_queried) < X.nbytes + labels.nbytes + 20_000
    Q = _queries(X)
    want = model.kneighbors(Q)
    assert pickle.dumps(model) == never_queried
    for loaded in (pickle.loads(never_queried), copy.deepcopy(model)):
        assert loaded._index.value is None
        got = loaded.kneighbors(Q)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert loaded._index.value.describe() == model._index.value.describe()
    assert len(builds) == 3
    # the loaded estimator has a lock of its own: threads may query it at once
    loaded = pickle.loads(never_queried)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: loaded.kneighbors(Q)[1], range(4)))
    for got in results:
        np.testing.assert_array_equal(got, want[1])
    assert len(builds) == 4


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_refit_drops_the_index(estimator, builds):
    model, X, labels = _fit(estimator, "auto-tree")
    Q = _queries(X)
    model.kneighbors(Q)
    assert model._index.value.tree is not None
    other, other_labels = _clustered(3_000, 5, seed=7)
    model.fit(other, other_labels)
    assert model._index.value is None
    want = estimator(n_neighbors=6).fit(other, other_labels).kneighbors(Q)
    got = model.kneighbors(Q)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert model._index.value.tree is None      # 3 000 rows: "auto" takes the brute force
    # a refit with a kernel leaves no index of the former rows
    model.set_params(kernel="linear").fit(other, other_labels)
    assert model._index.value is None


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_the_index_follows_the_parameters_of_the_fit(estimator, builds):
    """``algorithm`` and ``n_neighbors`` set after ``fit`` do not change the index the first
    query builds (it is the fit's, as when fit built it); ``n_jobs`` changes only the threads,
    not the choice of "auto" nor the neighbours."""
    model, X, labels = _fit(estimator, "auto-tree", n_jobs=1)
    model.set_params(algorithm="brute", n_jobs=2)
    Q = _queries(X)
    got = model.kneighbors(Q)
    assert model._index.value.tree is not None
    assert builds[0][1:] == ("auto", 6, effective_n_threads(2))
    want = estimator(n_neighbors=6, algorithm="brute").fit(X, labels).kneighbors(Q)
    np.testing.assert_array_equal(got[1], want[1])
    model.fit(X, labels)                        # the refit takes the new algorithm
    model.kneighbors(Q[:5])
    assert model._index.value.tree is None and builds[-1][1:3] == ("brute", 6)



@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_fork_child_builds_the_index_while_a_parent_thread_held_the_lock():
    model, X, _ = _fit(KNeighborsClassifier, "brute")
    model._index._lock.acquire()            # as a thread building the index at the fork would
    try:
        pid = os.fork()
        if pid == 0:
            signal.alarm(20)                # ends the child if it waits for the lock for ever
            found = False
            try:
                found = model.kneighbors(X[:5])[1].shape == (5, 6)
            finally:                        # never back into the parent's code
                os._exit(0 if found else 1)
        status = os.waitpid(pid, 0)[1]
    finally:
        model._index._lock.release()
    assert os.waitstatus_to_exitcode(status) == 0
