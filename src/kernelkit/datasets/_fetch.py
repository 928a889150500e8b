"""Downloads of public data sets by name into a local cache, checked against SHA-256 values:
the TU Dortmund graph collection (:func:`fetch_tudataset`) and the pieces other fetchers share
(the cache folder, a verified atomic download)."""

import contextlib
import difflib
import hashlib
import http.client
import os
import pathlib
import re
import shutil
import socket
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from importlib import resources

from kernelkit.datasets._tudataset import load_tudataset

__all__ = ["fetch_tudataset", "get_data_home"]

TU_URL = "https://www.chrsmrrs.com/graphkerneldatasets"
TU_URL_VARIABLE = "KERNELKIT_TUDATASET_URL"
DATA_HOME_VARIABLE = "KERNELKIT_DATA"
TIMEOUT = 60  # seconds without an answer before a download is given up
_CHUNK = 1 << 16
# the names of the collection: letters, digits, "_", "-" and "." (never a path)
_TU_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")
# The collection's longest name has 16 characters. The longest file name made from a name adds
# 26 (".NAME.zip.sha256.XXXXXXXX.part"), so 100 stays within the 143 bytes of the most
# restrictive common file system (eCryptfs; 255 elsewhere).
_TU_NAME_MAX = 100


def get_data_home(data_home=None):
    """The folder of kernelkit's downloaded data sets, created when missing.

    Parameters
    ----------
    data_home : str or path-like, default=None
        The folder; None reads the environment variable ``KERNELKIT_DATA``, and without it
        uses ``~/kernelkit_data``.

    Returns
    -------
    data_home : pathlib.Path
        The folder, which exists.

    Raises
    ------
    TypeError
        If ``data_home`` is neither None, a string nor a path.
    ValueError
        If ``data_home`` is empty or an existing file.
    """
    if data_home is None:
        data_home = os.environ.get(DATA_HOME_VARIABLE) or "~/kernelkit_data"
    if not isinstance(data_home, (str, os.PathLike)):
        raise TypeError(f"data_home must be a folder (a string or a path) or None for "
                        f"${DATA_HOME_VARIABLE} or ~/kernelkit_data, got "
                        f"{type(data_home).__name__}.")
    if not os.fspath(data_home).strip():
        raise ValueError("data_home is empty; give a folder, or None for "
                         f"${DATA_HOME_VARIABLE} or ~/kernelkit_data.")
    home = pathlib.Path(data_home).expanduser()
    if home.exists() and not home.is_dir():
        raise ValueError(f"data_home {str(home)!r} is a file, not a folder; give a folder.")
    home.mkdir(parents=True, exist_ok=True)
    return home


def resolve_url(base_url, variable, default):
    """``base_url`` checked (a string with a scheme such as ``https://`` or ``file://``), or
    with None the environment variable ``variable``, else ``default``."""
    if base_url is None:
        return os.environ.get(variable) or default
    if not isinstance(base_url, str):
        raise TypeError(f"base_url must be a string such as {default!r}, or None for "
                        f"${variable} or that address; got {type(base_url).__name__}.")
    if not urllib.parse.urlsplit(base_url).scheme:
        raise ValueError(f"base_url {base_url!r} is not an address with a scheme; give one "
                         f"such as {default!r} (or 'file:///...' for a local folder), or None "
                         f"for ${variable} or that address.")
    return base_url


