"""The rules of the contributor's guide, read from the source of every module and core.

Imports run one way: a family (``kernelkit.svm``, ``kernelkit.cluster``, ...) → ``kernelkit.utils``
→ ``kernelkit._core``. A family never imports another family's private module (the ensembles,
built on the tree family, are the one exception; the benchmarks, like the tests, may reach any
module); ``kernelkit.utils`` imports no family, and every one of its modules serves at least two
families (a helper of one family lives in that family); ``kernelkit.reference`` (the readable
twins the tests compare the cores with) imports neither the cores nor the API, and only the
benchmarks import it; scikit-learn's private names come only through
``kernelkit.utils._sklearn_compat``.

The compiled cores (``_core/``, read as text; skipped where the tests run without the source
tree): files of at most 800 lines, functions of at most 150 lines and 10 arguments, ``cimport``
only of the shared ``.pxd`` files, Cython, the C library and SciPy's BLAS/LAPACK, OpenMP only
through ``_omp.h``, no per-file compiler directives, memoryviews rather than NumPy buffers, and
every core module on ``_interrupt.pxd``.
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


def _reference_only_in_benchmarks(module, imported, names):
    if _top(imported) == "reference" and _top(module) not in ("reference", "bench"):
        return f"imports {imported}: the twins are test and benchmark oracles, not library code"


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
    _reference_only_in_benchmarks,
], ids=lambda rule: rule.__name__.strip("_"))
def test_imports_run_one_way(rule):
    assert _violations(rule) == []


def _families_using(module, importers, seen=()):
    """The families that import ``module``, directly or through other utils modules."""
    families = set()
    for importer in importers.get(module, ()):
        if _top(importer) == "utils" and importer not in seen:
            families |= _families_using(importer, importers, (*seen, module))
        elif _top(importer) not in (None, "utils"):
            families.add(_top(importer))
    return families


def test_every_utils_module_serves_several_families():
    importers = {}
    for path, module in MODULES:
        for _, imported, names in _imports(path):
            for target in (imported, *(f"{imported}.{name}" for name in names)):
                importers.setdefault(target, set()).add(module)
    # the tests and benchmarks are not families: a helper only they use is not a shared helper
    lonely = {module: sorted(_families_using(module, importers) - {"bench"})
              for _, module in MODULES
              if _top(module) == "utils" and module != "kernelkit.utils"}
    assert {m: f for m, f in lonely.items() if len(f) < 2} == {}


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
    assert _reference_only_in_benchmarks("kernelkit.demos.kmeans", "kernelkit.reference", ())
    assert not _reference_only_in_benchmarks("kernelkit.bench.suites.kmeans",
                                             "kernelkit.reference", ())
    assert _private_sklearn("sklearn.utils._param_validation", ("Interval",))
    assert _private_sklearn("sklearn.base", ("_fit_context",))
    assert not _private_sklearn("sklearn.base", ("BaseEstimator",))


# ---------------------------------------------------------------------------- compiled cores

CORE = TESTS.parent / "_core"
needs_core_sources = pytest.mark.skipif(not CORE.is_dir(), reason="the _core/ sources are absent")
MAX_FILE_LINES, MAX_FUNCTION_LINES, MAX_ARGUMENTS = 800, 150, 10
# (file, function) -> why it is over a limit for now
CORE_EXCEPTIONS = {}
CIMPORT_FROM_OUTSIDE = ("cython", "libc", "libcpp", "cpython", "scipy.linalg.cython_blas",
                        "scipy.linalg.cython_lapack")
# core modules without a loop over samples or pairs, and so without Ctrl-C checks
NO_INTERRUPT_NEEDED = {
    "_openmp.pyx": "probes the OpenMP runtime: no loop over data",
    "_kmeans_seeding.pyx": "a GEMM and a linear pass per block of samples, one call a seeding "
                           "step; the seeding loop returns to Python between its steps",
}
_DEFINITION = re.compile(r"^(\s*)(?:cdef|cpdef|def)\s+(?!class\b|struct\b|enum\b|extern\b|union\b"
                         r"|packed\b|fused\b|public\b)[^=(]*?(\w+)\s*\(")


def _core_files(*suffixes):
    return sorted(p for p in CORE.iterdir() if p.suffix in suffixes)


def _top_level_commas(text):
    depth, count = 0, 0
    for char in text:
        depth += char in "([" and 1 or (char in ")]" and -1 or 0)
        count += char == "," and depth == 0
    return count


def core_functions(path):
    """(name, first line, number of lines, number of arguments) of every function defined (with
    a body) in a ``.pyx``/``.pxd`` file; comments are left out of the signature."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        match = _DEFINITION.match(lines[i])
        if not match:
            i += 1
            continue
        indent, name = len(match.group(1)), match.group(2)
        signature, j = lines[i].split("#")[0], i
        while signature.count("(") > signature.count(")") and j + 1 < len(lines):
            j += 1
            signature += " " + lines[j].split("#")[0].strip()
        if not signature.rstrip().endswith(":"):
            i = j + 1  # a declaration (a .pxd prototype), no body
            continue
        arguments = signature[signature.index("(") + 1:signature.rindex(")")].strip().rstrip(",")
        n_arguments = _top_level_commas(arguments) + 1 if arguments else 0
        end = j + 1
        while end < len(lines) and (not lines[end].strip()
                                    or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        while not lines[end - 1].strip():
            end -= 1
        found.append((name, i + 1, end - i, n_arguments))
        i = j + 1
    return found


@needs_core_sources
def test_core_files_and_functions_are_small():
    over = []
    for path in _core_files(".pyx", ".pxd"):
        n_lines = len(path.read_text(encoding="utf-8").splitlines())
        if n_lines > MAX_FILE_LINES:
            over.append(f"{path.name}: {n_lines} lines")
        for name, line, n_lines, n_arguments in core_functions(path):
            if (path.name, name) in CORE_EXCEPTIONS:
                continue
            if n_lines > MAX_FUNCTION_LINES or n_arguments > MAX_ARGUMENTS:
                over.append(f"{path.name}:{line}: {name}, {n_lines} lines, {n_arguments} arguments")
    assert over == []


@needs_core_sources
def test_core_exceptions_are_still_needed():
    functions = {(path.name, name): (n_lines, n_arguments)
                 for path in _core_files(".pyx", ".pxd")
                 for name, _, n_lines, n_arguments in core_functions(path)}
    for key in CORE_EXCEPTIONS:
        n_lines, n_arguments = functions[key]
        assert n_lines > MAX_FUNCTION_LINES or n_arguments > MAX_ARGUMENTS, key


def _cimported_modules(text):
    for line in text.splitlines():
        match = re.match(r"\s*(?:from\s+(\S+)\s+cimport|cimport\s+(\S+))", line)
        if match:
            yield match.group(1) or match.group(2)


@needs_core_sources
def test_cores_cimport_only_the_shared_pxd_files_and_the_c_library():
    shared = {p.stem for p in _core_files(".pxd")}
    bad = [f"{path.name}: cimport {module}"
           for path in _core_files(".pyx", ".pxd")
           for module in _cimported_modules(path.read_text(encoding="utf-8"))
           if module not in shared
           and not any(module == m or module.startswith(m + ".") for m in CIMPORT_FROM_OUTSIDE)]
    assert bad == []


@needs_core_sources
def test_cores_follow_the_cython_rules():
    bad = []
    for path in _core_files(".pyx", ".pxd", ".h"):
        text = path.read_text(encoding="utf-8")
        if path.name != "_omp.h" and re.search(r"#\s*include\s*[<\"]omp\.h|cimport\s+openmp", text):
            bad.append(f"{path.name}: OpenMP outside _omp.h")
        if re.search(r"^#\s*cython:", text, re.M):
            bad.append(f"{path.name}: a per-file directive (directives live in meson.build)")
        if re.search(r"np\.ndarray\[|<[^<>]*\*>\s*\w+\.data\b(?!\.)", text):
            bad.append(f"{path.name}: a NumPy buffer or .data cast (use memoryviews)")
    assert bad == []


@needs_core_sources
def test_every_core_module_checks_for_ctrl_c():
    missing = [path.name for path in _core_files(".pyx")
               if path.name not in NO_INTERRUPT_NEEDED
               and "_interrupt" not in set(_cimported_modules(path.read_text(encoding="utf-8")))]
    assert missing == []



def _function_texts(path):
    """(name, signature and body text, whether it is a ``def``) of every function of a core."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for name, line, n_lines, _ in core_functions(path):
        yield name, "\n".join(lines[line - 1:line - 1 + n_lines]), lines[line - 1].lstrip()


@needs_core_sources
def test_no_raise_inside_noexcept_functions():
    # an exception raised there would be printed and lost: return a status code instead
    bad = [f"{path.name}: {name}" for path in _core_files(".pyx", ".pxd")
           for name, text, _ in _function_texts(path)
           if "noexcept" in text.split(":\n", 1)[0] and re.search(r"^\s+raise\b", text, re.M)]
    assert bad == []


@needs_core_sources
def test_every_parallel_region_takes_its_thread_count_from_the_caller():
    bad = []
    for path in _core_files(".pyx", ".pxd"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            code = line.split("#")[0]
            if not re.match(r"\s*(for\s.*\bin\s+prange\(|with\s+(nogil\s*,\s*)?parallel\()",
                            code):
                continue
            call = " ".join(part.split("#")[0] for part in lines[i:i + 4])
            indent = len(line) - len(line.lstrip())
            enclosing = next((lines[j] for j in range(i - 1, -1, -1)
                              if lines[j].strip() and len(lines[j]) - len(lines[j].lstrip())
                              < indent and "parallel(" in lines[j]), "")
            if "num_threads=" not in call and "num_threads=" not in enclosing:
                bad.append(f"{path.name}:{i + 1}")
    assert bad == []


@needs_core_sources
def test_blas_only_through_scipy():
    bad = [path.name for path in _core_files(".pyx", ".pxd", ".h")
           if re.search(r"cdef\s+extern\s+from\s+[\"<]\w*(blas|lapack)", path.read_text(), re.I)
           or re.search(r"#\s*include\s*[<\"]\w*(cblas|lapack)", path.read_text(), re.I)]
    assert bad == []


@needs_core_sources
def test_entry_arrays_are_tagged_in_out_or_inout():
    # the thin def entries: every memoryview argument says whether the core reads or writes it
    untagged = []
    for path in _core_files(".pyx"):
        for name, text, first in _function_texts(path):
            if not first.startswith("def "):
                continue
            header = text[:text.index("):") if "):" in text else len(text)]
            for argument in header.split("\n"):
                code = argument.split("#")[0]
                if re.search(r"\[[:, ]*:(:1)?\]", code) and not re.search(
                        r"#\s*(IN|OUT|INOUT)\b", argument):
                    untagged.append(f"{path.name}: {name}: {code.strip()}")
    assert untagged == []

def test_the_core_rules_measure_what_they_state(tmp_path):
    source = tmp_path / "_example.pyx"
    source.write_text(
        "cdef inline double f(double a,  # IN (n, m), rows [0, n)\n"
        "                     const double[:, ::1] b, int c) noexcept nogil:\n"
        "    return a\n"
        "\n"
        "    # a comment inside\n"
        "    return b[0, 0]\n"
        "\n"
        "cdef double g(double x) noexcept nogil\n"
        "def h():\n"
        "    pass\n"
        "from _types cimport intp_t\n", encoding="utf-8")
    assert core_functions(source) == [("f", 1, 6, 3), ("h", 9, 2, 0)]
    assert list(_cimported_modules(source.read_text())) == ["_types"]
    assert _families_using("kernelkit.utils._a", {
        "kernelkit.utils._a": {"kernelkit.utils._b"}, "kernelkit.utils._b": {"kernelkit.svm._c"},
    }) == {"svm"}


# one convention per habit (CONTRIBUTING, "Estimators" and "Names and docstrings")
HABITS = {
    r"__doc__\s*=\s*f[\"']": "an f-string docstring (use %(name)s and utils._docstrings.fill_doc)",
    r"__doc__\.(replace|format)\(|_DOC\.format\(": "a docstring filled by hand (use fill_doc)",
    r"\(\s*self\s*,\s*locals\(\)\s*\)": "__init__ through locals() (assign each argument)",
    r"^def __getattr__\(": "a hand-written module __getattr__ (use utils._deprecation.moved_names)",
}


@pytest.mark.parametrize("pattern", HABITS, ids=list(HABITS.values()))
def test_one_convention_per_habit(pattern):
    found = [f"{path.relative_to(PACKAGE.parent)}:{text[:match.start()].count(chr(10)) + 1}"
             for path in _python_files(PACKAGE)
             for text in [path.read_text(encoding="utf-8")]
             for match in re.finditer(pattern, text, re.M)]
    assert found == []


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
