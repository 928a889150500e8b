"""The numpydoc sections every public class documents: an estimator (or kernel) has Parameters,
Attributes, References (the course and the paper), See Also and Examples; any other public
class, Parameters (when it takes any) and Examples. The examples themselves run in
``tests/test_doctests.py``."""

import importlib
import inspect
import pkgutil

import pytest
from sklearn.base import BaseEstimator

import kernelkit

FAMILIES = sorted(m.name for m in pkgutil.iter_modules(kernelkit.__path__)
                  if m.ispkg and not m.name.startswith("_")
                  and m.name not in ("bench", "cli", "demos", "reference", "utils"))


def _public_classes():
    for family in FAMILIES:
        try:
            module = importlib.import_module(f"kernelkit.{family}")
        except ImportError as exc:  # an optional extra's family says which in its message
            if 'pip install "kernelkit[' not in str(exc):
                raise
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj):
                yield f"{family}.{name}", obj


CLASSES = dict(_public_classes())


def _required_sections(cls):
    if issubclass(cls, BaseEstimator):
        return ("Parameters", "Attributes", "References", "See Also", "Examples")
    takes_arguments = len(inspect.signature(cls).parameters) > 0
    return ("Parameters", "Examples") if takes_arguments else ("Examples",)


def _sections(doc):
    lines = inspect.cleandoc(doc or "").splitlines()
    return {line.strip() for line, underline in zip(lines, lines[1:])
            if underline.strip() and set(underline.strip()) == {"-"}
            and len(underline.strip()) == len(line.strip())}


@pytest.mark.parametrize("name", CLASSES)
def test_public_class_has_its_numpydoc_sections(name):
    cls = CLASSES[name]
    missing = [s for s in _required_sections(cls) if s not in _sections(cls.__doc__)]
    assert missing == [], f"{name} lacks {missing}"


def test_sections_are_read_from_numpydoc_headings():
    assert _sections("Title.\n\n    Parameters\n    ----------\n    x : int\n\n    See Also\n"
                     "    --------\n    y\n    Notes\n    --\n") == {"Parameters", "See Also"}
