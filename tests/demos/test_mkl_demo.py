"""The multiple kernel learning demo: what it prints is what it computed."""

import re

import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score

from kernelkit.datasets import load_mutag
from kernelkit.demos import mkl
from kernelkit.kernels import ShortestPathKernel, WeisfeilerLehmanKernel
from kernelkit.svm import SVC


def test_compare_prints_the_cross_validated_scores(capsys):
    data = load_mutag(as_networkx=False)
    kernels = [WeisfeilerLehmanKernel(n_iter=2, normalize=True), ShortestPathKernel(normalize=True)]
    Ks = np.stack([kernel.fit_transform(data.graphs) for kernel in kernels], axis=-1)
    mkl._compare("MUTAG", Ks, data.target, ["WL", "SP"])
    out = capsys.readouterr().out
    assert out.startswith(f"MUTAG: 188 samples, 2 kernels; {mkl.N_FOLDS}-fold CV accuracy\n")
    # each kernel's line is scikit-learn's nested cross-validation of that kernel alone
    svm = GridSearchCV(SVC(kernel="precomputed"), {"C": mkl.C_GRID},
                       cv=StratifiedKFold(3, shuffle=True, random_state=1))
    outer = StratifiedKFold(mkl.N_FOLDS, shuffle=True, random_state=0)
    for m, name in enumerate(["WL", "SP"]):
        scores = cross_val_score(svm, Ks[..., m], data.target, cv=outer)
        assert f"  {name:<26s} {scores.mean():.3f} ± {scores.std():.3f}\n" in out
    for label in ("best kernel by inner CV", "uniform sum", "SimpleMKL"):
        assert re.search(rf"^  {label} +0\.\d{{3}} ± 0\.\d{{3}}", out, re.M), label
    weights = re.search(rf"weights \(mean of {mkl.N_FOLDS} folds\): (.*)", out).group(1)
    values = [float(w) for w in re.findall(r" (\d\.\d\d)(?:,|$)", weights)]
    assert values and abs(sum(values) - 1) <= 0.01 * len(values)  # on the simplex, rounded


def test_docstring_states_the_protocol():
    assert f"{mkl.N_FOLDS}-fold cross-validation" in mkl.__doc__
    assert ", ".join(f"{c:g}" for c in mkl.C_GRID) in mkl.__doc__
    assert f"{mkl.MKL_TOL:.0%}" in mkl.__doc__
