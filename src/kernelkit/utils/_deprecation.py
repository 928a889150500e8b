"""Deprecated names: one convention for the whole package.

A public name that moved to another module or was renamed stays importable from its old place
for one release: the package's module ``__getattr__`` (PEP 562) returns the object under its new
name with a ``FutureWarning`` that names it, and the old name is left out of ``__all__``. The
old name *is* the new object (``isinstance`` and ``clone`` see one class). A renamed parameter
follows scikit-learn instead: its default becomes ``"deprecated"`` and setting it warns.
"""

import importlib
import warnings

__all__ = ["moved_names"]


def moved_names(package, moved):
    """The module ``__getattr__`` of ``package`` serving the deprecated names of ``moved``.

    Parameters
    ----------
    package : str
        The package's dotted name (its ``__name__``).
    moved : dict of str to str
        Old name → the dotted path of the object it now is, e.g.
        ``{"GaussianMixture": "kernelkit.mixture.GaussianMixture"}``.
    """
    def __getattr__(name):
        if name not in moved:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, new_name = moved[name].rpartition(".")
        warnings.warn(f"{package}.{name} is deprecated and will be removed in the next release: "
                      f"use {moved[name]}, the same object.", FutureWarning, stacklevel=2)
        return getattr(importlib.import_module(module), new_name)
    return __getattr__
