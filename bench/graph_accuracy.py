"""The graph classification accuracy table: every graph kernel on the TU benchmark sets.

For each data set and kernel, the Gram matrix is computed once on all graphs (its time is
reported), then an SVM on it (``kernelkit.svm.SVC(kernel="precomputed")``) is scored by 10-fold
stratified cross-validation, C chosen in each training part by an inner 5-fold cross-validation
over 10⁻³ … 10³ (7 values): the protocol of the graph-kernel surveys (Kriege, Johansson & Morris,
"A survey on graph kernels", Applied Network Science 2020; Borgwardt et al., "Graph kernels:
state-of-the-art and future challenges", Foundations and Trends in Machine Learning 2020). The
table holds the mean ± standard deviation of the 10 test accuracies, in percent.

Run it as ``kernelkit bench graph-accuracy [--datasets MUTAG,PTC_MR] [--kernels WL,SP]
[--data FOLDER] [--out FILE] [--quick]``. The kernels are the entries of :data:`KERNELS`: a new
kernel is one more entry there. A kernel that cannot run on a set (it needs node attributes the
set has no, or the set is too large for its pairwise time) is skipped, with the reason in its
cell.
"""

import argparse
import dataclasses
import os
import pathlib
import sys
import time
from collections.abc import Callable

import numpy as np

__all__ = ["DATASETS", "KERNELS", "KernelEntry", "format_table", "main", "nested_cv_accuracy",
           "run"]

DATASETS = ("MUTAG", "PTC_MR", "ENZYMES", "PROTEINS_full", "NCI1")
C_GRID = np.logspace(-3, 3, 7)
SEED = 0


@dataclasses.dataclass(frozen=True)
class KernelEntry:
    """One row of the table.

    Parameters
    ----------
    make : callable
        ``make() -> kernel``: a new kernelkit graph kernel (normalised, as the surveys use them),
        whose ``fit_transform(graphs)`` is the Gram matrix.
    uses : {"labels", "edge labels", "attributes", "structure"}
        What the kernel reads besides the edges: node labels, node and edge labels, node
        attributes (the set must have them), or nothing. A kernel that does not read
        attributes gets ``(adjacency, node_labels, edge_labels)`` tuples.
    max_graphs : int or None
        Skip sets with more graphs (a pairwise kernel's time grows with their square); None:
        no limit.
    """

    make: Callable
    uses: str = "labels"
    max_graphs: int = None


def _kernels():
    from kernelkit import kernels

    return kernels


