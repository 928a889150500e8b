"""Write graphkit-learn's Gram matrices that ``tests/kernels/test_path.py`` and
``tests/kernels/test_marginalized.py`` compare with.

``python -m kernelkit.bench.graphkit_learn_values OUT_DIR`` (needs ``graphkit-learn``) writes,
on the first ``N_GRAPHS`` MUTAG molecules, ``path_up_to_h.npz``: ``PathUpToH`` for every
``(depth, k_func, edge labels)`` of ``PATH_CASES``, keyed ``path_<depth>_<k_func>_<edges>``;
``marginalized.npz``: ``Marginalized(p_quit=P_QUIT, remove_totters=False)`` for every
``(n_iteration, edge labels)`` of ``MARGINALIZED_CASES``, keyed
``marginalized_<n_iteration>_<edges>``. The live comparison, timed, is the suite
``graphkit_learn``.
"""

import pathlib
import sys

import numpy as np

N_GRAPHS = 12
PATH_CASES = [(depth, k_func, edges) for depth in (2, 10) for k_func in ("MinMax", "tanimoto")
              for edges in (False, True)]
P_QUIT = 0.3
MARGINALIZED_CASES = [(n_iteration, edges) for n_iteration in (1, 3, 10)
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


def marginalized_key(n_iteration, edges):
    return f"marginalized_{n_iteration}_{'edges' if edges else 'nodes'}"


def marginalized_gram(graphs, n_iteration, edges, p_quit=P_QUIT):
    """graphkit-learn's ``Marginalized`` Gram matrix (no tottering removal) of networkx
    ``graphs`` (labels ``label``)."""
    from gklearn.kernels import Marginalized

    kernel = Marginalized(node_labels=["label"], edge_labels=["label"] if edges else [],
                          p_quit=p_quit, n_iteration=n_iteration, remove_totters=False,
                          ds_infos={"directed": False})
    gram, _ = kernel.compute([g.copy() for g in graphs], parallel=None, normalize=False,
                             verbose=0)
    return np.asarray(gram)


def main(out_dir):
    from kernelkit.datasets import load_mutag

    out_dir = pathlib.Path(out_dir)
    graphs = load_mutag(as_networkx=True).graphs[:N_GRAPHS]
    np.savez_compressed(out_dir / "path_up_to_h.npz",
                        **{path_key(*case): path_up_to_h_gram(graphs, *case)
                           for case in PATH_CASES})
    np.savez_compressed(out_dir / "marginalized.npz",
                        **{marginalized_key(*case): marginalized_gram(graphs, *case)
                           for case in MARGINALIZED_CASES})


if __name__ == "__main__":
    main(sys.argv[1])
