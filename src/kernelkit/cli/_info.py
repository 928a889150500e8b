"""``kernelkit info``: what this installation runs on, for a bug report. The probes: the
versions of Python and the dependencies, the OpenMP runtime the cores resolve to (matched in
threadpoolctl's list by its file), the BLAS libraries loaded and their owners, the SIMD variant
of the local alignment kernel, and the optional packages installed (found without importing
them)."""

import importlib.util
import os

import kernelkit
from kernelkit.cli._text import PROG, _listing, _wrap

SUMMARY = "versions, OpenMP, BLAS and SIMD in use, optional packages (for bug reports)"

# (shown name, import name)
DEPENDENCIES = [("numpy", "numpy"), ("scipy", "scipy"), ("scikit-learn", "sklearn"),
                ("joblib", "joblib"), ("threadpoolctl", "threadpoolctl"),
                ("networkx", "networkx")]
# group: import names of the optional packages that kernelkit or its benchmarks use
OPTIONAL = {
    "distributed": ("dask", "distributed", "zarr"),
    "ot": ("ot",),
    "docs": ("sphinx", "numpydoc", "sphinx_gallery", "pydata_sphinx_theme", "matplotlib"),
    "bench peers": ("grakel", "strkernel", "MKLpy", "kmedoids", "sklearn_extra", "sklearnex",
                    "lightgbm", "xgboost", "faiss"),
    "progress bars": ("tqdm",),
}
# the _OPENMP date a compiler defines -> the OpenMP version (MSVC's /openmp is 2.0)
OPENMP_VERSIONS = {200203: "2.0", 200505: "2.5", 200805: "3.0", 201107: "3.1", 201307: "4.0",
                   201511: "4.5", 201811: "5.0", 202011: "5.1", 202111: "5.2", 202411: "6.0"}
SIMD_PATHS = {
    "avx2": "the AVX2 clone, picked at load time (this CPU has AVX2)",
    "default": "the baseline x86-64 clone, picked at load time (this CPU has no AVX2)",
    "generic vectors": "generic vectors for the compiler's default target (one build)",
    "scalar": "scalar code (this compiler has no generic vectors)",
}


def fill_parser(parser):
    parser.description = _wrap(
        "What this installation of kernelkit runs on: the versions of Python and of the "
        "dependencies, the OpenMP runtime the compiled cores call and its thread count, the "
        "BLAS libraries loaded (the cores call SciPy's), the SIMD variant the local alignment "
        "kernel runs on this CPU, and which optional packages are installed. Paste it into a "
        "bug report.")
    parser.set_defaults(func=run, parser=parser)


def run(args):
    import platform
    from importlib.metadata import packages_distributions

    import scipy.linalg.cython_blas  # noqa: F401  (loads SciPy's BLAS, which the cores call)
    from threadpoolctl import threadpool_info

    from kernelkit._core._local_alignment_dp import simd_path
    from kernelkit._core._openmp import openmp_library, openmp_version
    from kernelkit.utils._threads import effective_n_threads, forked_after_openmp_team

    package = os.path.dirname(os.path.abspath(kernelkit.__file__))
    print(f"{PROG} {kernelkit.__version__} ({package})")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.system()} {platform.machine()}, {os.cpu_count()} logical CPUs")
    print()
    print(_listing("dependencies", {name: importlib.import_module(module).__version__
                                    for name, module in DEPENDENCIES}))
    print()
    libraries = threadpool_info()
    cores = {"OpenMP": _openmp_line(libraries, openmp_library(), openmp_version(),
                                    effective_n_threads(), forked_after_openmp_team())}
    cores["BLAS"] = [_blas_line(library) for library in libraries
                     if library["user_api"] == "blas"] or "none loaded"
    cores["local alignment"] = f"{simd_path()}: {SIMD_PATHS[simd_path()]}"
    print(_listing("compiled cores", cores))
    print()
    distributions = packages_distributions()
    print(_listing("optional packages", {group: _installed(modules, distributions)
                                         for group, modules in OPTIONAL.items()}))
    return 0


def _openmp_line(libraries, path, version, n_threads, forked):
    """The OpenMP runtime the cores call: threadpoolctl's entry for the file they resolve to;
    ``forked``: this process was forked after an OpenMP team, so its cores run on one thread."""
    if not version:
        return "none: the cores were built without OpenMP and run on one thread"
    compiled = f"OpenMP {OPENMP_VERSIONS.get(version, version)}"
    threads = (f"{n_threads} threads by default" if not forked else
               "1 thread (forked after an OpenMP team, whose threads fork does not copy)")
    runtimes = [library for library in libraries if library["user_api"] == "openmp"]
    ours = [library for library in runtimes
            if path and os.path.realpath(library["filepath"]) == os.path.realpath(path)]
    runtime = ours[0]["prefix"] if ours else "runtime"
    where = (os.path.realpath(path) if path
             else ", ".join(library["filepath"] for library in runtimes) or "file not found")
    return (f"{runtime} ({compiled}), {threads}; {where}"
            + (f" ({len(runtimes)} OpenMP runtimes loaded)" if len(runtimes) > 1 else ""))


def _blas_line(library):
    """One BLAS from threadpoolctl: implementation, version, architecture, threads, owner."""
    parts = os.path.normpath(library["filepath"]).split(os.sep)
    # wheels keep their libraries in <package>.libs (numpy.libs, scipy.libs, ...)
    owner = next((part[:-len(".libs")] for part in parts if part.endswith(".libs")), "system")
    note = {"scipy": "SciPy's, which the cores call"}.get(owner, f"{owner}'s")
    name = " ".join(filter(None, [library["internal_api"], library.get("version")]))
    details = filter(None, [name, library.get("architecture"),
                            f"{library['num_threads']} threads"])
    return f"{', '.join(details)} ({note})"


def _installed(modules, distributions):
    """``"grakel 0.1.10, tqdm 4.67.1; missing: zarr"`` without importing anything."""
    from importlib.metadata import version

    found, missing = [], []
    for module in modules:
        if importlib.util.find_spec(module) is None:
            missing.append(module)
            continue
        versions = {version(name) for name in distributions.get(module, ())}
        found.append(f"{module} {', '.join(sorted(versions))}".rstrip())
    return "; ".join(filter(None, [", ".join(found),
                                   "missing: " + ", ".join(missing) if missing else ""]))
