"""Graph input for every graph kernel: validation and conversion into one :class:`GraphBatch`.

Accepted graphs (Mairal & Vert, "Graph kernels": labelled undirected graphs):

- ``networkx.Graph`` with the node label in the attribute ``node_label`` (default ``"label"``)
  and, when asked for, the edge label in the attribute ``edge_label``;
- ``(adjacency, node_labels)``, ``(adjacency, node_labels, edge_labels)`` or
  ``(adjacency, node_labels, edge_labels, node_attributes)`` tuples, with ``adjacency`` a square
  dense array or ``scipy.sparse`` matrix (a non-zero entry is an edge; weights are not used),
  ``node_labels`` a sequence of length ``n_nodes`` (or a dict ``{node_index: label}``),
  ``edge_labels`` a dict ``{(i, j): label}`` (either orientation) or a dense
  ``(n_nodes, n_nodes)`` array read at the edges, and ``node_attributes`` an
  ``(n_nodes, n_attributes)`` array of floats; ``node_labels`` and ``edge_labels`` may be None
  when the kernel does not use them.

Continuous node attributes (for the kernels that take ``node_attributes=...``) are float vectors
of one length ``n_attributes`` on every node of every graph: in networkx graphs a 1-d array-like
under the node attribute named by ``node_attributes`` (``"attributes"`` for the TU data sets),
in tuples the fourth element. They must be finite; the length learned at ``fit`` is required at
``transform``.

Unlabelled graphs (one rule for every graph kernel): a graph has no node labels when it is a
bare adjacency (a square dense array or ``scipy.sparse`` array or matrix, not in a tuple), a
tuple without node labels (``(adjacency,)`` or ``node_labels`` None), or a networkx graph whose
nodes carry no attribute at all (``node_attributes`` aside). Its nodes then take the labels of
the rule ``unlabeled_nodes``: ``"constant"`` (one label for every node) or ``"degree"`` (the
node's degree). ``node_label=None`` applies the rule to every graph, labelled or not. A
networkx graph whose nodes carry attributes, but not ``node_label``, is an error (a misspelt
attribute name must not give an unlabelled kernel), and so is a batch that mixes graphs with
and without node labels.

Node and edge labels are coded by :class:`LabelCoder`. A sequence of tuples is read by
``_tuple_batch`` at once when it can; networkx graphs, and tuples it leaves (any fault among
them), are read here graph by graph, which raises the error naming the first graph at fault.
"""

from itertools import chain

import numpy as np
import scipy.sparse as sp

from kernelkit._core._csr_blocks import check_symmetric_pattern
from kernelkit.kernels._graphs._encoding._graph_batch import GraphBatch
from kernelkit.kernels._graphs._encoding._label_coder import LabelCoder
from kernelkit.kernels._graphs._encoding._tuple_batch import read_tuple_batch
from kernelkit.kernels._graphs._encoding._tuple_labels import edge_label_list, node_label_list
from kernelkit.utils._validation import checked_csr_arrays

__all__ = ["encode_graphs"]


