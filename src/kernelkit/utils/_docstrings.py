"""Docstring text shared by sibling estimators, written once and filled in by name.

One convention for the whole package (SciPy's ``doccer``): a docstring holds ``%(name)s``
placeholders and the decorator :func:`fill_doc` replaces each by its text. Any other ``%`` of the
docstring is left alone, and a placeholder without a text is an error at import time rather than
a hole in the documentation.
"""

import re

__all__ = ["fill_doc", "filled_doc"]

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def filled_doc(doc, **sections):
    """``doc`` with every ``%(name)s`` replaced by ``sections[name]``; a section's text may hold
    placeholders of its own, filled in turn.

    >>> filled_doc("Parameters\\n%(common)s", common="alpha : %(kind)s", kind="float")
    'Parameters\\nalpha : float'
    """
    for _ in range(len(sections) + 1):
        names = set(_PLACEHOLDER.findall(doc))
        if not names:
            return doc
        missing = sorted(names - sections.keys())
        if missing:
            raise KeyError(f"docstring placeholders without a text: {', '.join(missing)}")
        doc = _PLACEHOLDER.sub(lambda match: sections[match.group(1)], doc)
    raise ValueError("docstring sections that fill each other in a cycle")


def fill_doc(**sections):
    """Decorator filling the ``%(name)s`` placeholders of a class's or function's docstring
    (:func:`filled_doc`)."""
    def fill(obj):
        obj.__doc__ = filled_doc(obj.__doc__, **sections)
        return obj
    return fill
