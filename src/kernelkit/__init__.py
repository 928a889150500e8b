"""kernelkit: machine-learning estimators with compiled Cython cores.

Subpackages: ``cluster``, ``mixture``, ``kernels``, ``svm``, ``decomposition``, ``manifold``,
``datasets``, ...
Pure-Python twins of every compiled core live in ``kernelkit.reference``.
"""

try:
    from kernelkit._core import _openmp as _probe  # noqa: F401
except ImportError as exc:  # pragma: no cover - only hit from an unbuilt source tree
    raise ImportError(
        "kernelkit's compiled cores (kernelkit._core) could not be imported: "
        f"{exc}. You are probably importing the source tree without building it. "
        "Install it with `pip install .` from the repository root (for an editable "
        "development install, see the Development section of the README), and run Python "
        "from outside the source directory."
    ) from exc

from kernelkit._version import __version__  # noqa: E402 (written by the build)
