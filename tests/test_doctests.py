"""Every docstring example in the installed package runs and prints what it shows."""

import doctest
import importlib
import pkgutil

import pytest

import kernelkit

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(kernelkit.__path__, "kernelkit.")
    if not m.name.startswith(("kernelkit.bench", "kernelkit.demos", "kernelkit.__main__"))
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        # a module of an optional extra says which one in its ImportError
        if 'pip install "kernelkit[' not in str(exc):
            raise
        pytest.skip(str(exc))
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
