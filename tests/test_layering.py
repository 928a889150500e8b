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
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

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


# The benchmarks (kernelkit.bench, source in bench/, installed with the package) are a leaf: like
# the tests they may import any module of kernelkit, the twins and the private modules included
# (they time the cores against them), but only the command line imports them, and a peer library
# is imported where its contender runs, so that a missing peer is reported, not a crash.
BENCH = pathlib.Path(importlib.util.find_spec("kernelkit.bench").origin).parent
BENCH_MODULES = [(path, ".".join(("kernelkit", "bench",
                                  *path.relative_to(BENCH).with_suffix("").parts))
                  .removesuffix(".__init__"))
                 for path in _python_files(BENCH)]
# what a benchmark module may import at its top: the standard library, kernelkit and its
# dependencies (pyproject.toml's [project] dependencies, by import name)
DEPENDENCIES = {"numpy", "scipy", "sklearn", "joblib", "threadpoolctl", "networkx"}


def _top_level_imports(path):
    """(line, imported module) of the import statements run when the module is imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module


def test_only_the_command_line_imports_the_benchmarks():
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}: imports {imported}"
             for path, module in MODULES
             if _top(module) not in ("bench", "cli")
             for line, imported, _ in _imports(path)
             if _top(imported) == "bench"]
    assert found == []


def test_benchmarks_import_peers_only_where_they_run():
    allowed = set(sys.stdlib_module_names) | DEPENDENCIES | {"kernelkit"}
    found = [f"{path.relative_to(BENCH.parent)}:{line}: {imported}"
             for path, _ in BENCH_MODULES for line, imported in _top_level_imports(path)
             if imported.split(".")[0] not in allowed]
    assert BENCH_MODULES
    assert found == []


def test_benchmarks_reach_private_scikit_learn_names_only_through_the_compat_module():
    found = [f"{path.relative_to(BENCH.parent)}:{line}: {imported} {', '.join(names)}"
             for path, _ in BENCH_MODULES for line, imported, names in _imports(path)
             if _private_sklearn(imported, names)]
    assert found == []


# No absolute path of one machine in a tracked file: a user's home folder, the work area of the
# machines this project is developed on, a temporary folder. Not inside a relative path, a URL
# or "$VARIABLE/..." (the character before the path's first slash is none of those).
_MACHINE_PATH = re.compile(
    r"(?<![\w.~$})\]/-])(?:/(?:home|Users)/[\w.-]+/|/(?:work|root|tmp|var/folders)/)"
    r"|\b[A-Za-z]:\\Users\\")
# (file, pattern of the path): why it may stay. Slashes escaped so that this file does not
# match itself.
MACHINE_PATHS_ALLOWED = {
    ("CONTRIBUTING.md", r"\/tmp\/asan(?:-build|-run)?\b"):
        "the AddressSanitizer recipe: scratch folders the reader's commands create",
}
# folders of a working tree that are not the project's files (a walk without git)
_NOT_TRACKED = re.compile(r"\.(?!ci$|github$).*|__pycache__|build|dist|.*venv.*|.*\.egg-info")


def _repository_files():
    """The tracked files (``git ls-files``); without git, every file of the tree but the
    build's, caches' and virtual environments' folders."""
    root = TESTS.parent
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
        if pathlib.Path(top).resolve() == root.resolve():
            listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z"],
                                    capture_output=True, text=True, check=True).stdout
            return [root / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if not _NOT_TRACKED.fullmatch(name)]
        files += [pathlib.Path(folder) / name for name in names]
    return files


def _machine_paths(path, relative):
    """``"file:line: path"`` for each absolute path of one machine in a text file."""
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return []  # binary
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _MACHINE_PATH.finditer(line):
            whole = re.match(r"[^\s`'\"()<>\[\],;]*", line[match.start():]).group(0)
            if not any(file == relative and re.match(pattern, whole)
                       for file, pattern in MACHINE_PATHS_ALLOWED):
                found.append(f"{relative}:{number}: {whole}")
    return found


def test_no_absolute_path_of_a_machine_in_a_tracked_file():
    root = TESTS.parent
    found = [line for path in _repository_files() if path.is_file() and not path.is_symlink()
             for line in _machine_paths(path, path.relative_to(root).as_posix())]
    assert found == []


def test_the_machine_path_pattern():
    # the examples are written with "|" for "/", so that this file holds no such path
    for text in ["see |work|venv-base", "(`|home|alice|data`)", "C:\\Users\\bob\\x",
                 "cd |tmp|pytest-of-root|x", "|Users|carol|src", "|root|.cache|pip"]:
        assert _MACHINE_PATH.search(text.replace("|", "/")), text
    for text in ["$work|venv-wheel", "frame|work|x", "https:||example.org|home|x|",
                 "~|work|x", "|proc|self|status", "|usr|bin|env", "|tmp", "|home|"]:
        assert not _MACHINE_PATH.search(text.replace("|", "/")), text
