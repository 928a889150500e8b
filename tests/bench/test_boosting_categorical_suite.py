"""The `boosting_categorical` suite: declared, a fixed stratified split of the Adult table, the
same trees asked of every contender, and the contenders agreeing on a few rounds."""

import dataclasses

import numpy as np
import pytest
from kernelkit.bench._harness import available_suites, load_suite, run_suite
from kernelkit.bench.suites import boosting_categorical


ROUNDS = 5
CATEGORICAL = ["type_employer", "education", "marital", "occupation", "relationship", "race",
               "sex", "country"]


@pytest.fixture(scope="module")
def data():
    return boosting_categorical._setup({"rounds": ROUNDS})


def test_suite_is_declared_with_kernelkit_first():
    assert "boosting_categorical" in available_suites()
    suite = load_suite("boosting_categorical")
    assert [c.name for c in suite.contenders] == ["kernelkit", "lightgbm", "scikit-learn"]
    assert suite.cases(False) == [{"rounds": 200}] and suite.cases(True) == [{"rounds": 50}]


def test_split_is_fixed_and_stratified(data):
    assert data["X"].shape == (21113, 14) and data["X_test"].shape == (9049, 14)
    assert data["categorical"] == CATEGORICAL
    assert all(data["X"][name].dtype == "category" for name in CATEGORICAL)
    # stratified: the test part holds 30 % of each class, to a row
    assert abs(data["y_test"].sum() - 0.3 * 7508) < 1
    again = boosting_categorical._setup({"rounds": ROUNDS})
    assert again["X_test"].index.equals(data["X_test"].index)
    np.testing.assert_array_equal(again["y"], data["y"])


def test_lightgbm_is_asked_for_the_same_trees(data):
    pytest.importorskip("lightgbm")
    params = boosting_categorical._lightgbm(data).get_params()
    assert {key: params[key] for key in ("n_estimators", "learning_rate", "num_leaves",
                                         "max_bin", "min_child_samples", "reg_lambda",
                                         "subsample", "colsample_bytree")} == {
        "n_estimators": ROUNDS, "learning_rate": 0.1, "num_leaves": 31, "max_bin": 255,
        "min_child_samples": 20, "reg_lambda": 0.0, "subsample": 1.0, "colsample_bytree": 1.0}
    theirs = boosting_categorical._sklearn(data).get_params()
    assert {key: theirs[key] for key in boosting_categorical.SHARED} == \
        boosting_categorical.SHARED


def test_peers_agree_on_a_few_rounds(data):
    pytest.importorskip("lightgbm")
    by_name = {c.name: c for c in boosting_categorical.SUITE.contenders}
    lightgbm = by_name["lightgbm"].run(data)
    sklearn = by_name["scikit-learn"].run(data)
    # different categorical rules (LightGBM's cat_l2, one-vs-rest below 5 categories), the
    # same data and trees: close held-out scores
    assert sklearn["roc_auc"] > 0.85 and abs(lightgbm["roc_auc"] - sklearn["roc_auc"]) < 0.01
    assert abs(lightgbm["log_loss"] - sklearn["log_loss"]) < 0.02


def test_kernelkit_runs_and_matches_scikit_learn(data):
    suite = dataclasses.replace(boosting_categorical.SUITE,
                                cases=lambda quick: [{"rounds": ROUNDS}],
                                repeats=lambda params, quick: 1, warmup=False)
    rows = {row["contender"]: row for row in run_suite(suite, quick=True, log=lambda *a: None)}
    ours, theirs = rows["kernelkit"]["values"], rows["scikit-learn"]["values"]
    # the same algorithm with scikit-learn's categorical rule: the same scores up to rounding
    assert abs(ours["roc_auc"] - theirs["roc_auc"]) < 1e-3
    assert abs(ours["log_loss"] - theirs["log_loss"]) < 1e-3
