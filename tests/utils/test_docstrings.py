"""The one docstring-sharing convention: ``%(name)s`` placeholders filled by name."""

import pytest

from kernelkit.utils._docstrings import fill_doc, filled_doc


def test_placeholders_are_filled_and_other_percent_signs_kept():
    assert filled_doc("a %(x)s b, 5 % of %d", x="X") == "a X b, 5 % of %d"


def test_a_section_may_hold_placeholders_of_its_own():
    assert filled_doc("%(outer)s", outer="<%(inner)s>", inner="i") == "<i>"


def test_a_placeholder_without_text_is_an_error():
    with pytest.raises(KeyError, match="missing"):
        filled_doc("%(missing)s and %(x)s", x="X")


def test_sections_filling_each_other_forever_are_an_error():
    with pytest.raises(ValueError, match="cycle"):
        filled_doc("%(a)s", a="%(b)s", b="%(a)s")


def test_the_decorator_fills_a_class_docstring():
    @fill_doc(shared="alpha : float")
    class Example:
        """Parameters\n    %(shared)s"""

    assert Example.__doc__ == "Parameters\n    alpha : float"
