"""Multiple kernel learning: combine graph, string and vector kernels with SimpleMKL.

For each data set the Gram matrices are computed once (the kernels are unsupervised), then a
5-fold cross-validation, stratified and shuffled with a fixed seed, compares: every single kernel
(SVM, C tuned by an inner 3-fold search), the kernel *and* C chosen by the inner search (what a
user tuning one kernel does), the uniform sum, and SimpleMKL (C tuned by the same inner search).
The weights SimpleMKL learns on all the data are printed last.
"""

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

C_GRID = np.logspace(-1, 2, 4)


def _compare(title, Ks, y, names):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score

    from kernelkit.mkl import SimpleMKL
    from kernelkit.svm import SVC

    outer = StratifiedKFold(5, shuffle=True, random_state=0)
    inner = StratifiedKFold(3, shuffle=True, random_state=1)
    svm = GridSearchCV(SVC(kernel="precomputed"), {"C": C_GRID}, cv=inner)
    print(f"{title}: {len(y)} samples, {len(names)} kernels; 5-fold CV accuracy")
    for m, name in enumerate(names):
        scores = cross_val_score(svm, Ks[..., m], y, cv=outer)
        print(f"  {name:<26s} {scores.mean():.3f} ± {scores.std():.3f}")
    chosen = []
    for train, test in outer.split(Ks[..., 0], y):
        searches = [GridSearchCV(SVC(kernel="precomputed"), {"C": C_GRID}, cv=inner).fit(
            Ks[..., m][np.ix_(train, train)], y[train]) for m in range(len(names))]
        m = int(np.argmax([search.best_score_ for search in searches]))
        chosen.append(searches[m].score(Ks[..., m][np.ix_(test, train)], y[test]))
    print(f"  {'best kernel by inner CV':<26s} {np.mean(chosen):.3f} ± {np.std(chosen):.3f}")
    scores = cross_val_score(svm, Ks.mean(axis=-1), y, cv=outer)
    print(f"  {'uniform sum':<26s} {scores.mean():.3f} ± {scores.std():.3f}")
    start = time.perf_counter()
    mkl = GridSearchCV(SimpleMKL("precomputed"), {"C": C_GRID}, cv=inner)
    scores = cross_val_score(mkl, Ks, y, cv=outer)
    print(f"  {'SimpleMKL':<26s} {scores.mean():.3f} ± {scores.std():.3f}   "
          f"({time.perf_counter() - start:.1f} s)")
    weights = mkl.fit(Ks, y).best_estimator_.weights_
    print("  weights: " + ", ".join(f"{name} {w:.2f}" for name, w in zip(names, weights) if w))


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
