"""Reading FASTA files."""

import os

__all__ = ["read_fasta"]


def read_fasta(path):
    """Read a FASTA file: records ``>name description`` followed by sequence lines.

    Sequence lines of one record are joined; whitespace and blank lines are ignored, and so are
    ``;`` comment lines. The letters are kept as they are (no case change).

    Parameters
    ----------
    path : str or os.PathLike
        The file (UTF-8 or ASCII text).

    Returns
    -------
    names : list of str
        The header of each record, without the ``>`` (the whole line, description included).
    sequences : list of str
        The sequence of each record, in file order.

    Raises
    ------
    ValueError
        If the file is not UTF-8 text, or sequence letters come before the first header; the
        message names the file and the line.

    Examples
    --------
    >>> import tempfile, os
    >>> from kernelkit.datasets import read_fasta
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "two.fasta")
    ...     with open(path, "w") as f:
    ...         _ = f.write(">a first\\nACD\\nEF\\n>b\\nGH\\n")
    ...     read_fasta(path)
    (['a first', 'b'], ['ACDEF', 'GH'])
    """
    names, sequences, chunks = [], [], None
    # bytes, decoded line by line: a decoding error then names its line
    with open(os.fspath(path), "rb") as f:
        for line_number, raw in enumerate(f, start=1):
            line = _decode(raw, path, line_number).strip()
            if not line or line.startswith(";"):
                continue
            if line.startswith(">"):
                if chunks is not None:
                    sequences.append("".join(chunks))
                names.append(line[1:].strip())
                chunks = []
            elif chunks is None:
                raise ValueError(f"{path}, line {line_number}: sequence letters before the first "
                                 "'>' header; is this a FASTA file?")
            else:
                chunks.append("".join(line.split()))
    if chunks is not None:
        sequences.append("".join(chunks))
    return names, sequences


def _decode(raw, path, line_number):
    try:
        # utf-8-sig: a byte-order mark (some Windows editors write one) is not part of line 1
        return raw.decode("utf-8-sig" if line_number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}, line {line_number}: byte 0x{raw[exc.start]:02x} is not UTF-8 "
                         "text; is this a FASTA file?") from None