# name -> entry; the parameters are those of the surveys (WL h = 5, graphlets of size 3 sampled,
# walks of length 3, geometric walks with a small decay). The pairwise kernels (subtree, random and
# geometric walks) take ~40 s on the 600 ENZYMES graphs on 2 cores, hence their limits.
KERNELS = {
    "WL": KernelEntry(lambda: _kernels().WeisfeilerLehmanKernel(n_iter=5, normalize=True)),
    "SP": KernelEntry(lambda: _kernels().ShortestPathKernel(normalize=True)),
    "graphlet": KernelEntry(lambda: _kernels().GraphletKernel(
        k=3, n_graphlet_samples=300, random_state=SEED, normalize=True), uses="structure"),
    "walk": KernelEntry(lambda: _kernels().WalkKernel(n=3, normalize=True), max_graphs=5000),
    "subtree": KernelEntry(lambda: _kernels().SubtreeKernel(depth=3, normalize=True),
                           max_graphs=700),
    "random-walk": KernelEntry(lambda: _kernels().RandomWalkKernel(p_stop=0.1, normalize=True),
                               max_graphs=700),
    "geometric-walk": KernelEntry(
        lambda: _kernels().GeometricWalkKernel(lambda_=0.01, normalize=True), max_graphs=700),
    "VH": KernelEntry(lambda: _kernels().VertexHistogramKernel(normalize=True)),
    "EH": KernelEntry(lambda: _kernels().EdgeHistogramKernel(normalize=True),
                      uses="edge labels"),
    "WL-edge": KernelEntry(lambda: _kernels().WeisfeilerLehmanKernel(
        n_iter=5, edge_label="label", normalize=True), uses="edge labels"),
    "WL-OA": KernelEntry(lambda: _kernels().WeisfeilerLehmanOptimalAssignmentKernel(
        n_iter=5, normalize=True)),
    "NH": KernelEntry(lambda: _kernels().NeighborhoodHashKernel(R=3, normalize=True)),
    "propagation": KernelEntry(lambda: _kernels().PropagationKernel(
        t_max=5, random_state=SEED, normalize=True)),
    "propagation-attr": KernelEntry(lambda: _kernels().PropagationKernel(
        t_max=5, node_label=None, node_attributes="attributes", random_state=SEED,
        normalize=True), uses="attributes"),
    "pyramid": KernelEntry(lambda: _kernels().PyramidMatchKernel(L=4, d=6, normalize=True)),
    "NSPDK": KernelEntry(lambda: _kernels().NeighborhoodSubgraphPairwiseDistanceKernel(
        r=3, d=4)),
    "ODD-ST": KernelEntry(lambda: _kernels().ODDSTKernel(h=3, lambda_=0.5, normalize=True)),
    "GraphHopper": KernelEntry(lambda: _kernels().GraphHopperKernel(
        node_attributes="attributes", kernel="linear", normalize=True), uses="attributes"),
    "core-SP": KernelEntry(lambda: _kernels().CoreFrameworkKernel(
        _kernels().ShortestPathKernel(), normalize=True)),
    # the product node kernel, label delta times the attribute kernel (ENZYMES, PROTEINS_full)
    "GraphHopper-labels": KernelEntry(lambda: _kernels().GraphHopperKernel(
        node_attributes="attributes", node_label="label", kernel="linear", normalize=True),
        uses="attributes"),
    "propagation-labels-attr": KernelEntry(lambda: _kernels().PropagationKernel(
        t_max=5, node_attributes="attributes", random_state=SEED, normalize=True),
        uses="attributes"),
    # fixed n_iter and gamma: the WWL paper also picks n_iter in 1..7 and gamma in 1e-4..1e1
    # graphkit-learn's defaults: paths up to 10 edges, MinMax; walks of 10 vertices
    "path": KernelEntry(lambda: _kernels().PathKernel(max_length=10, normalize=True)),
    "marginalized": KernelEntry(lambda: _kernels().MarginalizedKernel(
        p_quit=0.5, n_iter=10, normalize=True), max_graphs=1200),
    "WWL": KernelEntry(lambda: _kernels().WassersteinWeisfeilerLehmanKernel(n_iter=3)),
    "WWL-attr": KernelEntry(lambda: _kernels().WassersteinWeisfeilerLehmanKernel(
        n_iter=3, gamma=0.1, node_label=None, node_attributes="attributes"),
        uses="attributes", max_graphs=1000),
    "treelet": KernelEntry(lambda: _kernels().TreeletKernel(normalize=True)),
}


def nested_cv_accuracy(K, y, *, n_folds=10, n_inner_folds=5, C_grid=C_GRID, seed=SEED):
    """Test accuracies of an SVM on the precomputed Gram ``K`` by stratified ``n_folds``-fold
    cross-validation, C chosen in each training part by an inner stratified
    ``n_inner_folds``-fold cross-validation over ``C_grid`` (ties: the smallest C).

    Parameters
    ----------
    K : ndarray of shape (n_graphs, n_graphs)
    y : ndarray of shape (n_graphs,)
    n_folds, n_inner_folds : int
    C_grid : sequence of float
    seed : int
        Seeds the shuffles of both fold splits.

    Returns
    -------
    accuracies : ndarray of shape (n_folds,)
    chosen_C : ndarray of shape (n_folds,)
    """
    from sklearn.model_selection import StratifiedKFold

    from kernelkit.svm import SVC

    def score(train, test, C):
        model = SVC(kernel="precomputed", C=C).fit(K[np.ix_(train, train)], y[train])
        return np.mean(model.predict(K[np.ix_(test, train)]) == y[test])

    accuracies, chosen = [], []
    outer = StratifiedKFold(n_folds, shuffle=True, random_state=seed)
    for train, test in outer.split(K, y):
        inner = StratifiedKFold(n_inner_folds, shuffle=True, random_state=seed)
        mean_scores = np.zeros(len(C_grid))
        for fit, check in inner.split(train, y[train]):
            mean_scores += [score(train[fit], train[check], C) for C in C_grid]
        C = C_grid[int(np.argmax(mean_scores))]
        chosen.append(C)
        accuracies.append(score(train, test, C))
    return np.array(accuracies), np.array(chosen)


