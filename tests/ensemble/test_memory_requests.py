"""Ensembles of more trees than memory can hold are refused before any tree grows."""

import numpy as np
import pytest

from kernelkit.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

X = np.random.default_rng(0).normal(size=(30, 3))
y = np.arange(30) % 3


@pytest.mark.parametrize("Ensemble", [RandomForestClassifier, RandomForestRegressor,
                                      GradientBoostingRegressor, AdaBoostClassifier,
                                      BaggingClassifier])
def test_an_absurd_number_of_estimators_is_refused_up_front(Ensemble):
    # 10¹⁵ trees of at least 1 KiB each: about 1 EiB
    with pytest.raises(ValueError, match=rf"{Ensemble.__name__}\(n_estimators=10{{15}}\) "
                                         r"\(10{15} trees\) would need about .*TiB.*lower "
                                         r"n_estimators"):
        Ensemble(n_estimators=10**15).fit(X, y)


def test_boosting_counts_one_tree_per_class_and_stage():
    with pytest.raises(ValueError, match=r"\(n_estimators=10{14}\) \(3(0){14} trees\)"):
        GradientBoostingClassifier(n_estimators=10**14).fit(X, y)


def test_a_forest_under_an_address_space_limit_is_refused(under_address_limit):
    # 10⁷ trees: 10 GiB of seeds, bootstrap counts and tree objects, refused under 1 GiB
    result = under_address_limit(
        "import numpy as np\nfrom kernelkit.ensemble import RandomForestRegressor\n"
        "X = np.arange(40.0).reshape(20, 2)",
        "RandomForestRegressor(n_estimators=10**7).fit(X, X[:, 0])")
    assert result.returncode == 0, result.stderr
    assert "ValueError: RandomForestRegressor(n_estimators=10000000)" in result.stdout
    assert "RLIMIT_AS" in result.stdout
