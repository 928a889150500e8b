"""The Wasserstein Weisfeiler–Lehman distances of kernelkit against the authors' code.

The peer is the authors' package ``wwl`` (Togninalli et al., NeurIPS 2019; PyPI ``wwl``, which
needs ``python-igraph`` and ``pot``): its ``pairwise_wasserstein_distance`` on a few MUTAG
graphs (discrete labels) and ENZYMES graphs (continuous attributes) is compared with
:meth:`WassersteinWeisfeilerLehmanKernel.wasserstein_distances`. With ``--write FOLDER`` the
graphs and the authors' distances are written as the JSON files that
``tests/kernels/test_wasserstein_weisfeiler_lehman.py`` checks against (``tests/data/wwl``).

Two differences of definition are kept out of the cases, and documented in the kernel: the
authors standardise the attributes over all the nodes of the graphs given (done here before
both computations, so the stored attributes are the standardised ones), and halve the
attributes of a node without neighbours at every iteration (kernelkit keeps them): the ENZYMES
graphs taken have no isolated node.

Run: ``python -m kernelkit.bench.wwl_authors [--write FOLDER]``; without ``wwl`` installed it
says so and stops. ENZYMES comes from the shared data folder (``KERNELKIT_SHARED_DATA``).
"""

import argparse
import json
import pathlib
import sys

import numpy as np

N_ITER = 3
N_GRAPHS = 8


def _cases():
    from kernelkit.bench._shared_data import shared_data
    from kernelkit.datasets import load_mutag, load_tudataset

    mutag = [(a.toarray(), [str(label) for label in labels])
             for a, labels, _ in load_mutag(as_networkx=False).graphs[:N_GRAPHS]]
    cases = {"mutag": (True, mutag)}
    folder = shared_data("ENZYMES")
    if folder is None:
        print("ENZYMES is not in the shared data folder: MUTAG only.")
        return cases
    enzymes = [(a.toarray(), x) for a, _, _, x in
               load_tudataset(folder, "ENZYMES", as_networkx=False).graphs]
    enzymes = [g for g in enzymes if g[0].sum(axis=1).min() > 0][:N_GRAPHS]
    stacked = np.vstack([x for _, x in enzymes])
    mean, std = stacked.mean(axis=0), stacked.std(axis=0)
    # standardised already, the attributes come out of the authors' own scaling unchanged
    # (to rounding): both codes see the same attributes
    cases["enzymes"] = (False, [(a, (x - mean) / np.where(std > 0, std, 1.0))
                                for a, x in enzymes])
    return cases


def authors_distances(graphs, discrete):
    """The authors' ``pairwise_wasserstein_distance`` of ``(adjacency, labels or attributes)``
    pairs."""
    import igraph
    import wwl

    converted = []
    for adjacency, nodes in graphs:
        g = igraph.Graph.Adjacency((np.asarray(adjacency) > 0).tolist(), mode="undirected")
        if discrete:
            g.vs["label"] = list(nodes)
        converted.append(g)
    features = None if discrete else [np.asarray(x) for _, x in graphs]
    return wwl.pairwise_wasserstein_distance(converted, node_features=features,
                                             num_iterations=N_ITER)


def kernelkit_distances(graphs, discrete):
    from kernelkit.kernels import WassersteinWeisfeilerLehmanKernel

    if discrete:
        return WassersteinWeisfeilerLehmanKernel(n_iter=N_ITER).fit(graphs).wasserstein_distances()
    tuples = [(a, [0] * len(x), None, x) for a, x in graphs]
    return WassersteinWeisfeilerLehmanKernel(
        n_iter=N_ITER, node_label=None, node_attributes="attributes").fit(tuples) \
        .wasserstein_distances()


def _record(graphs, discrete, distances):
    return {"discrete": discrete, "n_iter": N_ITER,
            "n_nodes": [len(nodes) for _, nodes in graphs],
            "edges": [np.argwhere(np.triu(a) > 0).tolist() for a, _ in graphs],
            "nodes": [list(nodes) if discrete else np.asarray(nodes).tolist()
                      for _, nodes in graphs],
            "distances": np.asarray(distances).tolist()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=pathlib.Path, help="folder of the JSON test cases")
    args = parser.parse_args(argv)
    try:
        import igraph  # noqa: F401
        import wwl  # noqa: F401
    except ImportError as error:
        print(f"the authors' package is not installed ({error}): pip install wwl")
        return 0
    for name, (discrete, graphs) in _cases().items():
        theirs = authors_distances(graphs, discrete)
        ours = kernelkit_distances(graphs, discrete)
        print(f"{name}: {len(graphs)} graphs, largest |ours - theirs| = "
              f"{np.abs(ours - theirs).max():.3g}")
        if args.write:
            args.write.mkdir(parents=True, exist_ok=True)
            (args.write / f"{name}.json").write_text(
                json.dumps(_record(graphs, discrete, theirs)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