def encode_graphs(X, node_label="label", edge_label=None, node_codes=None, edge_codes=None,
                  node_attributes=None, n_attributes=None, unlabeled_nodes="constant"):
    """Validate a sequence of graphs and convert it into a :class:`GraphBatch`.

    Parameters
    ----------
    X : sequence of networkx.Graph, of (adjacency, node_labels[, edge_labels[, \
node_attributes]]) tuples or of bare adjacencies
    node_label : str or None
        Node attribute of networkx graphs holding the label; ``None`` gives every node the
        label of ``unlabeled_nodes`` (tuples may then omit ``node_labels``).
    edge_label : str or None
        Edge attribute of networkx graphs holding the edge label; ``None`` ignores edge labels.
        For tuples any non-None value means "use the third element".
    node_codes, edge_codes : dict or None
        Label maps learned at fit; ``None`` learns them from ``X``.
    node_attributes : str or None
        Node attribute of networkx graphs holding the continuous attribute vector; ``None``
        ignores attributes. For tuples any non-None value means "use the fourth element".
    n_attributes : int or None
        The attribute length learned at fit; ``None`` takes the length of the first graph's.
    unlabeled_nodes : {"constant", "degree"}
        The labels of the nodes of unlabelled graphs (module docstring): one label (None) for
        every node, or the node's degree (an int).

    Returns
    -------
    batch : GraphBatch
        Its ``unlabeled_rule`` is ``unlabeled_nodes`` when the labels come from it, else None.
    node_codes, edge_codes : dict
        The maps ``label -> code`` of every label of ``X``: learned, or the given ones with
        the fresh codes of ``X``'s unseen labels; ``edge_codes`` is empty when ``edge_label``
        is None.
    """
    # a tuple of graphs holds no node labels: a 2-d second element is a graph of its own
    if _is_networkx_graph(X) or sp.issparse(X) or (
            isinstance(X, tuple) and 1 <= len(X) <= 4 and _is_adjacency(X[0])
            and not (len(X) > 1 and _is_adjacency(X[1]))):
        raise TypeError(
            "X is a single graph: kernels take a sequence of graphs, e.g. [graph].")
    not_a_sequence = isinstance(X, (str, bytes, dict)) or not hasattr(X, "__len__")
    if not_a_sequence or (isinstance(X, np.ndarray) and X.ndim != 1):
        raise TypeError(
            "X must be a sequence of graphs (networkx.Graph or (adjacency, node_labels[, "
            f"edge_labels[, node_attributes]]) tuples), got {type(X).__name__}."
        )
    if len(X) == 0:
        raise ValueError("X contains no graph: at least one graph is required.")
    # a bare adjacency is the tuple (adjacency,): a graph without labels
    X = [graph if type(graph) is tuple else (graph,) if _is_adjacency(graph) else graph
         for graph in X]
    node_coder = LabelCoder(node_codes)
    edge_coder = LabelCoder(edge_codes)
    read = read_tuple_batch(X, node_label, edge_label, node_attributes, n_attributes)
    if read is None:  # networkx graphs, or an input the per-graph reader names the fault of
        read = _read_one_by_one(X, node_label, edge_label, node_attributes, n_attributes)
    n_nodes, rows, cols, labels, edge_labels, attributes = read
    offset = int(n_nodes.sum())
    if offset > np.iinfo(np.int32).max:
        raise ValueError(f"{offset} nodes in all: a batch holds at most 2**31 - 1 nodes.")
    node_ptr = np.zeros(len(X) + 1, dtype=np.intp)
    np.cumsum(n_nodes, out=node_ptr[1:])
    rule = None
    if labels is None:  # unlabelled graphs, or labels not read: the rule's labels
        rule = unlabeled_nodes
        labels = _unlabelled_node_labels(rule, rows, offset)
    node_label_codes = node_coder.encode(labels, "node labels")
    if edge_label is not None:
        edge_label_codes = edge_coder.encode(edge_labels, "edge labels")
    else:
        edge_label_codes = np.zeros(len(rows), dtype=np.int32)
    indptr, indices, edge_label_codes = _symmetric_csr(
        rows, cols, edge_label_codes, offset, node_ptr, edge_label is not None
    )
    batch = GraphBatch(node_ptr, indptr, indices, node_label_codes, edge_label_codes,
                       attributes, unlabeled_rule=rule)
    return batch, node_coder.all_codes, edge_coder.all_codes


def _is_adjacency(graph):
    """Whether ``graph`` is a bare adjacency: a 2-d array or a ``scipy.sparse`` array/matrix."""
    return sp.issparse(graph) or (isinstance(graph, np.ndarray) and graph.ndim == 2)


def _unlabelled_node_labels(rule, rows, n_nodes):
    """The labels of ``n_nodes`` nodes under ``rule``: None for every node (``"constant"``,
    coded and learned at fit as any other label, so that kernels counting fitted labels count
    it), or each node's degree, its number of adjacency entries ``rows`` (``"degree"``)."""
    if rule == "degree":
        return np.bincount(rows, minlength=n_nodes)
    return [None] * n_nodes


