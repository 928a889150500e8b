"""Multiple kernel learning: combine graph, string and vector kernels with SimpleMKL.

For each data set the Gram matrices are computed once (the kernels are unsupervised), then a
5-fold cross-validation, stratified and shuffled with a fixed seed, compares: every single kernel
(SVM, C tuned by an inner 3-fold search over 0.1, 1, 10), the kernel *and* C chosen by the inner
search (what a user tuning one kernel does), the uniform sum, and SimpleMKL (stopped at a duality
gap of 1% of its objective, C tuned by the same inner search). The weights SimpleMKL learns are
averaged over the 5 training folds. The fits run on one thread: problems this small gain
nothing from a second.
"""

import textwrap
import time

import numpy as np

from kernelkit.datasets import load_mutag, load_secreted_proteins
from kernelkit.kernels import (
    GraphletKernel,
    ShortestPathKernel,
    SpectrumKernel,
    WeisfeilerLehmanKernel,
    rbf_kernel,
)

C_GRID = (0.1, 1.0, 10.0)
N_FOLDS = 5
MKL_TOL = 1e-2  # relative duality gap: 1e-3 (the default) takes twice as long for the same scores


def _compare(title, Ks, y, names):
    from threadpoolctl import threadpool_limits

    # Problems this small (655 samples at most) gain nothing from a second thread: on 2 idle
    # cores the fits take as long on one, with 60% less CPU time; on a busy machine the
    # OpenMP and OpenBLAS threads wait for a core, and one thread is twice as fast.
    with threadpool_limits(limits=1):
        _print_comparison(title, Ks, y, names)


def _print_comparison(title, Ks, y, names):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate

    from kernelkit.mkl import SimpleMKL
    from kernelkit.svm import SVC

    outer = StratifiedKFold(N_FOLDS, shuffle=True, random_state=0)
    inner = StratifiedKFold(3, shuffle=True, random_state=1)
    print(f"{title}: {len(y)} samples, {len(names)} kernels; {N_FOLDS}-fold CV accuracy")
    # one inner search per fold and kernel gives both the kernel's score and the kernel an inner
    # search would choose
    single, chosen = [], []
    for train, test in outer.split(Ks[..., 0], y):
        searches = [GridSearchCV(SVC(kernel="precomputed"), {"C": C_GRID}, cv=inner).fit(
            Ks[..., m][np.ix_(train, train)], y[train]) for m in range(len(names))]
        single.append([search.score(Ks[..., m][np.ix_(test, train)], y[test])
                       for m, search in enumerate(searches)])
        chosen.append(single[-1][np.argmax([search.best_score_ for search in searches])])
    for name, scores in zip(names, np.transpose(single)):
        print(f"  {name:<26s} {scores.mean():.3f} ± {scores.std():.3f}")
    print(f"  {'best kernel by inner CV':<26s} {np.mean(chosen):.3f} ± {np.std(chosen):.3f}")
    svm = GridSearchCV(SVC(kernel="precomputed"), {"C": C_GRID}, cv=inner)
    scores = cross_validate(svm, Ks.mean(axis=-1), y, cv=outer)["test_score"]
    print(f"  {'uniform sum':<26s} {scores.mean():.3f} ± {scores.std():.3f}")
    start = time.perf_counter()
    mkl = GridSearchCV(SimpleMKL("precomputed", tol=MKL_TOL), {"C": C_GRID}, cv=inner)
    result = cross_validate(mkl, Ks, y, cv=outer, return_estimator=True)
    scores = result["test_score"]
    print(f"  {'SimpleMKL':<26s} {scores.mean():.3f} ± {scores.std():.3f}   "
          f"({time.perf_counter() - start:.1f} s)")
    weights = np.mean([search.best_estimator_.weights_ for search in result["estimator"]], axis=0)
    # a no-break space keeps each kernel's name and weight on one line
    text = textwrap.fill(f"weights (mean of {N_FOLDS} folds): " + ", ".join(
        f"{name}\xa0{w:.2f}" for name, w in zip(names, weights) if w >= 0.005), 90,
        initial_indent="  ", subsequent_indent="    ")
    print(text.replace("\xa0", " "))


def main():
    mutag = load_mutag()
    kernels = {f"WL(n_iter={h})": WeisfeilerLehmanKernel(n_iter=h, normalize=True)
               for h in (1, 3, 5)}
    kernels["ShortestPath"] = ShortestPathKernel(normalize=True)
    kernels["Graphlet(k=3)"] = GraphletKernel(k=3, normalize=True)
    Ks = np.stack([kernel.fit_transform(mutag.graphs) for kernel in kernels.values()], axis=-1)
    _compare("MUTAG molecules", Ks, mutag.target, list(kernels))

    sequences, labels, _ = load_secreted_proteins()
    kernels = {f"Spectrum(k={k})": SpectrumKernel(k=k, normalize=True) for k in range(1, 6)}
    Ks = np.stack([kernel.fit_transform(sequences) for kernel in kernels.values()], axis=-1)
    _compare("Secreted proteins", Ks, labels, list(kernels))

    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    gammas = (0.001, 0.01, 0.03, 0.1, 1.0)
    Ks = np.stack([rbf_kernel(X, gamma=g) for g in gammas], axis=-1)
    _compare("Breast cancer (standardised)", Ks, y, [f"RBF(gamma={g})" for g in gammas])


if __name__ == "__main__":
    main()
