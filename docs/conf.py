"""Sphinx configuration of kernelkit's documentation.

Build with ``python -m sphinx -W -b html docs docs/_build/html`` against an installed kernelkit
(the ``docs`` dependency group brings Sphinx, numpydoc, sphinx-gallery, the theme and matplotlib).

The API reference is generated here, at every build, from the ``__all__`` of each public
subpackage of kernelkit (see ``write_api_pages``): a new family appears in the reference without
editing the docs.
"""

import importlib
import inspect
import os
import pathlib
import pkgutil
import sys
import warnings

from sphinx_gallery.sorting import ExplicitOrder

import kernelkit

DOCS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "kernelkit"
author = "The kernelkit developers"
copyright = "The kernelkit developers, BSD-3-Clause"
release = version = kernelkit.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax served from the built site: pages work offline
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "kernelkit_docs",  # _ext/: docstrings' prose read as written; scikit-learn machinery hidden
]

templates_path = ["_templates"]
# examples/: sphinx-gallery's sources; sg_execution_times: stale pages of older builds (see
# "write_computation_times" below)
exclude_patterns = ["_build", "README.md", "examples", "sg_execution_times.rst",
                    "auto_examples/**/sg_execution_times.rst"]
root_doc = "index"
default_role = "py:obj"  # `KMeans` links to its API page (under .. currentmodule::)

# -- HTML --------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"kernelkit {release}"
html_static_path = ["_static"]
html_css_files = ["kernelkit.css"]
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_sidebars = {"index": [], "auto_examples/index": []}

# -- API reference -----------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"
autodoc_default_options = {"member-order": "bysource"}
numpydoc_show_class_members = False  # the class template lists the methods
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Subpackages that are not API: the demos behind `python -m kernelkit demo`. Every other
# subpackage with an __all__ gets a page; utils (no __all__) is internal.
API_EXCLUDE = {"demos"}


def public_subpackages():
    """``{name: module}`` of kernelkit's subpackages that declare ``__all__``."""
    found = {}
    for info in pkgutil.iter_modules(kernelkit.__path__):
        if not info.ispkg or info.name.startswith("_") or info.name in API_EXCLUDE:
            continue
        module = importlib.import_module(f"kernelkit.{info.name}")
        if getattr(module, "__all__", None):
            found[info.name] = module
    return dict(sorted(found.items()))


def _autosummary(title, names, template):
    if not names:
        return []
    return [title, "-" * len(title), "", ".. autosummary::", "   :toctree: generated/",
            f"   :template: {template}", "   :nosignatures:", ""] + \
        [f"   {name}" for name in names] + [""]


def write_api_pages():
    """Write ``api/kernelkit.<name>.rst`` for every public subpackage: its docstring, then its
    classes and functions (from ``__all__``), each with a generated page. ``api/index.rst``
    picks them up with a glob; stale pages of removed subpackages are deleted."""
    api = DOCS / "api"
    api.mkdir(exist_ok=True)
    pages = set()
    for name, module in public_subpackages().items():
        objects = {attr: getattr(module, attr) for attr in module.__all__}
        classes = [a for a, obj in objects.items() if inspect.isclass(obj)]
        functions = [a for a, obj in objects.items() if callable(obj) and a not in classes]
        data = [a for a in objects if a not in classes and a not in functions]
        title = f"kernelkit.{name}"
        lines = [title, "=" * len(title), "", f".. automodule:: kernelkit.{name}",
                 "   :no-members:", "", f".. currentmodule:: kernelkit.{name}", ""]
        lines += _autosummary("Classes", sorted(classes), "class.rst")
        lines += _autosummary("Functions", sorted(functions), "function.rst")
        lines += _autosummary("Other names", sorted(data), "data.rst")
        page = api / f"{title}.rst"
        text = "\n".join(lines)
        if not page.exists() or page.read_text() != text:  # unchanged pages keep their mtime
            page.write_text(text)
        pages.add(page)
    for stale in set(api.glob("kernelkit.*.rst")) - pages:
        stale.unlink()


write_api_pages()

# -- Gallery -----------------------------------------------------------------------------------
# Executed at every build; examples use small data so that the whole gallery runs in a few
# minutes on 2 cores. An example that raises fails the build.
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "within_subsection_order": "FileNameSortKey",
    # topics in the order of the user guide; a topic folder not listed comes before benchmarks
    "subsection_order": ExplicitOrder([f"examples/{topic}" for topic in (
        "linear_models", "svm", "discriminant_analysis", "trees", "kernels", "mkl", "cluster",
        "decomposition", "manifold")]
        + ["*", "examples/benchmarks"]),
    "doc_module": ("kernelkit",),
    "backreferences_dir": "api/generated/backreferences",
    "reference_url": {"kernelkit": None},
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "show_memory": False,
    "matplotlib_animations": False,
    "image_srcset": [],
    "min_reported_time": 1,
    # no sg_execution_times pages: sphinx-gallery loads jQuery and DataTables for them from a
    # CDN, which breaks offline; the build log still lists the examples' times
    "write_computation_times": False,
}

# Matplotlib in the gallery: no GUI, and fonts cached once.
os.environ.setdefault("MPLBACKEND", "Agg")
warnings.filterwarnings("ignore", category=UserWarning,
                        message="Matplotlib is currently using agg")