def _read_one_by_one(X, node_label, edge_label, node_attributes, n_attributes):
    """What :func:`read_tuple_batch` returns, read graph by graph: any graph, and the error of
    the first graph at fault."""
    n_nodes = np.zeros(len(X), dtype=np.int64)
    # one list per field over all graphs, one array each at the end: per-graph numpy calls cost
    # more than the reading itself on the usual small molecules
    n_entries = np.zeros(len(X), dtype=np.int64)
    degrees, cols, labels, edge_labels, attributes = [], [], [], [], []
    labelled = None  # whether graph 0 has node labels: every graph must agree
    for g, graph in enumerate(X):
        n, deg, col, lab, elab, attr = _read_graph(graph, g, node_label, edge_label,
                                                   node_attributes)
        if node_label is not None:
            labelled = _check_labelled(lab is not None, labelled, g)
        if node_attributes is not None:
            n_attributes = _check_attribute_length(attr, g, n_attributes, len(attributes) == 0)
            attributes.append(attr)
        n_nodes[g] = n
        n_entries[g] = len(col)
        degrees.extend(deg)
        cols.extend(col)
        labels.extend(lab or ())
        edge_labels.extend(elab)
    first_node = np.cumsum(n_nodes) - n_nodes
    rows = np.repeat(np.arange(n_nodes.sum(), dtype=np.int64), np.asarray(degrees, dtype=np.int64))
    cols = np.asarray(cols, dtype=np.int64) + np.repeat(first_node, n_entries)
    attributes = np.concatenate(attributes) if node_attributes is not None else None
    return n_nodes, rows, cols, labels if labelled else None, edge_labels, attributes


def _check_labelled(labelled, first, g):
    """Whether graph ``g`` has node labels (``labelled``), checked against graph 0's
    (``first``; None for graph 0 itself): a batch mixing both is an error."""
    if first is not None and labelled != first:
        has, lacks = (g, 0) if labelled else (0, g)
        raise ValueError(
            f"graph {lacks} has no node labels but graph {has} has: label every graph, or pass "
            "node_label=None to give every node the label of unlabeled_nodes.")
    return labelled


def _read_graph(graph, g, node_label, edge_label, node_attributes):
    """``(n_nodes, degrees, cols, node_labels, edge_labels, attributes)`` of one graph: its
    adjacency entries node by node in order, ``degrees[i]`` of them for node ``i``, ``cols``
    their other ends (local ids), ``node_labels`` None when the graph has none (or they are
    not read), ``edge_labels`` their labels, and ``attributes`` the checked float64
    ``(n_nodes, n_attributes)`` attributes (None when not asked for)."""
    if isinstance(graph, tuple):
        return _read_tuple(graph, g, node_label, edge_label, node_attributes)
    if _is_networkx_graph(graph):
        return _read_networkx(graph, g, node_label, edge_label, node_attributes)
    raise TypeError(
        f"graph {g} is a {type(graph).__name__}: expected a networkx.Graph or an "
        "(adjacency, node_labels[, edge_labels[, node_attributes]]) tuple."
    )


def _is_networkx_graph(graph):
    # networkx is optional: only look at it if the object comes from it.
    if not type(graph).__module__.startswith("networkx"):
        return False
    import networkx as nx

    return isinstance(graph, nx.Graph)


def _read_networkx(graph, g, node_label, edge_label, node_attributes):
    if graph.is_directed():
        raise ValueError(f"graph {g} is directed: graph kernels here need undirected graphs.")
    if graph.is_multigraph():
        raise ValueError(f"graph {g} is a multigraph: parallel edges are not supported.")
    # networkx's own storage (dicts of dicts, as its algorithms read it): its views cost a Python
    # call per node and per edge, as much as a WL or shortest-path Gram on small graphs
    node_attrs, adjacency = graph._node, graph._adj
    n = len(node_attrs)
    _check_not_empty(n, g)
    labels = None
    # nodes without any attribute (but the continuous ones): an unlabelled graph; nodes with
    # some attribute but not node_label: an error, or a misspelt name would drop the labels
    if node_label is not None and any(attrs.keys() - {node_attributes}
                                      for attrs in node_attrs.values()):
        labels = _node_values(node_attrs, node_label, g,
                              "give every node a label, name the attribute with "
                              "node_label=..., or pass node_label=None to ignore the labels.")
    attributes = None
    if node_attributes is not None:
        attributes = _networkx_attributes(node_attrs, node_attributes, g)
    neighbours = list(adjacency.values())
    # each undirected edge is stored under both ends: the adjacency lists give (i, j) and (j, i)
    degrees = list(map(len, neighbours))
    cols = list(chain.from_iterable(neighbours))
    if list(node_attrs) != list(range(n)):  # nodes other than 0, ..., n - 1 in order
        index = {v: i for i, v in enumerate(node_attrs)}
        cols = list(map(index.__getitem__, cols))
    elab = []
    if edge_label is not None:
        elab = [data.get(edge_label) for nbrs in neighbours for data in nbrs.values()]
        if any(label is None for label in elab):
            e = elab.index(None)
            u = list(node_attrs)[np.searchsorted(np.cumsum(degrees), e, side="right")]
            v = list(node_attrs)[cols[e]]
            raise ValueError(
                f"graph {g}: edge {(u, v)!r} has no {edge_label!r} attribute; label every "
                "edge or pass edge_label=None."
            )
    return n, degrees, cols, labels, elab, attributes


