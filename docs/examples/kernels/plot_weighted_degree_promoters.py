"""
Weighted degree and gappy pair kernels on DNA promoters
=======================================================

The 106 sequences of the UCI *E. coli* promoter set (shipped with kernelkit) are aligned
57-nucleotide windows: half contain a promoter, half do not. Two string kernels from
bioinformatics suit them:

* the **weighted degree kernel** (Rätsch & Sonnenburg 2004) counts the k-mers, k = 1..D, that
  two aligned sequences share *at the same position*, weighting degree d by
  ``β_d = 2 (D − d + 1) / (D (D + 1))``; shifts ``s ≤ S`` (Rätsch et al. 2005) let a motif match
  a few positions away;
* the **gappy pair kernel** (Kuksa et al. 2008) counts pairs of k-mers separated by up to g
  letters, wherever they occur.

Each is scored by an SVM with 10-fold stratified cross-validation (C = 1, normalised kernels),
against the k-mer spectrum kernel, which ignores positions.
"""

import matplotlib.pyplot as plt
from sklearn.model_selection import StratifiedKFold, cross_val_score

from kernelkit.datasets import load_uci_promoters
from kernelkit.kernels import GappyPairKernel, SpectrumKernel, WeightedDegreeKernel
from kernelkit.svm import SVC

promoters = load_uci_promoters()
cv = StratifiedKFold(10, shuffle=True, random_state=0)
svm = SVC(kernel="precomputed", C=1.0)


def accuracy(kernel):
    K = kernel.fit_transform(promoters.data)
    return cross_val_score(svm, K, promoters.target, cv=cv).mean()


degrees = range(1, 11)
curves = {
    f"weighted degree, shift {shift}": [
        accuracy(WeightedDegreeKernel(degree=d, shift=shift, normalize=True)) for d in degrees]
    for shift in (0, 2)
}
spectrum = {k: accuracy(SpectrumKernel(k=k, normalize=True)) for k in (2, 3, 4)}
gappy = {g: accuracy(GappyPairKernel(k=1, g=g, normalize=True)) for g in (2, 4, 8)}
for name, values in curves.items():
    print(name, " ".join(f"{v:.3f}" for v in values))
print("spectrum, k = 2, 3, 4:", " ".join(f"{value:.3f}" for value in spectrum.values()))
print("gappy pair k = 1, g = 2, 4, 8:", " ".join(f"{value:.3f}" for value in gappy.values()))

fig, ax = plt.subplots(figsize=(6.5, 4))
for (name, values), marker in zip(curves.items(), "os"):
    ax.plot(degrees, values, marker=marker, label=name)
best_k = max(spectrum, key=spectrum.get)
best_g = max(gappy, key=gappy.get)
ax.axhline(spectrum[best_k], color="#c44e52", linestyle="--",
           label=f"spectrum, best k = {best_k}")
ax.axhline(gappy[best_g], color="#8172b2", linestyle="-.",
           label=f"gappy pair k = 1, best g = {best_g}")
ax.axhline(0.5, color="k", linestyle=":", label="chance")
ax.set_xlabel("degree D (longest k-mer compared)")
ax.set_ylabel("accuracy (10-fold CV)")
ax.set_ylim(0.4, 1.0)
ax.set_title("E. coli promoters: positional vs positionless string kernels")
ax.legend(loc="lower right", fontsize="small")
fig.tight_layout()
plt.show()
