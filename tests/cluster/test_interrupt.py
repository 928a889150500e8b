"""Ctrl-C stops the clustering loops (the ``ctrl_c`` fixture of tests/conftest.py): each run
below would take minutes; after KeyboardInterrupt a second, small fit still works."""

import pytest

_AFTER = """
    print(len(model.fit(X[:1000]).labels_) == 1000)
"""


@pytest.mark.parametrize("algorithm, n_jobs", [
    ("kd_tree", 1),   # eps spans the data: counting stops at min_samples, the expansion is O(n²)
    ("brute", 2),     # blocked GEMM distances: O(n²) in the counting pass, on two threads
])
def test_ctrl_c_stops_dbscan(ctrl_c, algorithm, n_jobs):
    setup = f"""
        import numpy as np
        from kernelkit.cluster import DBSCAN
        X = np.random.default_rng(0).normal(size=(300_000, 3))
        model = DBSCAN(eps=100.0, algorithm="{algorithm}", n_jobs={n_jobs})
        run = lambda: model.fit(X)
    """
    assert ctrl_c(setup, _AFTER) == ["interrupted", "True"]


@pytest.mark.parametrize("init", [
    "build",          # O(k n²) greedy initialisation
    "k-medoids++",    # then FasterPAM's swap passes, O(n²) each
])
def test_ctrl_c_stops_kmedoids(ctrl_c, init):
    setup = f"""
        import numpy as np
        from kernelkit.cluster import KMedoids
        X = np.random.default_rng(0).normal(size=(40_000, 5))
        model = KMedoids(n_clusters=300, method="pam", init="{init}", max_iter=1000,
                         random_state=0, n_jobs=2)
        run = lambda: model.fit(X)
    """
    assert ctrl_c(setup, _AFTER) == ["interrupted", "True"]


def test_ctrl_c_stops_single_linkage(ctrl_c):
    # Prim's O(n²) minimum spanning tree over 100 000 samples
    setup = """
        import numpy as np
        from kernelkit.cluster import AgglomerativeClustering
        X = np.random.default_rng(0).normal(size=(100_000, 3))
        model = AgglomerativeClustering(linkage="single")
        run = lambda: model.fit(X)
    """
    assert ctrl_c(setup, _AFTER) == ["interrupted", "True"]


def test_ctrl_c_stops_kmeans_within_an_iteration(ctrl_c):
    # one Lloyd iteration over 200 000 samples and 2 000 centres is 2e10 multiply-adds
    setup = """
        import numpy as np
        from kernelkit.cluster import KMeans
        X = np.random.default_rng(0).normal(size=(200_000, 50))
        model = KMeans(2000, init="random", n_init=1, max_iter=1000, tol=0, random_state=0,
                       n_jobs=2)
        run = lambda: model.fit(X)
    """
    after = """
        print(len(model.set_params(n_clusters=3).fit(X[:1000]).labels_) == 1000)
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]


def test_ctrl_c_stops_kmedians_within_an_assignment(ctrl_c):
    # one ℓ1 assignment of 60 000 samples to 60 000 centres is 1.8e11 absolute differences
    # (minutes): without a look at the signals inside it, the run outlasts the timeout
    setup = """
        import numpy as np
        from kernelkit.cluster import KMedians
        X = np.random.default_rng(0).normal(size=(60_000, 50))
        model = KMedians(60_000, init=X, max_iter=1000, n_jobs=2)
        run = lambda: model.fit(X)
    """
    after = """
        print(len(model.set_params(n_clusters=3, init="random", random_state=0)
                  .fit(X[:1000]).labels_) == 1000)
    """
    assert ctrl_c(setup, after, timeout=30) == ["interrupted", "True"]