def fetch_tudataset(name, data_home=None, *, as_networkx=True, base_url=None):
    """Download a graph set of the TU Dortmund collection by name (once) and load it.

    The first call downloads ``{base_url}/{name}.zip`` into ``data_home``, checks its SHA-256,
    and unpacks it into ``data_home/{name}/``; every later call reads that folder with
    :func:`load_tudataset` and uses no network. A folder placed there by hand (the unpacked
    archive, e.g. copied from a machine with network) is read the same way.

    The checksums: kernelkit ships the SHA-256 of the archives of 37 sets (``MUTAG``, ``NCI1``,
    ``PROTEINS``, ``ENZYMES``, ``DD``, the ``PTC`` sets, ``IMDB-*``, ``REDDIT-*``, ...) as
    published by the Julia package GraphDatasets.jl, which checks the same archives at the same
    address; kernelkit could not hash the archives itself. The archive of any other name is
    trusted on first use: its SHA-256 is written to ``data_home/{name}.zip.sha256`` and a later
    download of that name (after the folder was deleted) must match it. So a first download of
    an unlisted name is only as trustworthy as the connection it came through.

    Parameters
    ----------
    name : str
        The set's name as the collection spells it (case matters), e.g. ``"MUTAG"``,
        ``"PROTEINS_full"``, ``"IMDB-BINARY"``.
    data_home : str or path-like, default=None
        The cache folder (see :func:`get_data_home`): ``$KERNELKIT_DATA``, else
        ``~/kernelkit_data``.
    as_networkx : bool, default=True
        See :func:`load_tudataset`.
    base_url : str, default=None
        Where the archives are; None reads the environment variable
        ``KERNELKIT_TUDATASET_URL``, and without it uses
        ``https://www.chrsmrrs.com/graphkerneldatasets`` (the collection's own server).

    Returns
    -------
    data : sklearn.utils.Bunch
        ``graphs``, ``target``, ``DESCR``: see :func:`load_tudataset`.

    Raises
    ------
    ConnectionError
        If the archive cannot be downloaded (no network, an HTTP error such as 404 for a name
        the server does not have, a timeout, a truncated answer); the message names the URL,
        the cause, the listed names close to ``name`` and where to put the unpacked folder
        instead.
    ValueError
        If ``name`` is not a name of the collection's form (at most 100 characters), differs
        only in case from a listed name (``"proteins"``: the message suggests ``"PROTEINS"``; no
        download is tried), ``data_home`` or ``base_url`` is not usable (see
        :func:`get_data_home`), the archive's SHA-256 is not the expected one (the download is
        deleted; the message gives both values), or the archive is not a zip of the folder
        ``{name}/``.
    TypeError
        If ``name`` is not a string, or ``data_home`` or ``base_url`` not of their types.

    Notes
    -----
    Fetches of the same set at the same time, from threads or processes, are safe: each
    downloads and unpacks into temporary names of its own, and the complete folder is renamed
    into place; a fetch that finds the folder already placed by another uses it.

    Examples
    --------
    >>> from kernelkit.datasets import fetch_tudataset
    >>> data = fetch_tudataset("PTC_MR")  # doctest: +SKIP
    >>> len(data.graphs), sorted(set(data.target))  # doctest: +SKIP
    (344, [-1, 1])
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string such as 'MUTAG', got {type(name).__name__}.")
    if len(name) > _TU_NAME_MAX:
        raise ValueError(f"name has {len(name)} characters; the names of TU data sets have at "
                         f"most {_TU_NAME_MAX} (e.g. 'MUTAG' or 'IMDB-BINARY').")
    if not _TU_NAME.fullmatch(name):
        raise ValueError(f"name {name!r} is not the name of a TU data set: letters, digits, "
                         "'_', '-' and '.' only, e.g. 'MUTAG' or 'IMDB-BINARY'.")
    base_url = resolve_url(base_url, TU_URL_VARIABLE, TU_URL)
    home = get_data_home(data_home)
    folder = home / name
    if not folder.is_dir():
        checksums = _tu_checksums()
        same_but_case = [known for known in checksums if known.lower() == name.lower()]
        if name not in checksums and same_but_case:
            raise ValueError(f"name {name!r} is not a name of the TU collection, whose names "
                             f"are case-sensitive: did you mean {same_but_case[0]!r}?")
        url = f"{base_url.rstrip('/')}/{name}.zip"
        close = [] if name in checksums else difflib.get_close_matches(name, checksums, n=3)
        remedy = ("Check the name (case matters"
                  + (f"; did you mean {' or '.join(map(repr, close))}?" if close else "")
                  + f") and the network, or download {name}.zip elsewhere and unpack it into "
                  f"{home}, so that {folder / (name + '_A.txt')} exists")
        with verified_download(url, home / f"{name}.zip", checksums.get(name), remedy,
                               check=lambda path: _members(path, name)) as archive:
            _unpack(archive, home, name)
    return load_tudataset(folder, name, as_networkx=as_networkx)


def _tu_checksums():
    """``{name: SHA-256}`` of the shipped table (``data/tudataset_sha256.txt``)."""
    table = resources.files("kernelkit.datasets") / "data" / "tudataset_sha256.txt"
    lines = table.read_text(encoding="utf-8").splitlines()
    return {name: digest for digest, name in
            (line.split() for line in lines if line.strip() and not line.startswith("#"))}


def download(url, path, sha256, remedy, check):
    """Download ``url`` to ``path``: :func:`verified_download`, then the checked file renamed
    to ``path`` (atomic, so concurrent downloads of ``path`` leave one complete file). Returns
    ``path``."""
    path = pathlib.Path(path)
    with verified_download(url, path, sha256, remedy, check) as partial:
        os.replace(partial, path)
    return path


@contextlib.contextmanager
def verified_download(url, path, sha256, remedy, check):
    """Download ``url`` into a temporary file next to ``path``, of a name unique to this call
    (so that concurrent downloads never share one), and yield its path once complete and its
    SHA-256 checked; the file is deleted on exit unless the caller moved it.

    ``sha256`` is the expected value (a shipped one); None takes the one recorded by an earlier
    download of ``path`` (``{path}.sha256``), and without it records this download's value
    (trust on first use). A mismatch deletes the download and raises ``ValueError`` naming both
    values; a network failure raises ``ConnectionError`` naming ``url``, the cause and
    ``remedy``, from None (the urllib traceback says no more). ``check(temporary_path)`` raises
    ``ValueError`` for a download that is not the expected kind of file (an error page served
    with status 200), before any hash is recorded.
    """
    path = pathlib.Path(path)
    record = path.with_name(path.name + ".sha256")
    source, advice = "kernelkit's table", (
        "The file on the server is not the one kernelkit knows: if you trust it, put it "
        f"(unpacked, for an archive) in {path.parent} by hand.")
    if sha256 is None and record.is_file():
        sha256, source = record.read_text(encoding="ascii").strip(), f"recorded in {record}"
        advice = f"If the file on the server changed and you trust it, delete {record}."
    fd, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    partial = pathlib.Path(partial)
    try:
        with os.fdopen(fd, "wb") as out:
            actual = _stream(url, out, remedy)
        if sha256 is not None and actual != sha256:
            raise ValueError(f"{url}: the download's SHA-256 is {actual}, expected {sha256} "
                             f"({source}); it was deleted. {advice}")
        check(partial)
        if sha256 is None:
            _write_atomically(record, actual + "\n")
        yield partial
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def _stream(url, out, remedy):
    """Copy ``url``'s body into the open file ``out``; its SHA-256 (hex)."""
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            expected_size = response.headers.get("Content-Length")
            size = 0
            while chunk := response.read(_CHUNK):
                out.write(chunk)
                digest.update(chunk)
                size += len(chunk)
    except urllib.error.HTTPError as exc:
        cause = f"the server answered HTTP {exc.code} ({exc.reason})"
        raise ConnectionError(f"Could not download {url}: {cause}. {remedy}.") from None
    except urllib.error.URLError as exc:
        raise ConnectionError(f"Could not download {url}: {_describe(exc.reason)}. "
                              f"{remedy}.") from None
    except (OSError, http.client.HTTPException) as exc:
        raise ConnectionError(f"Could not download {url}: {_describe(exc)}. {remedy}.") from None
    if expected_size is not None and expected_size.isdigit() and size != int(expected_size):
        raise ConnectionError(f"Could not download {url}: the connection closed after {size} of "
                              f"{expected_size} bytes. {remedy}.")
    return digest.hexdigest()