def _read_tuple(graph, g, node_label, edge_label, node_attributes):
    if not 1 <= len(graph) <= 4:
        raise ValueError(
            f"graph {g} is a tuple of length {len(graph)}: expected (adjacency, node_labels), "
            "(adjacency, node_labels, edge_labels) or (adjacency, node_labels, edge_labels, "
            "node_attributes)."
        )
    adjacency = graph[0]
    if sp.issparse(adjacency):
        shape = adjacency.shape
        data, c, indptr = checked_csr_arrays(adjacency, f"graph {g}: the adjacency")
        r = np.repeat(np.arange(shape[0]), indptr[1:] - indptr[:-1])
    else:
        try:
            dense = np.asarray(adjacency)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"graph {g}: adjacency is not array-like: {exc}") from None
        numeric = np.issubdtype(dense.dtype, np.number) or dense.dtype == bool
        if dense.dtype == object or not numeric:
            raise TypeError(f"graph {g}: adjacency must be numeric, got dtype {dense.dtype}.")
        shape = dense.shape
        if len(shape) == 2:
            r, c = np.nonzero(dense)
            data = dense[r, c]
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"graph {g}: adjacency must be a square matrix, got shape {shape}.")
    if not np.isfinite(data).all():
        raise ValueError(f"graph {g}: adjacency contains NaN or infinity.")
    if not data.all():  # explicit zeros of a sparse matrix are not edges
        keep = data != 0
        r, c = r[keep], c[keep]
    n = shape[0]
    _check_not_empty(n, g)
    labels = None  # unlabelled graph, or labels not read
    if node_label is not None and len(graph) >= 2 and graph[1] is not None:
        labels = node_label_list(graph[1], n, g)
    elab = []
    if edge_label is not None:
        if len(graph) < 3 or graph[2] is None:
            raise ValueError(
                f"graph {g} has no edge labels: pass (adjacency, node_labels, edge_labels) or "
                "edge_label=None."
            )
        elab = edge_label_list(graph[2], r, c, n, g)
    attributes = None
    if node_attributes is not None:
        if len(graph) < 4 or graph[3] is None:
            raise ValueError(
                f"graph {g} has no node attributes: pass (adjacency, node_labels, edge_labels, "
                "node_attributes) with an (n_nodes, n_attributes) float array (labels may be "
                "None), or node_attributes=None."
            )
        attributes = _tuple_attributes(graph[3], n, g)
    # r is sorted (row-major nonzeros, canonical CSR): the entries come node by node
    return n, np.bincount(r, minlength=n).tolist(), c.tolist(), labels, elab, attributes


def _node_values(node_attrs, name, g, fix):
    """The values of the networkx node attribute ``name``, node by node; a ValueError naming
    the first node without one, and saying ``fix``."""
    try:
        return [attrs[name] for attrs in node_attrs.values()]
    except KeyError:
        v, attrs = next((v, attrs) for v, attrs in node_attrs.items() if name not in attrs)
        has = f" (its attributes: {', '.join(map(repr, attrs))})" if attrs else ""
        raise ValueError(
            f"graph {g}: node {v!r} has no {name!r} attribute{has}; {fix}") from None


def _networkx_attributes(node_attrs, name, g):
    """The ``(n_nodes, n_attributes)`` float64 attributes stored under ``name`` on every node."""
    values = _node_values(node_attrs, name, g,
                          "give every node an attribute vector, or name the attribute with "
                          "node_attributes=...")
    try:
        attributes = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        attributes = None
    if attributes is None or attributes.ndim != 2:
        # find the first node at fault, and say what is wrong with it
        nodes = list(node_attrs)
        vectors = [_attribute_vector(value, g, v, name) for v, value in zip(nodes, values)]
        for v, vector in zip(nodes, vectors):
            if len(vector) != len(vectors[0]):
                raise ValueError(
                    f"graph {g}: node {v!r} has {len(vector)} {name!r} values, node "
                    f"{nodes[0]!r} has {len(vectors[0])}: every node needs an attribute vector "
                    "of the same length."
                )
        attributes = np.stack(vectors)
    return _check_finite(np.ascontiguousarray(attributes), g, list(node_attrs))


