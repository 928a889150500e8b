"""DNA sequence sets of the UCI Machine Learning Repository (CC BY 4.0): promoters (shipped) and
splice junctions (downloaded by :func:`fetch_uci_splice`)."""

from importlib import resources

import numpy as np
from sklearn.utils import Bunch

from kernelkit.datasets._fetch import download, get_data_home, resolve_url

__all__ = ["fetch_uci_splice", "load_uci_promoters"]

SPLICE_URL = ("https://archive.ics.uci.edu/ml/machine-learning-databases/molecular-biology/"
              "splice-junction-gene-sequences/splice.data")
SPLICE_URL_VARIABLE = "KERNELKIT_UCI_SPLICE_URL"


def load_uci_promoters():
    """106 DNA sequences of *Escherichia coli*, 57 nucleotides each, promoters (``"+"``) or not
    (``"-"``), shipped with kernelkit.

    UCI Machine Learning Repository, "Molecular Biology (Promoter Gene Sequences)", donated by
    Towell, Noordewier and Shavlik (1990); licence CC BY 4.0. 53 sequences of each class, in
    lower-case ``acgt`` as UCI writes them. Provenance:
    ``kernelkit/datasets/data/uci_promoters/README.md``.

    Returns
    -------
    data : sklearn.utils.Bunch
        ``data`` (list of 106 str), ``target`` (ndarray of str, ``"+"`` or ``"-"``),
        ``names`` (list of str, UCI's instance names), ``DESCR``.

    References
    ----------
    G. Towell, J. Shavlik and M. Noordewier, "Refinement of approximate domain theories by
    knowledge-based neural networks", AAAI 1990.

    Examples
    --------
    >>> from kernelkit.datasets import load_uci_promoters
    >>> promoters = load_uci_promoters()
    >>> len(promoters.data), len(promoters.data[0]), sorted(promoters.target.tolist())[::53]
    (106, 57, ['+', '-'])
    """
    folder = resources.files("kernelkit.datasets") / "data" / "uci_promoters"
    return _read_uci(folder / "promoters.data", (folder / "README.md").read_text("utf-8"))


def fetch_uci_splice(data_home=None, *, base_url=None):
    """3 190 primate DNA sequences of 60 nucleotides around splice junctions: exon/intron
    boundary (``"EI"``), intron/exon (``"IE"``) or neither (``"N"``), downloaded once.

    UCI Machine Learning Repository, "Molecular Biology (Splice-junction Gene Sequences)",
    Towell, Noordewier and Shavlik, from GenBank 64.1; licence CC BY 4.0. 767 EI, 768 IE and
    1 655 N; 15 sequences hold ambiguity codes (``N``, ``D``, ``R``, ``S``) besides ``ACGT``.
    The file is downloaded into ``data_home/splice.data`` on the first call and read from there
    afterwards. No published SHA-256 of it was found, so it is trusted on first use: its hash is
    recorded in ``data_home/splice.data.sha256`` and a later download must match it.

    Parameters
    ----------
    data_home : str or path-like, default=None
        The cache folder (see :func:`get_data_home`).
    base_url : str, default=None
        The file's full address; None reads the environment variable
        ``KERNELKIT_UCI_SPLICE_URL``, and without it uses UCI's.

    Returns
    -------
    data : sklearn.utils.Bunch
        ``data`` (list of str), ``target`` (ndarray of str), ``names`` (list of str), ``DESCR``.

    Raises
    ------
    ConnectionError
        If the file cannot be downloaded; the message names the URL, the cause and where to
        put the file instead.
    ValueError
        If the download does not match the recorded SHA-256, a line is not
        ``class, name, sequence``, or ``data_home`` or ``base_url`` is not usable (empty, a
        file, an address without a scheme).
    TypeError
        If ``data_home`` or ``base_url`` is not of its type.

    Examples
    --------
    >>> from kernelkit.datasets import fetch_uci_splice
    >>> splice = fetch_uci_splice()  # doctest: +SKIP
    >>> len(splice.data), sorted(set(splice.target.tolist()))  # doctest: +SKIP
    (3190, ['EI', 'IE', 'N'])
    """
    url = resolve_url(base_url, SPLICE_URL_VARIABLE, SPLICE_URL)
    home = get_data_home(data_home)
    path = home / "splice.data"
    if not path.is_file():
        download(url, path, None, f"Check the network, or download splice.data elsewhere and "
                 f"place it at {path}", check=lambda partial: _read_uci(partial, ""))
    descr = ("UCI Machine Learning Repository, Molecular Biology (Splice-junction Gene "
             "Sequences); Towell, Noordewier and Shavlik. Licence CC BY 4.0.")
    return _read_uci(path, descr)


def _read_uci(file, descr):
    """A UCI molecular-biology file (``class, name, sequence`` per line, fields padded with
    spaces and tabs) as a Bunch."""
    target, names, data = [], [], []
    text = file.read_bytes().decode("ascii", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 3 or not all(fields):
            raise ValueError(f"{file}, line {number}: expected 'class, name, sequence', got "
                             f"{line.strip()[:80]!r}")
        target.append(fields[0])
        names.append(fields[1])
        data.append(fields[2])
    return Bunch(data=data, target=np.array(target), names=names, DESCR=descr)
