"""The built documentation site: the index, gallery pages with their images, and an API page
for every public subpackage. Runs after `python -m sphinx -b html docs docs/_build/html` (CI
builds it before the tests); skipped when there is no build output."""

import importlib
import pathlib
import pkgutil
import re

import pytest

import kernelkit

HTML = pathlib.Path(__file__).resolve().parents[1] / "docs" / "_build" / "html"
GALLERY_PAGES = ["svm/plot_svc_boundaries", "kernels/plot_wl_iterations",
                 "cluster/plot_moons_circles", "manifold/plot_smacof_sammon"]

pytestmark = pytest.mark.skipif(not (HTML / "index.html").is_file(),
                                reason=f"no documentation build in {HTML}")


def _images(page):
    """The local images a page shows, as paths."""
    html = page.read_text(encoding="utf-8")
    sources = re.findall(r'<img[^>]*\ssrc="([^"]+)"', html)
    return [(page.parent / src).resolve() for src in sources if "://" not in src]


def test_index_links_the_guide_gallery_and_reference():
    html = (HTML / "index.html").read_text(encoding="utf-8")
    for target in ("user_guide/index.html", "auto_examples/index.html", "api/index.html"):
        assert f'href="{target}"' in html, target


@pytest.mark.parametrize("name", GALLERY_PAGES)
def test_gallery_page_shows_its_plots(name):
    page = HTML / "auto_examples" / f"{name}.html"
    assert page.is_file()
    images = [p for p in _images(page) if p.name.startswith("sphx_glr_")]
    assert images, f"{page} shows no plot"
    for image in images:
        data = image.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000, image


def test_gallery_index_shows_thumbnails():
    thumbnails = [p for p in _images(HTML / "auto_examples" / "index.html")
                  if p.name.endswith("_thumb.png")]
    assert len(thumbnails) >= 12
    assert all(p.is_file() for p in thumbnails)


def test_every_public_subpackage_has_an_api_page():
    for info in pkgutil.iter_modules(kernelkit.__path__):
        if not info.ispkg or info.name.startswith("_") or info.name == "demos":
            continue
        module = importlib.import_module(f"kernelkit.{info.name}")
        if not getattr(module, "__all__", None):
            continue
        page = HTML / "api" / f"kernelkit.{info.name}.html"
        assert page.is_file(), page
        html = page.read_text(encoding="utf-8")
        for name in module.__all__:
            assert f"kernelkit.{info.name}.{name}" in html, (info.name, name)
