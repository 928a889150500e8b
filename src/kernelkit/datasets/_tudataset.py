"""Readers of the TU Dortmund graph collection format, and the shipped MUTAG set."""

import io
import pathlib
import re
from importlib import resources

import numpy as np
import scipy.sparse as sp
from sklearn.utils import Bunch

__all__ = ["load_mutag", "load_tudataset"]

_INTEGER = re.compile(r"[+-]?[0-9]+")


def load_tudataset(path, name, *, as_networkx=True):
    """Load a graph classification set in the TU Dortmund format.

    The folder holds ``{name}_A.txt`` (one directed edge ``i, j`` per line, 1-based node ids;
    both ``i, j`` and ``i,j`` are accepted), ``{name}_graph_indicator.txt`` (graph id of every
    node), ``{name}_graph_labels.txt`` (class of every graph) and optionally
    ``{name}_node_labels.txt``, ``{name}_edge_labels.txt`` (aligned with ``_A``) and
    ``{name}_node_attributes.txt`` (one line of comma-separated floats per node, the same number
    ``n_attributes`` on every line).

    Parameters
    ----------
    path : str or path-like
        The folder with the files, or its parent (then ``path / name`` is used).
    name : str
        The set's name, the prefix of its files (e.g. ``"MUTAG"``).
    as_networkx : bool, default=True
        Return ``networkx.Graph`` objects (node attribute ``label``, edge attribute ``label``
        where the set has edge labels, node attribute ``attributes``, a float64 array of shape
        (n_attributes,), where the set has node attributes), or else
        ``(adjacency, node_labels, edge_labels)`` tuples with a ``scipy.sparse.csr_array``
        adjacency, an int64 label array (None without node labels) and a dict
        ``{(i, j): label}`` (None without edge labels), which every graph kernel accepts; a set
        with node attributes gives ``(adjacency, node_labels, edge_labels, node_attributes)``
        tuples, ``node_attributes`` a float64 array of shape (n_nodes, n_attributes).

    Returns
    -------
    data : sklearn.utils.Bunch
        ``graphs`` (list), ``target`` (ndarray of shape (n_graphs,)), ``DESCR`` (the set's
        README when present).

    Raises
    ------
    FileNotFoundError
        If a required file is missing.
    ValueError
        If a file is not text, a line is not the integers expected, or the files disagree
        (an edge between two graphs, a label count that is not the node count, attribute lines
        of different lengths, an attribute that is NaN or infinite, ...); the message names the
        file and, where one line is at fault, the line.

    Examples
    --------
    >>> from kernelkit.datasets import load_mutag
    >>> data = load_mutag(as_networkx=False)
    >>> len(data.graphs), data.target.shape
    (188, (188,))
    """
    folder = pathlib.Path(path)
    if (folder / name).is_dir():
        folder = folder / name
    return _read_tu(folder, name, as_networkx)