def _attribute_vector(value, g, v, name):
    """One node's attribute vector as 1-d float64, or a ValueError saying why it is not one."""
    try:
        vector = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"graph {g}: node {v!r} has a non-numeric {name!r} attribute "
            f"({type(value).__name__}); attributes must be 1-d arrays of floats."
        ) from None
    if vector.ndim != 1:
        raise ValueError(
            f"graph {g}: node {v!r} has a {name!r} attribute of shape {vector.shape}; "
            "attributes must be 1-d arrays of floats (wrap a single value as [value])."
        )
    return vector


def _tuple_attributes(values, n, g):
    """The fourth tuple element as a checked ``(n_nodes, n_attributes)`` float64 array."""
    try:
        attributes = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"graph {g}: node_attributes must be an (n_nodes, n_attributes) array of floats; "
            "it is ragged or not numeric."
        ) from None
    if attributes.ndim != 2 or attributes.shape[0] != n:
        raise ValueError(
            f"graph {g}: node_attributes must have shape ({n}, n_attributes), got shape "
            f"{attributes.shape} (reshape a single attribute per node with .reshape(-1, 1))."
        )
    return _check_finite(np.ascontiguousarray(attributes), g, range(n))


def _check_finite(attributes, g, nodes):
    finite = np.isfinite(attributes).all(axis=1)
    if not finite.all():
        v = list(nodes)[int(np.argmin(finite))]
        raise ValueError(f"graph {g}: node {v!r} has NaN or infinite attributes.")
    return attributes


def _check_attribute_length(attributes, g, n_attributes, first):
    """The attribute length shared by every graph (and by the fitted ones when known)."""
    d = attributes.shape[1]
    if d == 0:
        raise ValueError(f"graph {g}: node attribute vectors are empty; give at least one value.")
    if n_attributes is not None and d != n_attributes:
        where = "the graphs seen at fit have" if first else "graph 0 has"
        raise ValueError(
            f"graph {g} has {d} attributes per node, {where} {n_attributes}: every node of "
            "every graph needs attribute vectors of one length."
        )
    return d


def _check_not_empty(n, g):
    if n == 0:
        raise ValueError(f"graph {g} has no nodes: empty graphs are not supported.")


def _symmetric_csr(rows, cols, edge_labels, n_nodes, node_ptr, labelled_edges):
    """Sorted block-diagonal CSR; rejects self-loops and directed (asymmetric) adjacencies.

    The entries of tuples come sorted by row and column; networkx graphs' are sorted here. The
    pattern is checked by the compiled ``check_symmetric_pattern`` (its transpose by a counting
    sort, compared with it)."""
    indptr = np.empty(n_nodes + 1, dtype=np.int64)
    verdict, entry = check_symmetric_pattern(rows, cols, indptr)
    if verdict == 3:  # not sorted
        order = np.lexsort((cols, rows))
        rows, cols, edge_labels = rows[order], cols[order], edge_labels[order]
        verdict, entry = check_symmetric_pattern(rows, cols, indptr)
    if verdict == 1:
        raise ValueError(
            f"graph {_graph_of(rows[entry], node_ptr)} has a self-loop: self-loops are not "
            "supported."
        )
    if verdict == 2:
        raise ValueError(
            f"graph {_graph_of(rows[entry], node_ptr)} is directed (its adjacency is not "
            "symmetric): graph kernels here need undirected graphs."
        )
    if labelled_edges:
        reverse = np.searchsorted(rows * n_nodes + cols, cols * n_nodes + rows)
        asymmetric = edge_labels != edge_labels[reverse]
        if asymmetric.any():
            raise ValueError(
                f"graph {_graph_of(rows[asymmetric][0], node_ptr)}: edge labels must be "
                "symmetric, but edges (i, j) and (j, i) have different labels."
            )
    return indptr.astype(np.intp, copy=False), cols.astype(np.int32), \
        edge_labels.astype(np.int32, copy=False)


def _graph_of(node, node_ptr):
    return int(np.searchsorted(node_ptr, node, side="right") - 1)
