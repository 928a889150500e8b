"""Readers of the TU Dortmund graph collection format, and the shipped MUTAG set."""

import pathlib
from importlib import resources

import numpy as np
import scipy.sparse as sp
from sklearn.utils import Bunch

__all__ = ["load_mutag", "load_tudataset"]


def load_tudataset(path, name, *, as_networkx=True):
    """Load a graph classification set in the TU Dortmund format.

    The folder holds ``{name}_A.txt`` (one directed edge ``i, j`` per line, 1-based node ids;
    both ``i, j`` and ``i,j`` are accepted), ``{name}_graph_indicator.txt`` (graph id of every
    node), ``{name}_graph_labels.txt`` (class of every graph) and optionally
    ``{name}_node_labels.txt`` and ``{name}_edge_labels.txt`` (aligned with ``_A``).

    Parameters
    ----------
    path : str or path-like
        The folder with the files, or its parent (then ``path / name`` is used).
    name : str
        The set's name, the prefix of its files (e.g. ``"MUTAG"``).
    as_networkx : bool, default=True
        Return ``networkx.Graph`` objects (node attribute ``label``, edge attribute ``label``
        where the set has edge labels), or else
        ``(adjacency, node_labels, edge_labels)`` tuples with a ``scipy.sparse.csr_array``
        adjacency, an int64 label array (None without node labels) and a dict
        ``{(i, j): label}`` (None without edge labels), which every graph kernel accepts.

    Returns
    -------
    data : sklearn.utils.Bunch
        ``graphs`` (list), ``target`` (ndarray of shape (n_graphs,)), ``DESCR`` (the set's
        README when present).

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
    ``importlib.resources`` Traversable (only ``/``, ``is_file`` and ``read_text`` are used)."""

    def table(suffix, required=True):
        file = folder / f"{name}_{suffix}.txt"
        if not file.is_file():
            if required:
                raise FileNotFoundError(f"TU data set {name!r}: {file} does not exist.")
            return None
        text = file.read_text().replace(",", " ")
        return np.array(text.split(), dtype=np.int64)

    edges = table("A").reshape(-1, 2) - 1
    graph_of_node = table("graph_indicator") - 1
    target = table("graph_labels")
    node_labels = table("node_labels", required=False)
    edge_labels = table("edge_labels", required=False)
    n_graphs, n_nodes = len(target), len(graph_of_node)
    if np.any(np.diff(graph_of_node) < 0) or graph_of_node.min() != 0 or \
            graph_of_node.max() != n_graphs - 1:
        raise ValueError(f"TU data set {name!r}: graph_indicator must list graphs 1..{n_graphs} "
                         "in ascending order.")
    if node_labels is not None and len(node_labels) != n_nodes:
        raise ValueError(f"TU data set {name!r}: {len(node_labels)} node labels for {n_nodes} "
                         "nodes.")
    if edge_labels is not None and len(edge_labels) != len(edges):
        raise ValueError(f"TU data set {name!r}: {len(edge_labels)} edge labels for "
                         f"{len(edges)} edges.")
    if edges.size and (edges.min() < 0 or edges.max() >= n_nodes):
        raise ValueError(f"TU data set {name!r}: edge endpoints outside 1..{n_nodes}.")
    edge_graph = graph_of_node[edges[:, 0]]
    if np.any(edge_graph != graph_of_node[edges[:, 1]]):
        raise ValueError(f"TU data set {name!r}: an edge joins two different graphs.")
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
        graphs.append((rows, cols, n, labels, elabels))
    readme = folder / "README.txt"
    descr = readme.read_text() if readme.is_file() else f"TU data set {name}."
    convert = _to_networkx if as_networkx else _to_tuple
    return Bunch(graphs=[convert(*g) for g in graphs], target=target, DESCR=descr)


def _to_tuple(rows, cols, n, labels, elabels):
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    adjacency = sp.csr_array((np.ones(len(rows)), cols, indptr), shape=(n, n))
    return (adjacency, labels, elabels)


def _to_networkx(rows, cols, n, labels, elabels):
    import networkx as nx  # a dependency, imported only when graphs are built

    graph = nx.Graph()
    if labels is None:
        graph.add_nodes_from(range(n))
    else:
        graph.add_nodes_from((i, {"label": int(label)}) for i, label in enumerate(labels))
    if elabels is None:
        graph.add_edges_from(zip(rows.tolist(), cols.tolist()))
    else:
        graph.add_edges_from((i, j, {"label": label}) for (i, j), label in elabels.items())
    return graph


def load_mutag(*, as_networkx=True):
    """The MUTAG molecules (188 graphs, 2 classes), shipped with kernelkit.

    Mutagenic aromatic and heteroaromatic nitro compounds (Debnath et al., J. Med. Chem. 1991)
    in the TU Dortmund version: node labels 0..6 (C, N, O, F, I, Cl, Br), edge labels 0..3
    (aromatic, single, double, triple), classes ``1`` (125 graphs) and ``-1`` (63). Provenance in
    ``kernelkit/datasets/data/MUTAG/PROVENANCE.md``.

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
    """
    folder = resources.files("kernelkit.datasets") / "data" / "MUTAG"
    return _read_tu(folder, "MUTAG", as_networkx)