@dataclasses.dataclass
class Cell:
    """One (kernel, data set) result: accuracies and the Gram time, or why it was skipped."""

    accuracies: np.ndarray = None
    gram_seconds: float = None
    skipped: str = None

    def text(self):
        if self.skipped:
            return f"skipped: {self.skipped}"
        mean, std = 100 * self.accuracies.mean(), 100 * self.accuracies.std()
        return f"{mean:.1f} ± {std:.1f} (Gram {self.gram_seconds:.2f} s)"


def load_dataset(name, data=None):
    """``(graphs as tuples, target)`` of the TU set ``name``: from the folder ``data`` when it
    holds ``name/``, else the shipped copy (MUTAG), else :func:`kernelkit.datasets.fetch_tudataset`
    (downloaded once into its cache)."""
    from kernelkit.datasets import fetch_tudataset, load_mutag, load_tudataset

    if data is not None and (pathlib.Path(data) / name).is_dir():
        bunch = load_tudataset(data, name, as_networkx=False)
    elif name == "MUTAG":
        bunch = load_mutag(as_networkx=False)
    else:
        bunch = fetch_tudataset(name, as_networkx=False)
    return bunch.graphs, bunch.target


def run_cell(entry, graphs, y, *, n_folds, n_inner_folds, name=""):
    """The :class:`Cell` of ``entry`` on one set (skipped cells say why)."""
    has_attributes = len(graphs[0]) == 4
    if entry.uses == "attributes" and not has_attributes:
        return Cell(skipped=f"needs node attributes; {name} has none")
    if entry.uses == "labels" and graphs[0][1] is None:
        return Cell(skipped=f"needs node labels; {name} has none")
    if entry.uses == "edge labels" and graphs[0][2] is None:
        return Cell(skipped=f"needs edge labels; {name} has none")
    if entry.max_graphs is not None and len(graphs) > entry.max_graphs:
        return Cell(skipped=f"too slow: {len(graphs)} graphs > {entry.max_graphs} for this "
                            "pairwise kernel")
    if entry.uses != "attributes" and has_attributes:
        graphs = [graph[:3] for graph in graphs]
    start = time.perf_counter()
    try:
        K = entry.make().fit_transform(graphs)
    except (ValueError, TypeError, MemoryError) as exc:
        return Cell(skipped=f"failed: {type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - start
    accuracies, _ = nested_cv_accuracy(K, y, n_folds=n_folds, n_inner_folds=n_inner_folds)
    return Cell(accuracies=accuracies, gram_seconds=seconds)


def run(datasets=DATASETS, kernels=tuple(KERNELS), *, data=None, quick=False, log=sys.stderr):
    """Every cell of the table: ``{(kernel, data set): Cell}`` (a set that cannot be loaded gives
    skipped cells with the reason)."""
    n_folds, n_inner_folds = (3, 3) if quick else (10, 5)
    cells = {}
    for name in datasets:
        try:
            graphs, y = load_dataset(name, data)
        except (OSError, ValueError) as exc:
            for kernel in kernels:
                cells[kernel, name] = Cell(skipped=f"cannot load {name}: {exc}")
            continue
        for kernel in kernels:
            start = time.perf_counter()
            cells[kernel, name] = cell = run_cell(KERNELS[kernel], graphs, y, n_folds=n_folds,
                                                  n_inner_folds=n_inner_folds, name=name)
            print(f"{name:>14} {kernel:<15} {cell.text()}  [{time.perf_counter() - start:.1f} s]",
                  file=log, flush=True)
    return cells


def format_table(cells, datasets, kernels, *, quick=False, machine=""):
    """The Markdown table: one row per kernel (its parameters beside), one column per set."""
    n_folds, n_inner_folds = (3, 3) if quick else (10, 5)
    lines = [
        "# Graph classification accuracy" + (" (quick)" if quick else ""),
        "",
        (f"SVM on the precomputed normalised Gram (`kernelkit.svm.SVC(kernel=\"precomputed\")`); "
        f"stratified {n_folds}-fold cross-validation (shuffled, seed {SEED}), C chosen in each "
        f"training part by an inner stratified {n_inner_folds}-fold cross-validation over "
        "10^-3 … 10^3 (7 values). Cells: mean ± standard deviation of the test accuracies, in "
        "percent, and the time of the one Gram matrix on all graphs."),
        "",
    ]
    if machine:
        lines += [machine, ""]
    lines += ["| kernel | parameters | " + " | ".join(datasets) + " |",
              "|---|---|" + "---|" * len(datasets)]
    for kernel in kernels:
        row = [cells[kernel, name].text() for name in datasets]
        lines.append(f"| {kernel} | {_parameters(KERNELS[kernel].make())} | "
                     + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def _parameters(kernel):
    """``ClassName(every parameter but the threads and verbosity)``, defaults included."""
    params = {key: value for key, value in kernel.get_params(deep=False).items()
              if key not in ("n_jobs", "verbose", "n_samples")}
    text = ", ".join(f"{key}={value!r}" for key, value in params.items())
    return f"`{type(kernel).__name__}({text})`"


def _names(kind, available):
    def parse(text):
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in available]
        if unknown:
            raise argparse.ArgumentTypeError(
                f"unknown {kind} {', '.join(map(repr, unknown))}; available: "
                f"{', '.join(available)}")
        if not names:
            raise argparse.ArgumentTypeError(f"no {kind} named")
        return names
    return parse


def _dataset_names(text):
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("no data set named")
    return names


class _Parser(argparse.ArgumentParser):
    """Errors in one line (no usage block), exit status 2, as the other commands."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(prog="kernelkit bench graph-accuracy"):
    parser = _Parser(prog=prog, description=__doc__.split("\n\n")[1])
    parser.add_argument("--datasets", type=_dataset_names, default=list(DATASETS),
                        metavar="NAMES", help=f"comma-separated TU set names (default: "
                        f"{','.join(DATASETS)})")
    parser.add_argument("--kernels", type=_names("kernel", list(KERNELS)),
                        default=list(KERNELS), metavar="NAMES",
                        help=f"comma-separated kernels (default: all: {','.join(KERNELS)})")
    parser.add_argument("--data", metavar="FOLDER",
                        help="a folder of TU set folders (FOLDER/NAME/NAME_A.txt, ...); sets "
                             "not there: MUTAG is shipped, the others are downloaded once "
                             "into kernelkit's data cache")
    parser.add_argument("--out", metavar="FILE", help="also write the table to FILE")
    parser.add_argument("--quick", action="store_true",
                        help="3-fold outer and inner cross-validation (a quick check)")
    return parser


def main(argv=None):
    """Run the command with ``argv``; print the table (and write it to ``--out``); return 0."""
    from kernelkit.bench._harness import machine_description

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.data is not None and not os.path.isdir(args.data):
        parser.error(f"--data {args.data!r} is not a folder")
    if args.out is not None and os.path.isdir(args.out):
        parser.error(f"--out {args.out!r} is a folder; name a file")
    load_before = os.getloadavg()
    cells = run(args.datasets, args.kernels, data=args.data, quick=args.quick)
    machine = machine_description(load_before, os.getloadavg())
    table = format_table(cells, args.datasets, args.kernels, quick=args.quick, machine=machine)
    print(table)
    if args.out is not None:
        pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(args.out).write_text(table, encoding="utf-8")
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
