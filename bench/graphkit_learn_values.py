"""Write graphkit-learn's Gram matrices that ``tests/kernels/test_path.py`` compares with.

``python -m kernelkit.bench.graphkit_learn_values OUT.npz`` (needs ``graphkit-learn``): the
Gram matrices of ``PathUpToH`` on the first ``N_GRAPHS`` MUTAG molecules, for every
``(depth, k_func, edge labels)`` of ``PATH_CASES``, keyed ``path_<depth>_<k_func>_<edges>``.
The live comparison, timed, is the suite ``graphkit_learn``.
"""

import sys

import numpy as np

N_GRAPHS = 12
PATH_CASES = [(depth, k_func, edges) for depth in (2, 10) for k_func in ("MinMax", "tanimoto")
              for edges in (False, True)]


def path_key(depth, k_func, edges):
    return f"path_{depth}_{k_func}_{'edges' if edges else 'nodes'}"


def path_up_to_h_gram(graphs, depth, k_func, edges):
    """graphkit-learn's ``PathUpToH`` Gram matrix of networkx ``graphs`` (labels ``label``)."""
    from gklearn.kernels import PathUpToH

    kernel = PathUpToH(node_labels=["label"], edge_labels=["label"] if edges else [],
                       depth=depth, k_func=k_func, compute_method="trie",
                       ds_infos={"directed": False})
    gram, _ = kernel.compute([g.copy() for g in graphs], parallel=None, normalize=False,
                             verbose=0)
    return np.asarray(gram)


def main(out):
    from kernelkit.datasets import load_mutag

    graphs = load_mutag(as_networkx=True).graphs[:N_GRAPHS]
    np.savez_compressed(out, **{path_key(*case): path_up_to_h_gram(graphs, *case)
                                for case in PATH_CASES})


if __name__ == "__main__":
    main(sys.argv[1])
