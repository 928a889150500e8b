"""The UCI Adult census table (income above or below 50 000 dollars a year), shipped with
kernelkit: mixed numeric and categorical features, for the gradient boosting examples."""

import csv
import gzip
import io
from importlib import resources

import numpy as np
from sklearn.utils import Bunch

__all__ = ["load_adult"]

NUMERIC = ("age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hr_per_week")
CATEGORICAL = ("type_employer", "education", "marital", "occupation", "relationship", "race",
               "sex", "country")
TARGET = "income"
# the file's column order
HEADER = ("age", "type_employer", "fnlwgt", "education", "education_num", "marital",
          "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss",
          "hr_per_week", "country", TARGET)


def load_adult(*, as_frame=True):
    """30 162 adults of the 1994 US census, whether their income exceeds 50 000 dollars a year
    (``"<=50K"``: 22 654, ``">50K"``: 7 508), shipped with kernelkit.

    UCI Machine Learning Repository, "Adult" (Becker & Kohavi 1996); licence CC BY 4.0. The
    training part without the rows that miss a value. 14 features in the file's order: 6
    numeric (``age``, ``fnlwgt``, ``education_num``, ``capital_gain``, ``capital_loss``,
    ``hr_per_week``) and 8 categorical (``type_employer``, ``education``, ``marital``,
    ``occupation``, ``relationship``, ``race``, ``sex``, ``country``, the last with 41
    values). ``education_num`` is the rank of ``education``. Provenance:
    ``kernelkit/datasets/data/uci_adult/README.md``.

    Parameters
    ----------
    as_frame : bool, default=True
        True: pandas objects, the categorical columns of dtype ``category`` (which
        ``HistGradientBoostingClassifier(categorical_features="from_dtype")`` splits natively)
        and the numeric ones ``int64``; needs pandas. False: NumPy arrays, as scikit-learn's
        ``fetch_openml(as_frame=False)`` returns them: a float64 matrix where a categorical
        column holds the code of each value, its index in ``categories[name]``.

    Returns
    -------
    data : sklearn.utils.Bunch
        ``data`` (DataFrame of shape (30162, 14), or ndarray of float64), ``target`` (Series of
        dtype ``category`` named ``"income"``, or ndarray of str), ``frame`` (DataFrame of
        ``data`` and ``target``; None when ``as_frame=False``), ``categories`` (dict: a
        categorical feature's name to its sorted values, the codes' meaning; None when
        ``as_frame=True``, where the dtypes carry them), ``feature_names`` (list of 14 str),
        ``DESCR`` (the provenance).

    Raises
    ------
    TypeError
        If ``as_frame`` is not a bool.
    ImportError
        If ``as_frame=True`` and pandas is not installed.

    References
    ----------
    B. Becker and R. Kohavi, "Adult", UCI Machine Learning Repository, 1996,
    doi:10.24432/C5XW20. R. Kohavi, "Scaling up the accuracy of naive-Bayes classifiers: a
    decision-tree hybrid", KDD 1996.

    Examples
    --------
    >>> from kernelkit.datasets import load_adult
    >>> adult = load_adult()
    >>> adult.data.shape, adult.target.value_counts().to_dict()
    ((30162, 14), {'<=50K': 22654, '>50K': 7508})
    >>> [name for name in adult.feature_names if adult.data[name].dtype == "category"][:4]
    ['type_employer', 'education', 'marital', 'occupation']
    >>> arrays = load_adult(as_frame=False)
    >>> arrays.data.dtype, arrays.categories["sex"], arrays.data[:2, 9].tolist()
    (dtype('float64'), ['Female', 'Male'], [1.0, 1.0])
    """
    if not isinstance(as_frame, (bool, np.bool_)):
        raise TypeError(f"as_frame must be True (pandas data frame) or False (NumPy arrays), "
                        f"got {as_frame!r}.")
    pandas = _import_pandas() if as_frame else None
    folder = resources.files("kernelkit.datasets") / "data" / "uci_adult"
    columns = _read_columns(folder / "adult.csv.gz")
    feature_names = list(HEADER[:-1])
    values = {name: np.asarray(columns[name], dtype=np.int64) for name in NUMERIC}
    categories = {}
    for name in CATEGORICAL:
        categories[name], values[name] = np.unique(columns[name], return_inverse=True)
    target = np.asarray(columns[TARGET], dtype=str)
    descr = (folder / "README.md").read_text("utf-8")
    if not as_frame:
        data = np.column_stack([values[name] for name in feature_names]).astype(np.float64)
        return Bunch(data=data, target=target, frame=None,
                     categories={name: categories[name].tolist() for name in CATEGORICAL},
                     feature_names=feature_names, DESCR=descr)
    data = pandas.DataFrame({
        name: (pandas.Categorical.from_codes(values[name], categories[name].tolist())
               if name in categories else values[name])
        for name in feature_names})
    target = pandas.Series(pandas.Categorical(target), name=TARGET)
    frame = pandas.concat([data, target], axis=1)
    return Bunch(data=data, target=target, frame=frame, categories=None,
                 feature_names=feature_names, DESCR=descr)


def _import_pandas():
    try:
        import pandas
    except ImportError as exc:
        raise ImportError(
            f"load_adult(as_frame=True) returns pandas data frames and needs pandas ({exc}): "
            "install it with pip install pandas, or pass as_frame=False for NumPy arrays."
        ) from exc
    return pandas


def _read_columns(file):
    """The shipped CSV as ``{column name: tuple of str}``, its header checked."""
    text = gzip.decompress(file.read_bytes()).decode("ascii")
    rows = list(csv.reader(io.StringIO(text)))
    if tuple(rows[0]) != HEADER or any(len(row) != len(HEADER) for row in rows[1:]):
        raise RuntimeError("the shipped file data/uci_adult/adult.csv.gz is damaged: reinstall "
                           "kernelkit")
    return dict(zip(HEADER, zip(*rows[1:])))
