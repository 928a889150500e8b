"""Explicit graph features: ``transform_features`` (+ a linear model) vs the Gram matrix, the
histogram kernels vs GraKeL, and streaming ``partial_fit``."""

import warnings

import numpy as np
from kernelkit.bench._harness import Contender, Suite, shared_data
from kernelkit.bench.suites.graphs import (
    _grakel_format,
    molecule_like_graphs,
)

N_ITER = 5


def _cases(quick):
    n_large = 2_000 if quick else 20_000
    cases = [{"task": task, "data": "synthetic", "n_graphs": n_large}
             for task in ("wl features", "wl edge features", "stream")]
    cases += [{"task": kernel, "data": "synthetic", "n_graphs": 300 if quick else 2_000}
              for kernel in ("vh", "eh")]
    if not quick and shared_data("NCI1") is not None:
        cases += [{"task": "vh", "data": name, "n_graphs": None} for name in ("ENZYMES", "NCI1")]
    return cases


def _setup(params):
    if params["data"] == "synthetic":
        graphs = molecule_like_graphs(params["n_graphs"])
    else:
        from kernelkit.datasets import load_tudataset

        graphs = load_tudataset(shared_data("NCI1"), params["data"], as_networkx=False).graphs
    labels = np.array([i % 2 for i in range(len(graphs))])
    grakel = None
    if params["task"] == "vh":
        grakel = _grakel_format(graphs)
    elif params["task"] == "eh":
        grakel = [[*entry, bonds] for entry, (_, _, bonds) in zip(_grakel_format(graphs), graphs)]
    data = {"params": params, "graphs": graphs, "y": labels, "grakel": grakel}
    if params["task"].startswith("wl"):
        data["kernel"] = _wl(params).fit(graphs)
    return data


def _wl(params):
    from kernelkit.kernels import WeisfeilerLehmanKernel

    edge_label = "label" if params["task"] == "wl edge features" else None
    return WeisfeilerLehmanKernel(n_iter=N_ITER, edge_label=edge_label)


def _features_summary(phi):
    norms = np.asarray(phi.multiply(phi).sum(axis=1)).ravel()
    return {"sum |phi|^2": float(norms.sum()), "nnz": int(phi.nnz)}


def _fit(data):
    _wl(data["params"]).fit(data["graphs"])


def _features(data):
    return _features_summary(data["kernel"].transform_features(data["graphs"]))


def _features_in_one_call(data):
    phi = _wl(data["params"]).partial_fit(data["graphs"]).transform_features(data["graphs"])
    return _features_summary(phi)


def _features_and_linear_model(data):
    from sklearn.svm import LinearSVC

    phi = data["kernel"].transform_features(data["graphs"])
    model = LinearSVC(C=0.01, dual=True, max_iter=200, tol=1e-3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence at max_iter: the timing is the point
        model.fit(phi, data["y"])
    return _features_summary(phi)


def _gram(data):
    K = data["kernel"].transform(data["graphs"])
    return {"sum |phi|^2": float(np.trace(K)), "nnz": None}


def _stream(data, batch_size=1_000):
    """``partial_fit`` then ``transform_features`` batch by batch, as a million-graph script
    would; the rows are kept (as sparse matrices) and summarised."""
    kernel = _wl(data["params"])
    graphs = data["graphs"]
    rows = []
    for start in range(0, len(graphs), batch_size):
        batch = graphs[start:start + batch_size]
        rows.append(kernel.partial_fit(batch).transform_features(batch))
    norms = sum(float(phi.multiply(phi).sum()) for phi in rows)
    return {"sum |phi|^2": norms, "nnz": sum(phi.nnz for phi in rows)}


def _histogram(data):
    from kernelkit.kernels import EdgeHistogramKernel, VertexHistogramKernel

    kernel = VertexHistogramKernel() if data["params"]["task"] == "vh" else EdgeHistogramKernel()
    K = kernel.fit_transform(data["graphs"])
    return {"sum": float(K.sum()), "trace": float(np.trace(K))}


def _grakel_histogram(data):
    from grakel.kernels import EdgeHistogram, VertexHistogram

    kernel = (VertexHistogram if data["params"]["task"] == "vh" else EdgeHistogram)(
        normalize=False)
    K = kernel.fit_transform(data["grakel"])
    return {"sum": float(K.sum()), "trace": float(np.trace(K))}


def _is(*tasks):
    return lambda params: params["task"] in tasks


SUITE = Suite(
    name="graph_features",
    description="""
Explicit graph features. ``wl features`` / ``wl edge features``: Weisfeiler–Lehman
(``n_iter=5``, without and with bond labels) on molecule-like random graphs (the generator of
the ``graphs`` suite, seed 0; 20 000 graphs, 2 000 in the quick profile), with a kernel fitted
on them once outside the timings: ``features`` = ``transform_features(X)`` (the sparse Φ),
``features + LinearSVC`` = the same then scikit-learn's ``LinearSVC`` (liblinear, ``C=0.01``,
at most 200 epochs) on Φ, ``Gram`` = ``transform(X)`` (the dense n × n Gram matrix alone, no
model trained on it), and, for scale, ``fit`` = ``fit(X)`` (the relabelling both need once).
Values: Σ‖Φ(G)‖² (the Gram's trace: they agree) and Φ's non-zeros. ``stream``: the same graphs
by ``partial_fit`` + ``transform_features`` in batches of 1 000, against
``partial_fit(X).transform_features(X)`` in one call.
``vh`` / ``eh``: vertex and edge histogram Gram matrices ``fit_transform`` vs GraKeL's
``VertexHistogram`` / ``EdgeHistogram`` (``normalize=False``), on synthetic molecules (2 000;
300 quick) and, for ``vh``, on ENZYMES and NCI1 from ``../shared/data`` when present (neither
has edge labels). Ratios from alternating runs are the figure to read: they stay fair when
other jobs share the machine.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("features", _features, applies=_is("wl features", "wl edge features")),
        Contender("features in one call", _features_in_one_call, applies=_is("stream")),
        Contender("features + LinearSVC", _features_and_linear_model, requires=("sklearn",),
                  applies=_is("wl features", "wl edge features")),
        Contender("Gram", _gram, applies=_is("wl features", "wl edge features")),
        Contender("fit", _fit, applies=_is("wl features", "wl edge features")),
        Contender("streamed features", _stream, applies=_is("stream")),
        Contender("kernelkit", _histogram, applies=_is("vh", "eh")),
        Contender("GraKeL", _grakel_histogram, requires=("grakel",), applies=_is("vh", "eh")),
    ],
    repeats=3,
    warmup=False,
)
