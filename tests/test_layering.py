"""The import rules of the package, read from the source of every module.

Imports run one way: a family (``kernelkit.svm``, ``kernelkit.cluster``, ...) → ``kernelkit.utils``
→ ``kernelkit._core``. A family never imports another family's private module (the ensembles,
built on the tree family, are the one exception; the benchmarks, like the tests, may reach any
module); ``kernelkit.utils`` imports no family;
``kernelkit.reference`` (the readable twins the tests compare the cores with) imports neither the
cores nor the API; scikit-learn's private names come only through
``kernelkit.utils._sklearn_compat``.
"""

import ast
import pathlib

import pytest

import kernelkit

PACKAGE = pathlib.Path(kernelkit.__file__).resolve().parent
TESTS = pathlib.Path(__file__).resolve().parent
COMPAT = "kernelkit.utils._sklearn_compat"
# importer family -> families whose private modules it may import
PRIVATE_IMPORTS_ALLOWED = {"ensemble": {"tree"}}


def _module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path):
    """(line, imported module, imported names) of every import statement of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module, tuple(alias.name for alias in node.names)


def _python_files(root):
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


MODULES = [(path, _module_name(path)) for path in _python_files(PACKAGE)]


def _top(module):
    """The subpackage of kernelkit a dotted module name belongs to (``svm``, ``utils``, ...)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "kernelkit" else None


def _violations(rule):
    found = []
    for path, module in MODULES:
        for line, imported, names in _imports(path):
            problem = rule(module, imported, names)
            if problem:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {problem}")
    return found


def _utils_imports_no_family(module, imported, names):
    if _top(module) == "utils" and _top(imported) not in (None, "utils", "_core"):
        return f"kernelkit.utils imports the family module {imported}"


def _reference_imports_nothing_of_kernelkit(module, imported, names):
    if _top(module) == "reference" and _top(imported) not in (None, "reference"):
        return f"a twin imports {imported}: twins import neither the cores nor the API"


def _no_private_module_of_another_family(module, imported, names):
    importer, target = _top(module), _top(imported)
    if target in (None, "utils", "_core") or target == importer or importer == "bench":
        # the benchmarks time cores against their twins, as the tests compare them: they may
        # reach any private module
        return None
    private = any(part.startswith("_") for part in imported.split(".")[2:])
    if private and target not in PRIVATE_IMPORTS_ALLOWED.get(importer, ()):
        return f"imports {imported}, a private module of the family {target}"


@pytest.mark.parametrize("rule", [
    _utils_imports_no_family,
    _reference_imports_nothing_of_kernelkit,
    _no_private_module_of_another_family,
], ids=lambda rule: rule.__name__.strip("_"))
def test_imports_run_one_way(rule):
    assert _violations(rule) == []


def _private_sklearn(imported, names):
    private_module = any(part.startswith("_") for part in imported.split(".")[1:])
    return imported.split(".")[0] == "sklearn" and (
        private_module or any(name.startswith("_") for name in names))


@pytest.mark.parametrize("root", [PACKAGE, TESTS], ids=["kernelkit", "tests"])
def test_private_scikit_learn_names_only_through_the_compat_module(root):
    found = [f"{path}:{line}: {imported} {', '.join(names)}"
             for path in _python_files(root)
             if not str(path).endswith("_sklearn_compat.py")
             for line, imported, names in _imports(path)
             if _private_sklearn(imported, names)]
    assert found == []


def test_the_rules_catch_what_they_forbid():
    # each rule, on an import it must refuse and one it must let through
    assert _utils_imports_no_family("kernelkit.utils._gram", "kernelkit.svm._base", ())
    assert not _utils_imports_no_family("kernelkit.utils._gram", "kernelkit._core._gram", ())
    assert _reference_imports_nothing_of_kernelkit("kernelkit.reference.smo",
                                                   "kernelkit._core._smo_solver", ())
    assert _no_private_module_of_another_family("kernelkit.mkl._simple_mkl",
                                                "kernelkit.svm._classes", ())
    assert not _no_private_module_of_another_family("kernelkit.mkl._simple_mkl",
                                                    "kernelkit.svm", ())
    assert not _no_private_module_of_another_family("kernelkit.ensemble._forest",
                                                    "kernelkit.tree._classes", ())
    assert not _no_private_module_of_another_family("kernelkit.bench.suites.trees",
                                                    "kernelkit.tree._growth", ())
    assert _private_sklearn("sklearn.utils._param_validation", ("Interval",))
    assert _private_sklearn("sklearn.base", ("_fit_context",))
    assert not _private_sklearn("sklearn.base", ("BaseEstimator",))
