"""Classification accuracy of the Wasserstein Weisfeiler–Lehman kernel by the paper's protocol.

Togninalli et al. (NeurIPS 2019), on MUTAG (discrete labels) and ENZYMES (continuous node
attributes, standardised over all the nodes first, as the authors' code does): an SVM on
``K = exp(-γ D)`` scored by 10-fold stratified cross-validation, the number of WL iterations
``H ∈ 1..max_h``, ``γ ∈ 10⁻⁴ … 10¹`` (6 values) and ``C ∈ 10⁻³ … 10³`` (7 values) chosen
together in each training part by an inner stratified 5-fold cross-validation; ``D`` is
computed once per ``H`` on all graphs (it does not depend on the other graphs or on the labels).
The SVM is :class:`kernelkit.svm.SVC` with ``kernel="precomputed"``: on the continuous sets
the Gram may be indefinite, which it accepts above 128 training graphs (see the kernel's
docstring); the paper uses a Kreĭn-space SVM there, so its accuracies may differ.

Run: ``python -m kernelkit.bench.wwl_accuracy [--datasets MUTAG,ENZYMES] [--max-h 7]
[--data FOLDER] [--quick]``; prints mean ± standard deviation of the 10 test accuracies.
"""

import argparse
import sys

import numpy as np

GAMMAS = np.logspace(-4, 1, 6)
C_GRID = np.logspace(-3, 3, 7)
SEED = 42


def distance_matrices(graphs, continuous, max_h):
    """``{H: D}`` for ``H = 1..max_h``."""
    from kernelkit.kernels import WassersteinWeisfeilerLehmanKernel

    if continuous:
        stacked = np.vstack([x for *_, x in graphs])
        mean, std = stacked.mean(axis=0), stacked.std(axis=0)
        graphs = [(a, None, None, (x - mean) / np.where(std > 0, std, 1.0))
                  for a, _, _, x in graphs]
        params = {"node_label": None, "node_attributes": "attributes"}
    else:
        graphs = [graph[:3] for graph in graphs]
        params = {}
    return {h: WassersteinWeisfeilerLehmanKernel(n_iter=h, **params).fit(graphs)
            .wasserstein_distances() for h in range(1, max_h + 1)}


def nested_cv_accuracy(distances, y, *, gammas=GAMMAS, C_grid=C_GRID, seed=SEED):
    """Test accuracies of the outer folds, ``(H, γ, C)`` chosen by the inner folds (ties: the
    first in the order of the grids)."""
    from sklearn.model_selection import StratifiedKFold

    from kernelkit.svm import SVC

    grams = [(h, gamma, np.exp(-gamma * D)) for h, D in distances.items() for gamma in gammas]

    def score(K, train, test, C):
        model = SVC(kernel="precomputed", C=C).fit(K[np.ix_(train, train)], y[train])
        return np.mean(model.predict(K[np.ix_(test, train)]) == y[test])

    accuracies = []
    outer = StratifiedKFold(10, shuffle=True, random_state=seed)
    for train, test in outer.split(np.zeros(len(y)), y):
        inner = list(StratifiedKFold(5, shuffle=True, random_state=seed)
                     .split(train, y[train]))
        scores = [(np.mean([score(K, train[fit], train[check], C) for fit, check in inner]),
                   k, C) for k, (_, _, K) in enumerate(grams) for C in C_grid]
        best = max(scores, key=lambda s: s[0])  # the first of the ties
        accuracies.append(score(grams[best[1]][2], train, test, best[2]))
    return np.array(accuracies)


def main(argv=None):
    from kernelkit.bench.graph_accuracy import load_dataset

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="MUTAG,ENZYMES")
    parser.add_argument("--max-h", type=int, default=7)
    parser.add_argument("--data", help="folder of the TU sets (default: the shared data)")
    parser.add_argument("--quick", action="store_true",
                        help="H up to 2, three values of gamma (a check that it runs)")
    args = parser.parse_args(argv)
    if args.data is None:
        from kernelkit.bench._shared_data import shared_data

        args.data = shared_data("ENZYMES")
    max_h, gammas = (2, GAMMAS[::2]) if args.quick else (args.max_h, GAMMAS)
    for name in args.datasets.split(","):
        graphs, y = load_dataset(name, args.data)
        distances = distance_matrices(graphs, name == "ENZYMES", max_h)
        accuracies = nested_cv_accuracy(distances, np.asarray(y), gammas=gammas)
        print(f"{name}: {100 * accuracies.mean():.1f} ± {100 * accuracies.std():.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