def _read_tu(folder, name, as_networkx):
    """The reader behind :func:`load_tudataset`; ``folder`` is a ``pathlib.Path`` or an
    ``importlib.resources`` Traversable (only ``/``, ``is_file``, ``read_bytes`` and
    ``read_text`` are used)."""
    a_file = folder / f"{name}_A.txt"
    indicator_file = folder / f"{name}_graph_indicator.txt"
    labels_file = folder / f"{name}_graph_labels.txt"
    node_labels_file = folder / f"{name}_node_labels.txt"
    edge_labels_file = folder / f"{name}_edge_labels.txt"
    attributes_file = folder / f"{name}_node_attributes.txt"
    edges = _read_table(a_file, name, columns=2) - 1
    graph_of_node = _read_table(indicator_file, name)[:, 0] - 1
    target = _read_table(labels_file, name)[:, 0]
    node_labels = _read_table(node_labels_file, name, required=False)
    edge_labels = _read_table(edge_labels_file, name, required=False)
    attributes = _read_table(attributes_file, name, columns=None, required=False,
                             dtype=np.float64)
    n_graphs, n_nodes = len(target), len(graph_of_node)
    outside = np.flatnonzero((graph_of_node < 0) | (graph_of_node >= n_graphs))
    if outside.size:
        row = outside[0]
        raise ValueError(f"{_where(indicator_file, row)}: graph {graph_of_node[row] + 1} is "
                         f"outside 1..{n_graphs} ({labels_file.name} labels {n_graphs} graphs).")
    after = np.flatnonzero(np.diff(graph_of_node) < 0)
    if after.size:
        row = after[0] + 1
        raise ValueError(f"{_where(indicator_file, row)}: graph {graph_of_node[row] + 1} after "
                         f"graph {graph_of_node[row - 1] + 1}; the nodes must be listed graph by "
                         "graph, in ascending order.")
    empty = np.flatnonzero(np.bincount(graph_of_node, minlength=n_graphs) == 0)
    if empty.size:
        raise ValueError(f"{indicator_file}: graph {empty[0] + 1} has no node ({labels_file.name} "
                         f"labels {n_graphs} graphs).")
    if node_labels is not None and len(node_labels) != n_nodes:
        raise ValueError(f"{node_labels_file}: {len(node_labels)} node labels "
                         f"for the {n_nodes} nodes of {indicator_file.name}.")
    if edge_labels is not None and len(edge_labels) != len(edges):
        raise ValueError(f"{edge_labels_file}: {len(edge_labels)} edge labels "
                         f"for the {len(edges)} edges of {a_file.name}.")
    if attributes is not None:
        if len(attributes) != n_nodes:
            raise ValueError(f"{attributes_file}: {len(attributes)} attribute lines "
                             f"for the {n_nodes} nodes of {indicator_file.name}.")
        not_finite = np.flatnonzero(~np.all(np.isfinite(attributes), axis=1))
        if not_finite.size:
            row = not_finite[0]
            raise ValueError(f"{_where(attributes_file, row)}: attribute "
                             f"{np.flatnonzero(~np.isfinite(attributes[row]))[0] + 1} is "
                             f"{attributes[row][~np.isfinite(attributes[row])][0]}; node "
                             "attributes must be finite.")
    node_labels = None if node_labels is None else node_labels[:, 0]
    edge_labels = None if edge_labels is None else edge_labels[:, 0]
    outside = np.flatnonzero(np.any((edges < 0) | (edges >= n_nodes), axis=1))
    if outside.size:
        row = outside[0]
        raise ValueError(f"{_where(a_file, row)}: edge {tuple((edges[row] + 1).tolist())} has an "
                         f"end outside nodes 1..{n_nodes} (the nodes of {indicator_file.name}).")
    edge_graph = graph_of_node[edges[:, 0]]
    across = np.flatnonzero(edge_graph != graph_of_node[edges[:, 1]])
    if across.size:
        row = across[0]
        raise ValueError(f"{_where(a_file, row)}: edge {tuple((edges[row] + 1).tolist())} joins "
                         "two different graphs.")
    node_ptr = np.searchsorted(graph_of_node, np.arange(n_graphs + 1))
    # sorted by (row, col): every graph's edges are then a CSR slice
    order = np.lexsort((edges[:, 1], edges[:, 0]))
    edge_ptr = np.searchsorted(edge_graph[order], np.arange(n_graphs + 1))
    graphs = []
    for g in range(n_graphs):
        first, n = node_ptr[g], node_ptr[g + 1] - node_ptr[g]
        mine = order[edge_ptr[g]:edge_ptr[g + 1]]
        rows, cols = edges[mine, 0] - first, edges[mine, 1] - first
        labels = None if node_labels is None else node_labels[first:first + n]
        elabels = None if edge_labels is None else dict(
            zip(zip(rows.tolist(), cols.tolist()), edge_labels[mine].tolist()))
        node_attributes = None if attributes is None else attributes[first:first + n]
        graphs.append((rows, cols, n, labels, elabels, node_attributes))
    readme = folder / "README.txt"
    descr = (readme.read_text(encoding="utf-8", errors="replace") if readme.is_file()
             else f"TU data set {name}.")
    convert = _to_networkx if as_networkx else _to_tuple
    return Bunch(graphs=[convert(*g) for g in graphs], target=target, DESCR=descr)


def _read_table(file, name, columns=1, required=True, dtype=np.int64):
    """The numbers of a TU file as an array of shape (n_rows, columns), one row per non-blank
    line (values separated by commas, or by whitespace in a file without commas): integers
    (``dtype=np.int64``) or floats (``dtype=np.float64``); ``columns=None`` takes the number of
    values of the first line, which every line must then have.

    None for a missing optional file; a ValueError naming the file and the first bad line.
    """
    if not file.is_file():
        if required:
            raise FileNotFoundError(f"TU data set {name!r}: {file} does not exist.")
        return None
    data = file.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ValueError(f"{file}, line {line}: byte 0x{data[exc.start]:02x} is not text; is "
                         "this a TU data set file?") from None
    delimiter = "," if "," in text else None
    if text.strip():
        try:  # numpy's parser is fast, but its errors name neither the file nor the line
            table = np.loadtxt(io.StringIO(text), delimiter=delimiter, dtype=dtype, ndmin=2,
                               comments=None)
            if columns is None or table.shape[1] == columns:
                return table
        except (ValueError, OverflowError):
            pass
    parse = _parse_integers if dtype == np.int64 else _parse_floats
    return parse(file, text, delimiter, columns)