def _describe(cause):
    """A failure's cause in words (a timeout says how long was waited)."""
    if isinstance(cause, (socket.timeout, TimeoutError)):
        return f"no answer within {TIMEOUT} s"
    return str(cause) or type(cause).__name__


def _write_atomically(path, text):
    fd, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(text)
    os.replace(partial, path)


def _members(archive, name):
    """The members of the zip ``archive`` in its folder ``{name}/``; a ValueError unless it is
    a TU archive of ``name`` (a zip holding ``{name}/{name}_A.txt``, no member outside)."""
    try:
        with zipfile.ZipFile(archive) as zf:
            members = [m for m in zf.infolist() if m.filename.startswith(f"{name}/")]
    except zipfile.BadZipFile:
        raise ValueError(f"the download of {name}.zip is not a zip archive.") from None
    if not any(m.filename == f"{name}/{name}_A.txt" for m in members):
        raise ValueError(f"the download of {name}.zip has no {name}/{name}_A.txt: it is not a "
                         f"TU data set archive of {name!r}.")
    for member in members:
        if ".." in pathlib.PurePosixPath(member.filename).parts:
            raise ValueError(f"the download of {name}.zip: member {member.filename!r} points "
                             "outside its folder.")
    return members


def _unpack(archive, home, name):
    """Extract the folder ``{name}/`` of the zip ``archive`` into ``home / name``, through a
    temporary folder of this call's own renamed once complete. A folder ``home / name`` that
    is already there was placed whole by a concurrent fetch (or by hand) and is kept."""
    staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{name}.", dir=home))
    try:
        with zipfile.ZipFile(archive) as zf:
            for member in _members(archive, name):
                zf.extract(member, staging)
        try:
            os.replace(staging / name, home / name)
        except OSError:  # "Directory not empty" (POSIX), "Access is denied" (Windows)
            if not (home / name).is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
