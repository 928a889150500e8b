"""The README's examples are tests: every ```python block runs (in a fresh namespace) and prints
what the ```text block right after it shows, numbers within a tolerance."""

import ast
import contextlib
import importlib.util
import io
import math
import pathlib
import re

import pytest

# tests/ sits next to README.md in a checkout and in CI's copy (.ci/run copies both)
README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"^```(\w*)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
# Printed values may move a little with the BLAS, the CPU or a library's minor version (an SVM
# prediction flipping in one fold moves an accuracy by ~0.005); integers must match exactly
# unless large (iteration counts).
REL_TOL, ABS_TOL = 0.02, 0.01
# modules of kernelkit's optional extras: an example that imports one is skipped without it
EXTRA_OF_MODULE = {"dask": "distributed", "distributed": "distributed", "zarr": "distributed"}


def _examples():
    if not README.is_file():
        return []
    text = README.read_text(encoding="utf-8")
    blocks = [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1)
              for m in FENCE.finditer(text)]
    examples = []
    for i, (language, code, line) in enumerate(blocks):
        if language != "python":
            continue
        follows = blocks[i + 1] if i + 1 < len(blocks) else None
        expected = follows[1] if follows and follows[0] == "text" else None
        examples.append(pytest.param(code, expected, id=f"README.md:{line}"))
    return examples


def _missing_extras(code):
    """The optional extras whose modules ``code`` imports and that are not installed."""
    modules = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module.split(".")[0])
    return sorted({EXTRA_OF_MODULE[m] for m in modules
                   if m in EXTRA_OF_MODULE and not _installed(m)})


def _installed(module):
    # a namespace package (no origin) is a folder such as tests/distributed on sys.path
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.origin is not None


def _split(output):
    """The text around the numbers (whitespace-normalised, numpy pads arrays) and the numbers."""
    skeleton = " ".join(NUMBER.sub("#", output).split())
    return skeleton, [float(x) for x in NUMBER.findall(output)]


def test_readme_has_examples():
    if not README.is_file():
        pytest.skip(f"{README} is not here (tests run outside a checkout)")
    assert len(_examples()) >= 3


@pytest.mark.parametrize("code, expected", _examples())
def test_readme_example_prints_what_the_readme_shows(code, expected):
    assert expected is not None, "a ```python block of the README must be followed by a ```text " \
                                 "block showing what it prints"
    for extra in _missing_extras(code):
        pytest.skip(f'needs the {extra} extra: pip install "kernelkit[{extra}]"')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})
    got_text, got_numbers = _split(out.getvalue())
    want_text, want_numbers = _split(expected)
    assert got_text == want_text, f"printed:\n{out.getvalue()}\nREADME shows:\n{expected}"
    for got, want in zip(got_numbers, want_numbers):
        assert math.isclose(got, want, rel_tol=REL_TOL, abs_tol=ABS_TOL), \
            f"printed {got}, README shows {want}:\n{out.getvalue()}"


def test_examples_that_import_an_extra_name_it():
    code = "import numpy\nfrom kernelkit_no_such_extra import x\nimport dask.array\n"
    EXTRA_OF_MODULE["kernelkit_no_such_extra"] = "imaginary"
    try:
        missing = _missing_extras(code)
    finally:
        del EXTRA_OF_MODULE["kernelkit_no_such_extra"]
    assert "imaginary" in missing
    assert ("distributed" in missing) == (not _installed("dask"))