def _lines(text, delimiter):
    """``(line number, stripped line, fields)`` of the non-blank lines of ``text``."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            yield number, line.strip(), [field.strip() for field in line.split(delimiter)]


def _parse_integers(file, text, delimiter, columns):
    """:func:`_read_table`'s integer parser line by line: the tolerant and exact path
    (whitespace-only lines, the line of an error)."""
    expected = ("two integers separated by a comma" if columns == 2
                else "one integer" if columns == 1 else f"{columns} integers")
    rows = []
    for number, line, fields in _lines(text, delimiter):
        if len(fields) != columns or not all(map(_INTEGER.fullmatch, fields)):
            raise ValueError(f"{file}, line {number}: expected {expected}, got {line!r}")
        row = [int(field) for field in fields]
        for value in row:
            if not -2**63 <= value < 2**63:
                raise ValueError(f"{file}, line {number}: {value} is outside the range of "
                                 "64-bit integers")
        rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(-1, columns)


def _parse_floats(file, text, delimiter, columns):
    """:func:`_read_table`'s float parser line by line (``columns=None``: as many values as the
    first line has)."""
    rows = []
    for number, line, fields in _lines(text, delimiter):
        columns = len(fields) if columns is None else columns
        if len(fields) != columns:
            raise ValueError(f"{file}, line {number}: {len(fields)} values, but the lines above "
                             f"have {columns}; every line holds one node's {columns} attributes")
        try:
            rows.append([float(field) for field in fields])
        except ValueError:
            bad = next(field for field in fields if not _is_float(field))
            raise ValueError(f"{file}, line {number}: {bad!r} is not a number") from None
    return np.array(rows, dtype=np.float64).reshape(-1, columns or 0)


def _is_float(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _where(file, row):
    """``"FILE, line N"`` for the ``row``-th non-blank line of ``file`` (an error message's
    start)."""
    lines = file.read_bytes().decode("utf-8").split("\n")
    number = [i for i, line in enumerate(lines, start=1) if line.strip()][row]
    return f"{file}, line {number}"


def _to_tuple(rows, cols, n, labels, elabels, attributes):
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    adjacency = sp.csr_array((np.ones(len(rows)), cols, indptr), shape=(n, n))
    if attributes is None:
        return (adjacency, labels, elabels)
    return (adjacency, labels, elabels, attributes)


def _to_networkx(rows, cols, n, labels, elabels, attributes):
    import networkx as nx  # a dependency, imported only when graphs are built

    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    if labels is not None:
        nx.set_node_attributes(graph, dict(enumerate(labels.tolist())), "label")
    if attributes is not None:
        nx.set_node_attributes(graph, dict(enumerate(attributes)), "attributes")
    if elabels is None:
        graph.add_edges_from(zip(rows.tolist(), cols.tolist()))
    else:
        graph.add_edges_from((i, j, {"label": label}) for (i, j), label in elabels.items())
    return graph


def load_mutag(*, as_networkx=True):
    """The MUTAG molecules (188 graphs, 2 classes), shipped with kernelkit.

    Mutagenic aromatic and heteroaromatic nitro compounds (Debnath et al., J. Med. Chem. 1991)
    in the TU Dortmund version: node labels 0..6 (C, N, O, F, I, Cl, Br), edge labels 0..3
    (aromatic, single, double, triple), classes ``1`` (125 graphs) and ``-1`` (63).

    The files are package data, read from the folder ``data/MUTAG`` of the installed
    ``kernelkit.datasets`` package (``site-packages/kernelkit/datasets/data/MUTAG`` in a
    virtual environment; ``src/kernelkit/datasets/data/MUTAG`` in a clone): the TU Dortmund
    format's ``MUTAG_A.txt``, ``MUTAG_graph_indicator.txt``, ... (what ``kernelkit gram`` and
    :func:`load_tudataset` read), the collection's ``README.txt`` and ``PROVENANCE.md``.
    ``importlib.resources.files("kernelkit.datasets") / "data" / "MUTAG"`` is its path (see
    the Examples).

    Parameters
    ----------
    as_networkx : bool, default=True
        See :func:`load_tudataset`.

    Returns
    -------
    data : sklearn.utils.Bunch
        ``graphs``, ``target``, ``DESCR``.

    Examples
    --------
    >>> from kernelkit.datasets import load_mutag
    >>> import numpy as np
    >>> data = load_mutag(as_networkx=False)
    >>> np.unique(data.target, return_counts=True)
    (array([-1,  1]), array([ 63, 125]))

    The folder, e.g. for ``kernelkit gram wl FOLDER -o K.npy``:

    >>> from importlib import resources
    >>> folder = resources.files("kernelkit.datasets") / "data" / "MUTAG"
    >>> (folder / "MUTAG_A.txt").is_file()
    True
    """
    folder = resources.files("kernelkit.datasets") / "data" / "MUTAG"
    return _read_tu(folder, "MUTAG", as_networkx)
