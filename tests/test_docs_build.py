"""The built documentation site: the index, gallery pages with their images and readable output,
an API page for every public subpackage, mathematics by the bundled MathJax, and no script, style
sheet, font or image loaded from another host. Runs after
`python -m sphinx -b html docs docs/_build/html` (CI builds it before the tests); skipped when
there is no build output."""

import importlib
import pathlib
import pkgutil
import re
from html import unescape

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


# a tag that makes the browser fetch something, and the attribute naming it
_LOADING_TAG = re.compile(
    r"<(script|link|img|iframe|source|embed|object|audio|video|track)\b[^>]*>", re.IGNORECASE)
_URL_ATTRIBUTE = re.compile(r"""\s(src|href|data|srcset|poster)\s*=\s*["']?([^"'\s>]+)""",
                            re.IGNORECASE)
# link relations that only point somewhere (the browser fetches nothing)
_NAVIGATION_REL = re.compile(r"""\srel\s*=\s*["']?(canonical|next|prev|index|search|author|license|
                             alternate|help|top|up|first|last|me)\b""", re.IGNORECASE | re.VERBOSE)
# CSS (style sheets, <style> elements, style attributes): @import and url(), e.g. web fonts
_CSS_URL = re.compile(r"""(?:@import\s+(?:url\(\s*)?|url\(\s*)["']?([^"')\s;]+)""", re.IGNORECASE)


def _remote(url):
    return re.match(r"(https?:)?//", url.strip(), re.IGNORECASE) is not None


def remote_assets(text, css=False):
    """The remote URLs that a page (or, with ``css``, a style sheet) loads: scripts, style
    sheets, fonts, images and frames; plain hyperlinks (``<a href>``) are not loads."""
    found = [url for url in _CSS_URL.findall(text) if _remote(url)]
    if css:
        return found
    for tag in _LOADING_TAG.finditer(text):
        if tag.group(1).lower() == "link" and _NAVIGATION_REL.search(tag.group(0)):
            continue
        found += [url for _, url in _URL_ATTRIBUTE.findall(tag.group(0)) if _remote(url)]
    return found


def test_remote_assets_are_detected():
    page = """<link rel="stylesheet" href="https://cdn.example.org/a.css" />
    <style scoped><link href="//cdn.example.org/b.css" rel="stylesheet" /></style>
    <script src="http://cdn.example.org/c.js"></script><img alt="" src='https://x.org/d.png'>
    <style>@font-face { src: url("https://fonts.example.org/e.woff2") }</style>
    <link rel="canonical" href="https://kernelkit.example.org/" /><a href="https://x.org/">x</a>
    <script src="_static/local.js"></script><link rel="stylesheet" href="../_static/f.css" />"""
    assert [u.rsplit("/", 1)[1] for u in remote_assets(page)] == [
        "e.woff2", "a.css", "b.css", "c.js", "d.png"]
    assert remote_assets("@import url('https://x.org/g.css'); a { b: url(h.png) }", css=True) \
        == ["https://x.org/g.css"]


def test_no_page_loads_a_remote_asset():
    """The site works offline: no page or style sheet loads a script, style sheet, font or image
    from another host."""
    offenders = {}
    for path in sorted(HTML.rglob("*.html")):
        if found := remote_assets(path.read_text(encoding="utf-8")):
            offenders[str(path.relative_to(HTML))] = found
    for path in sorted(HTML.rglob("*.css")):
        if found := remote_assets(path.read_text(encoding="utf-8", errors="replace"), css=True):
            offenders[str(path.relative_to(HTML))] = found
    assert not offenders, offenders


def test_mathematics_is_rendered_by_the_bundled_mathjax():
    """Pages with mathematics (the user guide and API pages) load MathJax from the site itself,
    and its fonts are there."""
    mathjax = HTML / "_static" / "mathjax"
    assert (mathjax / "tex-chtml.js").is_file()
    assert list((mathjax / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    for name in ("user_guide/svm.html", "api/generated/kernelkit.svm.SVC.html",
                 "api/generated/kernelkit.cluster.KMeans.html"):
        page = (HTML / name).read_text(encoding="utf-8")
        assert 'class="math' in page, f"{name} shows no mathematics"
        scripts = re.findall(r'<script[^>]*\ssrc="([^"]*mathjax[^"]*)"', page, re.IGNORECASE)
        assert scripts and not any(_remote(s) for s in scripts), (name, scripts)
        assert all((HTML / name).parent.joinpath(s.split("?")[0]).resolve().is_file()
                   for s in scripts)


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


def _gallery_outputs():
    """``{page: printed output}`` of the gallery's examples, as the pages show it."""
    outputs = {}
    for page in sorted((HTML / "auto_examples").rglob("plot_*.html")):
        blocks = re.findall(r'<div class="sphx-glr-script-out[^"]*">.*?<pre>(.*?)</pre>',
                            page.read_text(encoding="utf-8"), re.DOTALL)
        text = unescape(re.sub(r"<[^>]+>", "", "\n".join(blocks)))
        outputs[str(page.relative_to(HTML))] = text
    return outputs


def test_gallery_outputs_are_readable():
    """What the examples print fits the output box and shows formatted numbers: no NumPy reprs
    such as ``np.float64(0.5)`` or ``array([...])``, no warnings."""
    outputs = _gallery_outputs()
    assert any(outputs.values())
    for page, text in outputs.items():
        assert not re.search(r"\bnp\.\w+\(|\barray\(|\bdtype=", text), (page, text)
        assert "Warning" not in text, (page, text)
        long_lines = [line for line in text.splitlines() if len(line) > 100]
        assert not long_lines, (page, long_lines)


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
