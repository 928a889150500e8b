"""The shipped UCI Adult table: the file its README describes, as data frames and as arrays."""

import hashlib
import re
import sys
from importlib import resources

import numpy as np
import pytest

from kernelkit.datasets import load_adult

FOLDER = resources.files("kernelkit.datasets") / "data" / "uci_adult"
NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hr_per_week"]
# number of values of each categorical column, from the README
N_CATEGORIES = {"type_employer": 7, "education": 16, "marital": 7, "occupation": 14,
                "relationship": 6, "race": 5, "sex": 2, "country": 41}


@pytest.fixture(scope="module")
def adult():
    return load_adult()


@pytest.fixture(scope="module")
def arrays():
    return load_adult(as_frame=False)


def test_shipped_file_has_the_readme_checksum():
    readme = (FOLDER / "README.md").read_text("utf-8")
    recorded = re.search(r"^([0-9a-f]{64})  adult\.csv\.gz$", readme, re.MULTILINE).group(1)
    digest = hashlib.sha256((FOLDER / "adult.csv.gz").read_bytes()).hexdigest()
    assert digest == recorded == \
        "62114d906adba4751e67c01d062f6e275f8b79d00150bfd9d5013516080f8a89"


def test_frame_shape_dtypes_and_classes(adult):
    assert adult.data.shape == (30162, 14)
    assert list(adult.data.columns) == adult.feature_names
    assert {name: adult.data[name].dtype.name for name in NUMERIC} == dict.fromkeys(
        NUMERIC, "int64")
    assert {name: len(adult.data[name].cat.categories) for name in N_CATEGORIES} == N_CATEGORIES
    assert set(adult.feature_names) == set(NUMERIC) | set(N_CATEGORIES)
    assert adult.target.name == "income" and adult.target.dtype == "category"
    assert adult.target.value_counts().to_dict() == {"<=50K": 22654, ">50K": 7508}
    assert adult.frame.shape == (30162, 15)
    assert adult.frame["income"].equals(adult.target)
    assert adult.categories is None and "CC BY 4.0" in adult.DESCR
    assert not adult.data.isna().any().any()


def test_education_num_is_the_rank_of_education(adult):
    # one number per education level and one level per number, 1 (Preschool) to 16 (Doctorate)
    pairs = adult.data[["education", "education_num"]].drop_duplicates()
    assert len(pairs) == 16 and sorted(pairs["education_num"]) == list(range(1, 17))
    rank = dict(zip(pairs["education"].astype(str), pairs["education_num"]))
    assert (rank["Preschool"], rank["HS-grad"], rank["Doctorate"]) == (1, 9, 16)


def test_arrays_hold_the_same_table_as_codes(adult, arrays):
    assert arrays.data.shape == (30162, 14) and arrays.data.dtype == np.float64
    assert arrays.frame is None and arrays.feature_names == adult.feature_names
    np.testing.assert_array_equal(arrays.target, adult.target.astype(str).to_numpy())
    for j, name in enumerate(arrays.feature_names):
        column = adult.data[name]
        if name in N_CATEGORIES:
            assert arrays.categories[name] == sorted(arrays.categories[name])
            assert arrays.categories[name] == column.cat.categories.tolist()
            np.testing.assert_array_equal(arrays.data[:, j], column.cat.codes)
        else:
            np.testing.assert_array_equal(arrays.data[:, j], column)
    assert set(arrays.categories) == set(N_CATEGORIES)


@pytest.mark.parametrize("as_frame", ["yes", 1, None])
def test_as_frame_must_be_a_bool(as_frame):
    with pytest.raises(TypeError, match=r"^as_frame must be True .* or False .*, got "):
        load_adult(as_frame=as_frame)


def test_without_pandas_the_error_names_it_and_arrays_still_load(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"needs pandas .*pip install pandas, or pass "
                                          r"as_frame=False"):
        load_adult()
    assert load_adult(as_frame=False).data.shape == (30162, 14)
