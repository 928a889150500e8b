"""graphkit-learn's treelet kernel next to :class:`~kernelkit.kernels.TreeletKernel`.

``python -m kernelkit.bench.treelet_graphkit_learn [OUT_DIR]`` (needs ``graphkit-learn``)
computes graphkit-learn's ``Treelet`` Gram matrix with a linear sub-kernel (node labels, then
node and edge labels) on the MUTAG molecules ``GRAPHS`` and prints how far it is from
``TreeletKernel``'s; with ``OUT_DIR`` it writes them to ``OUT_DIR/treelet.npz`` (keys
``treelet_nodes``, ``treelet_edges``), the values ``tests/kernels/test_treelet.py`` compares
with. Without graphkit-learn it says so and stops.
"""

import pathlib
import sys

import numpy as np

# MUTAG molecules (indices into load_mutag) where graphkit-learn counts as the paper does:
# every node of degree at most 3, no triangle, no 4-cycle, no path of three degree-3 nodes
# (graphkit-learn's pattern 12 skips the second pair of such a path).
GRAPHS = list(range(12))


def graphkit_learn_gram(graphs, edges):
    """graphkit-learn's ``Treelet`` Gram matrix (linear sub-kernel) of networkx ``graphs``."""
    from gklearn.kernels import Treelet

    kernel = Treelet(node_labels=["label"], edge_labels=["label"] if edges else [],
                     sub_kernel=lambda x, y: float(np.dot(x, y)),
                     ds_infos={"directed": False})
    gram, _ = kernel.compute([g.copy() for g in graphs], parallel=None, normalize=False,
                             verbose=0)
    return np.asarray(gram)


def main(out_dir=None):
    try:
        import gklearn  # noqa: F401
    except ImportError:
        print("graphkit-learn is not installed: pip install graphkit-learn")
        return
    from kernelkit.datasets import load_mutag
    from kernelkit.kernels import TreeletKernel

    mutag = load_mutag(as_networkx=True).graphs
    graphs = [mutag[i] for i in GRAPHS]
    grams = {}
    for edges in (False, True):
        theirs = graphkit_learn_gram(graphs, edges)
        ours = TreeletKernel(edge_label="label" if edges else None).fit_transform(graphs)
        key = f"treelet_{'edges' if edges else 'nodes'}"
        print(f"{key}: largest difference {np.abs(theirs - ours).max():g}")
        grams[key] = theirs
    if out_dir is not None:
        np.savez_compressed(pathlib.Path(out_dir) / "treelet.npz", **grams)


if __name__ == "__main__":
    main(*sys.argv[1:2])
