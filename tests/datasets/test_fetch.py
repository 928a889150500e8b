"""fetch_tudataset against a local HTTP server serving zips built from the shipped MUTAG files:
download, cache, checksums (shipped and recorded on first use), HTTP and connection errors;
the UCI DNA sets."""

import hashlib
import http.server
import io
import socket
import subprocess
import sys
import threading
import zipfile
from importlib import resources

import numpy as np
import pytest

from kernelkit.datasets import (
    _fetch,
    fetch_tudataset,
    fetch_uci_splice,
    get_data_home,
    load_mutag,
    load_uci_promoters,
)


def _zip_of_mutag(name, *, extra=b""):
    """The shipped MUTAG files as the collection zips them (``{name}/{name}_*.txt``), renamed
    to ``name``; ``extra`` is appended to the README (a different archive, same graphs)."""
    folder = resources.files("kernelkit.datasets") / "data" / "MUTAG"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.startswith("MUTAG_") or entry.name == "README.txt":
                data = entry.read_bytes() + (extra if entry.name == "README.txt" else b"")
                zf.writestr(f"{name}/{entry.name.replace('MUTAG', name)}", data)
    return buffer.getvalue()


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = self.server.files.get(self.path)
        self.server.requests.append(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    """A server on 127.0.0.1 (a free port) in a thread; ``server.files`` maps paths to bodies,
    ``server.url`` is its address; shut down after the test."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.timeout = 5
    httpd.files, httpd.requests = {}, []
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}/tu"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture(autouse=True)
def _short_timeout(monkeypatch):
    monkeypatch.setattr(_fetch, "TIMEOUT", 5)
    monkeypatch.delenv("KERNELKIT_TUDATASET_URL", raising=False)
    monkeypatch.delenv("KERNELKIT_DATA", raising=False)


def _leftovers(home):
    return sorted(p.name for p in home.iterdir() if p.name.startswith("."))


def test_download_then_cache_without_server(tmp_path, server):
    server.files["/tu/TOYMUTAG.zip"] = archive = _zip_of_mutag("TOYMUTAG")
    data = fetch_tudataset("TOYMUTAG", tmp_path, as_networkx=False, base_url=server.url)
    shipped = load_mutag(as_networkx=False)
    np.testing.assert_array_equal(data.target, shipped.target)
    assert len(data.graphs) == 188
    np.testing.assert_array_equal(data.graphs[5][0].toarray(), shipped.graphs[5][0].toarray())
    assert (tmp_path / "TOYMUTAG" / "TOYMUTAG_A.txt").is_file()
    assert not (tmp_path / "TOYMUTAG.zip").exists()  # unpacked, then removed
    # an unlisted name: its hash is recorded on first use
    recorded = (tmp_path / "TOYMUTAG.zip.sha256").read_text().strip()
    assert recorded == hashlib.sha256(archive).hexdigest()
    assert _leftovers(tmp_path) == []
    server.shutdown()
    again = fetch_tudataset("TOYMUTAG", tmp_path, base_url="http://127.0.0.1:9/none")
    assert len(again.graphs) == 188 and again.graphs[0].nodes[0]["label"] == 0
    assert server.requests == ["/tu/TOYMUTAG.zip"]


def test_data_home_and_url_from_the_environment(tmp_path, server, monkeypatch):
    server.files["/tu/TOYMUTAG.zip"] = _zip_of_mutag("TOYMUTAG")
    monkeypatch.setenv("KERNELKIT_DATA", str(tmp_path / "cache"))
    monkeypatch.setenv("KERNELKIT_TUDATASET_URL", server.url + "/")
    assert get_data_home() == tmp_path / "cache"
    assert len(fetch_tudataset("TOYMUTAG").graphs) == 188
    assert (tmp_path / "cache" / "TOYMUTAG").is_dir()


def test_a_recorded_checksum_is_checked_on_the_next_download(tmp_path, server):
    server.files["/tu/TOYMUTAG.zip"] = _zip_of_mutag("TOYMUTAG")
    fetch_tudataset("TOYMUTAG", tmp_path, base_url=server.url)
    recorded = (tmp_path / "TOYMUTAG.zip.sha256").read_text().strip()
    (tmp_path / "TOYMUTAG").rename(tmp_path / "old")
    server.files["/tu/TOYMUTAG.zip"] = changed = _zip_of_mutag("TOYMUTAG", extra=b"changed")
    with pytest.raises(ValueError) as info:
        fetch_tudataset("TOYMUTAG", tmp_path, base_url=server.url)
    message = str(info.value)
    assert f"SHA-256 is {hashlib.sha256(changed).hexdigest()}, expected {recorded}" in message
    assert f"delete {tmp_path / 'TOYMUTAG.zip.sha256'}" in message
    assert f"{server.url}/TOYMUTAG.zip" in message
    assert not (tmp_path / "TOYMUTAG").exists() and not (tmp_path / "TOYMUTAG.zip").exists()
    assert _leftovers(tmp_path) == []


def test_a_shipped_checksum_is_checked(tmp_path, server, monkeypatch):
    # this archive is not the collection's MUTAG.zip: the shipped hash rejects it
    server.files["/tu/MUTAG.zip"] = archive = _zip_of_mutag("MUTAG")
    shipped = _fetch._tu_checksums()["MUTAG"]
    with pytest.raises(ValueError, match=f"expected {shipped} \\(kernelkit's table\\)"):
        fetch_tudataset("MUTAG", tmp_path, base_url=server.url)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    # and accepts the archive whose hash it lists
    digest = hashlib.sha256(archive).hexdigest()
    monkeypatch.setattr(_fetch, "_tu_checksums", lambda: {"MUTAG": digest})
    assert len(fetch_tudataset("MUTAG", tmp_path, base_url=server.url).graphs) == 188
    assert not (tmp_path / "MUTAG.zip.sha256").exists()  # a shipped hash is not recorded


def test_shipped_table_lists_the_usual_sets():
    table = _fetch._tu_checksums()
    for name in ("MUTAG", "PTC_MR", "ENZYMES", "PROTEINS", "PROTEINS_full", "NCI1", "DD"):
        assert len(table[name]) == 64 and int(table[name], 16) >= 0


def test_404_names_the_url_and_what_to_do(tmp_path, server):
    with pytest.raises(ConnectionError) as info:
        fetch_tudataset("NOSUCHSET", tmp_path, base_url=server.url)
    message = str(info.value)
    assert f"{server.url}/NOSUCHSET.zip" in message and "HTTP 404" in message
    assert str(tmp_path / "NOSUCHSET" / "NOSUCHSET_A.txt") in message
    assert info.value.__suppress_context__ and info.value.__cause__ is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, suggested", [("proteins", "PROTEINS"), ("Mutag", "MUTAG"),
                                             ("proteins_FULL", "PROTEINS_full")])
def test_a_listed_name_in_other_case_is_suggested_without_a_download(tmp_path, server, name,
                                                                      suggested):
    with pytest.raises(ValueError, match=f"case-sensitive: did you mean '{suggested}'"):
        fetch_tudataset(name, tmp_path, base_url=server.url)
    assert server.requests == [] and list(tmp_path.iterdir()) == []


def test_404_of_a_misspelt_name_suggests_the_listed_ones(tmp_path, server):
    with pytest.raises(ConnectionError, match="HTTP 404.*did you mean 'PROTEINS'"):
        fetch_tudataset("PROTEINZ", tmp_path, base_url=server.url)
    with pytest.raises(ConnectionError) as info:
        fetch_tudataset("QWXZY", tmp_path, base_url=server.url)
    assert "did you mean" not in str(info.value)


def test_connection_refused(tmp_path):
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with pytest.raises(ConnectionError, match=f"Could not download {url}/MUTAG.zip: .*refused"):
        fetch_tudataset("MUTAG", tmp_path, base_url=url)
    assert list(tmp_path.iterdir()) == []


def test_truncated_answer(tmp_path, server):
    class Short(_Handler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"PK" * 10)

    server.RequestHandlerClass = Short
    with pytest.raises(ConnectionError, match="IncompleteRead|closed after 20 of 1000 bytes"):
        fetch_tudataset("TOYMUTAG", tmp_path, base_url=server.url)
    assert list(tmp_path.iterdir()) == []


def _zip_escaping_its_folder():
    buffer = io.BytesIO(_zip_of_mutag("TOYMUTAG"))
    with zipfile.ZipFile(buffer, "a") as zf:
        zf.writestr("TOYMUTAG/../outside.txt", b"x")
    return buffer.getvalue()


@pytest.mark.parametrize("body, message", [
    (b"<html>not found</html>", "is not a zip archive"),
    (_zip_of_mutag("OTHER"), "has no TOYMUTAG/TOYMUTAG_A.txt"),
    (_zip_escaping_its_folder(), "member 'TOYMUTAG/../outside.txt' points outside its folder"),
], ids=["not-zip", "wrong-folder", "escaping-member"])
def test_archives_that_are_not_the_set(tmp_path, server, body, message):
    server.files["/tu/TOYMUTAG.zip"] = body
    with pytest.raises(ValueError, match=message):
        fetch_tudataset("TOYMUTAG", tmp_path, base_url=server.url)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no hash recorded either


@pytest.mark.parametrize("name, error", [
    ("../MUTAG", ValueError), ("", ValueError), ("MUTAG/x", ValueError), (".hidden", ValueError),
    (42, TypeError), ("A" * 101, ValueError), ("A" * 255, ValueError), ("A" * 300, ValueError),
])
def test_bad_names(tmp_path, name, error):
    with pytest.raises(error, match="name"):
        fetch_tudataset(name, tmp_path, base_url="http://127.0.0.1:9")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kwargs, error, message", [
    ({"data_home": ""}, ValueError, "data_home is empty"),
    ({"data_home": "  "}, ValueError, "data_home is empty"),
    ({"data_home": 5}, TypeError, "data_home must be a folder"),
    ({"base_url": 5}, TypeError, "base_url must be a string"),
    ({"base_url": ""}, ValueError, "base_url '' is not an address"),
    ({"base_url": "127.0.0.1/tu"}, ValueError, "base_url '127.0.0.1/tu' is not an address"),
], ids=["empty-home", "blank-home", "int-home", "int-url", "empty-url", "url-without-scheme"])
@pytest.mark.parametrize("fetch", [
    lambda **kw: fetch_tudataset("TOYMUTAG", **kw), fetch_uci_splice], ids=["tu", "uci"])
def test_bad_data_home_and_base_url_are_named(tmp_path, monkeypatch, fetch, kwargs, error,
                                              message):
    monkeypatch.chdir(tmp_path)  # data_home="" must not fall back to the working folder
    with pytest.raises(error, match=message):
        fetch(**{"data_home": tmp_path / "home", "base_url": "http://127.0.0.1:9", **kwargs})
    assert list(tmp_path.iterdir()) == []


def test_data_home_that_is_a_file(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="data_home .*file.* is a file, not a folder"):
        get_data_home(tmp_path / "file")


def _fetch_in_step(monkeypatch, parties):
    """Make every fetch wait, once its download is complete, until ``parties`` fetches have
    downloaded: all then unpack the same set at the same time."""
    barrier, stream = threading.Barrier(parties, timeout=30), _fetch._stream

    def in_step(*args):
        digest = stream(*args)
        barrier.wait()
        return digest

    monkeypatch.setattr(_fetch, "_stream", in_step)


def test_concurrent_fetches_of_one_set_from_threads(tmp_path, server, monkeypatch):
    server.files["/tu/TOYMUTAG.zip"] = archive = _zip_of_mutag("TOYMUTAG")
    _fetch_in_step(monkeypatch, 2)
    results, errors = [], []

    def fetch():
        try:
            results.append(fetch_tudataset("TOYMUTAG", tmp_path, as_networkx=False,
                                           base_url=server.url))
        except Exception as exc:  # reported below, with the thread's error
            errors.append(exc)

    threads = [threading.Thread(target=fetch) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert [len(data.graphs) for data in results] == [188, 188]
    assert server.requests == ["/tu/TOYMUTAG.zip"] * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["TOYMUTAG", "TOYMUTAG.zip.sha256"]
    with zipfile.ZipFile(io.BytesIO(archive)) as zf:
        members = sorted(zf.namelist())
    assert sorted(f"TOYMUTAG/{p.name}" for p in (tmp_path / "TOYMUTAG").iterdir()) == members


# A child process that fetches TOYMUTAG once its download is complete and the other child's is
# too (a marker file each), so that the two unpack at the same time.
_CHILD = """
import pathlib, sys, time
from kernelkit.datasets import _fetch, fetch_tudataset
home, url, markers, me, other = sys.argv[1:]
stream = _fetch._stream
def in_step(*args):
    digest = stream(*args)
    (pathlib.Path(markers) / me).touch()
    deadline = time.monotonic() + 60
    while not (pathlib.Path(markers) / other).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return digest
_fetch._stream = in_step
print(len(fetch_tudataset("TOYMUTAG", home, as_networkx=False, base_url=url).graphs))
"""


def test_concurrent_fetches_of_one_set_from_processes(tmp_path, server):
    server.files["/tu/TOYMUTAG.zip"] = _zip_of_mutag("TOYMUTAG")
    home, markers = tmp_path / "home", tmp_path / "markers"
    home.mkdir()
    markers.mkdir()
    children = [subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(home), server.url, str(markers), me, other],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for me, other in (("a", "b"), ("b", "a"))]
    outputs = [child.communicate(timeout=300) for child in children]
    assert [(child.returncode, out.strip()) for child, (out, _) in zip(children, outputs)] == [
        (0, "188"), (0, "188")], [err for _, err in outputs]
    assert sorted(p.name for p in home.iterdir()) == ["TOYMUTAG", "TOYMUTAG.zip.sha256"]


def test_uci_promoters_are_shipped():
    promoters = load_uci_promoters()
    assert len(promoters.data) == 106 and {len(s) for s in promoters.data} == {57}
    assert set("".join(promoters.data)) == set("acgt")
    assert (promoters.target == "+").sum() == 53 and (promoters.target == "-").sum() == 53
    assert promoters.names[0] == "S10" and "CC BY 4.0" in promoters.DESCR


_SPLICE = (b"EI,    ATRINS-DONOR-521,               CCAGCTGCATCACAGG\r\n"
           b"N,     HUMGLUT4B-NEG-1,                NNACGTDACGTRACGS\r\n")


def test_uci_splice_download_cache_and_recorded_checksum(tmp_path, server):
    server.files["/splice.data"] = _SPLICE
    url = server.url.removesuffix("/tu") + "/splice.data"
    splice = fetch_uci_splice(tmp_path, base_url=url)
    assert splice.data == ["CCAGCTGCATCACAGG", "NNACGTDACGTRACGS"]
    assert splice.target.tolist() == ["EI", "N"] and splice.names[1] == "HUMGLUT4B-NEG-1"
    assert (tmp_path / "splice.data.sha256").read_text().strip() == hashlib.sha256(
        _SPLICE).hexdigest()
    server.files.clear()  # the cache answers
    assert fetch_uci_splice(tmp_path, base_url=url).data == splice.data
    (tmp_path / "splice.data").unlink()
    server.files["/splice.data"] = _SPLICE + b"IE, X, ACGT\n"
    with pytest.raises(ValueError, match="splice.data.sha256"):
        fetch_uci_splice(tmp_path, base_url=url)
    assert not (tmp_path / "splice.data").exists()


def test_uci_splice_offline_and_bad_lines(tmp_path, server):
    url = server.url.removesuffix("/tu") + "/splice.data"
    with pytest.raises(ConnectionError, match=f"{url}: the server answered HTTP 404.*place it "
                                              f"at {tmp_path / 'splice.data'}"):
        fetch_uci_splice(tmp_path, base_url=url)
    (tmp_path / "splice.data").write_text("EI, A, ACGT\nEI, ACGT\n")
    with pytest.raises(ValueError, match="splice.data, line 2: expected 'class, name, sequence'"):
        fetch_uci_splice(tmp_path)
