"""The peers suite on tiny cases of every loop: each contender that is installed runs, agrees
with kernelkit (or with scikit-learn where kernelkit is missing), and a missing peer or a
kernelkit estimator that has not landed is reported, not a crash."""

import dataclasses

import pytest
from kernelkit.bench import case_summaries, format_table, run_suite
from kernelkit.bench.suites import peers

TINY = [
    dict(loop="svc", data="gaussian", n=400, d=20),
    dict(loop="kmeans", mode="iteration", n=2_000, d=5, k=10, dtype="float32"),
    dict(loop="kmeans", mode="convergence", n=2_000, d=5, k=10, dtype="float64"),
    dict(loop="dbscan", data="uniform", n=2_000, d=2),
    dict(loop="knn", n=1_000, n_query=100, d=10, dtype="float32"),
    dict(loop="knn", n=1_000, n_query=100, d=10, dtype="float64"),
    dict(loop="forest", n=600, d=20),
    dict(loop="hist", n=1_000, d=20),
    dict(loop="logistic", n=2_000, d=50, tol=1e-8),
    dict(loop="pca", n=2_000, d=20, solver="covariance_eigh"),
]
# what "the same result" means per loop: the lower bound of an agreement, the upper bound of a
# difference
# (the forests' accuracy on 150 held-out rows: 0.05 is a few rows)
AGREE = {"ARI": 0.999, "same neighbours": 0.99}
DIFFER = {"inertia rel. diff": 1e-5, "objective rel. gap": 1e-6, "variance rel. diff": 1e-8,
          "accuracy diff": 0.05}


@pytest.fixture(scope="module")
def rows():
    suite = dataclasses.replace(peers.SUITE, cases=lambda quick: TINY,
                                repeats=lambda params, quick: 1, warmup=False)
    with pytest.MonkeyPatch.context() as patch:  # a few boosting iterations, a few trees
        patch.setitem(peers.HIST, "max_iter", 10)
        patch.setattr(peers, "N_TREES", 10)
        return suite, run_suite(suite, quick=True, log=lambda *a: None)


def test_every_loop_runs_and_agrees(rows):
    _, rows = rows
    for row in rows:
        if "note" in row:
            assert row["note"].startswith("missing: "), row
            continue
        if row["case"]["loop"] == "svc" and row["contender"] != "kernelkit":
            assert row["values"]["same predictions"] >= 0.97, row
        checks = {k: v for k, v in row["values"].items() if k in AGREE or k in DIFFER}
        for key, value in checks.items():
            if key in AGREE:
                assert value >= AGREE[key], (row["case"], row["contender"], key, value)
            else:
                assert abs(value) <= DIFFER[key], (row["case"], row["contender"], key, value)
    ran = {(r["case"]["loop"], r["contender"]) for r in rows if "time" in r}
    assert {case["loop"] for case in TINY} <= {loop for loop, _ in ran}
    # scikit-learn implements every loop; every other contender is compared with the first
    assert all(("scikit-learn" in {c for lp, c in ran if lp == loop}) for loop, _ in ran)
    compared = [r for r in rows if "time" in r and r is not _first(rows, r["case"])]
    checked = set(AGREE) | set(DIFFER) | {"same predictions"}
    assert all(set(r["values"]) & checked for r in compared)


def _first(rows, case):
    return next(r for r in rows if r["case"] == case and "time" in r)


def test_the_peers_of_each_loop(rows):
    suite, rows = rows
    by_loop = {}
    for r in rows:
        by_loop.setdefault(r["case"]["loop"], set()).add(r["contender"])
    assert {"LightGBM", "XGBoost", "scikit-learn", "kernelkit"} <= by_loop["hist"]
    assert "sklearnex" not in by_loop["hist"] and "faiss" not in by_loop["forest"]
    faiss_cases = [r["case"] for r in rows if r["contender"] == "faiss"]
    assert faiss_cases and all(c["dtype"] == "float32" and c["loop"] in ("knn", "kmeans")
                               for c in faiss_cases)
    for summary in case_summaries(suite, rows):
        assert summary["fastest peer"] not in (None, "kernelkit")
    assert "Against the peers" in format_table(suite, rows, quick=True)


def test_a_kernelkit_estimator_not_yet_written_is_reported_missing():
    missing = peers.SUITE.contenders[1]
    assert missing.name == "kernelkit" and not missing.is_peer()
    from kernelkit import ensemble

    expected = [] if hasattr(ensemble, "HistGradientBoostingClassifier") else \
        ["kernelkit.ensemble:HistGradientBoostingClassifier"]
    assert missing.missing() == expected
    assert dataclasses.replace(missing, requires=("kernelkit.no_such_module:X",)).missing() \
        == ["kernelkit.no_such_module:X"]


def test_the_full_grid_has_one_case_per_loop_and_its_peers():
    full, quick = peers._cases(False), peers._cases(True)
    assert {c["loop"] for c in full} == {c["loop"] for c in quick} == {
        "svc", "kmeans", "dbscan", "knn", "forest", "hist", "logistic", "pca"}
    assert len(full) > len(quick)  # the million-row forest, boosting and PCA cases
    contenders = {c.name: c for c in peers.SUITE.contenders if c.applies is not None}
    big = next(c for c in full if c["loop"] == "dbscan" and c.get("n") == 300_000)
    assert not contenders["sklearnex"].applies(big)  # every pair of points: minutes
    assert not any(contenders["faiss"].applies(c) for c in full if c.get("dtype") == "float64")
