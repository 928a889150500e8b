"""
Gapped k-mer kernels on DNA promoters
=====================================

The gapped k-mer kernels of gkm-SVM and LS-GKM compare every pair of l-mers of two sequences
by their number m of mismatches, ``K = Σ_{m ≤ d} h_m N_m(x, y)``: the gapped k-mer kernel
counts the gapped k-mers (k informative positions of l) two l-mers share,
``h_m = C(l − m, k)``; LS-GKM's default estimates the l-mer counts from the gapped k-mer counts
and truncates the estimate's filter. An l-mer and its reverse complement are one feature.

On the 106 *E. coli* promoter windows shipped with kernelkit (57 nt, half promoters), each
kernel is scored by an SVM with 10-fold stratified cross-validation (C = 1, normalised
kernels), for l = 4..10 with k = l − 2, against the k-mer spectrum kernel.
"""

import matplotlib.pyplot as plt
from sklearn.model_selection import StratifiedKFold, cross_val_score

from kernelkit.datasets import load_uci_promoters
from kernelkit.kernels import GappedKmerKernel, SpectrumKernel
from kernelkit.svm import SVC

promoters = load_uci_promoters()
X = [s.upper() for s in promoters.data]   # reverse complements need the letters ACGT
cv = StratifiedKFold(10, shuffle=True, random_state=0)
svm = SVC(kernel="precomputed", C=1.0)


def accuracy(kernel):
    return cross_val_score(svm, kernel.fit_transform(X), promoters.target, cv=cv).mean()


lengths = range(4, 11)
curves = {
    kernel_type: [accuracy(GappedKmerKernel(l=l, k=l - 2, d=3, kernel_type=kernel_type))
                  for l in lengths]
    for kernel_type in ("gkm", "estimated_truncated")
}
spectrum = {k: accuracy(SpectrumKernel(k=k, normalize=True)) for k in (3, 4, 5)}
for name, values in curves.items():
    print(name, " ".join(f"{v:.3f}" for v in values))
print("spectrum, k = 3, 4, 5:", " ".join(f"{value:.3f}" for value in spectrum.values()))

fig, ax = plt.subplots(figsize=(6.5, 4))
for (name, values), marker in zip(curves.items(), "os"):
    ax.plot(lengths, values, marker=marker, label=f"{name} (k = l − 2, d = 3)")
best_k = max(spectrum, key=spectrum.get)
ax.axhline(spectrum[best_k], color="#c44e52", linestyle="--",
           label=f"spectrum, best k = {best_k}")
ax.axhline(0.5, color="k", linestyle=":", label="chance")
ax.set_xlabel("l (length of the l-mers compared)")
ax.set_ylabel("accuracy (10-fold CV)")
ax.set_ylim(0.4, 1.0)
ax.set_title("E. coli promoters: gapped k-mer kernels")
ax.legend(loc="lower right", fontsize="small")
fig.tight_layout()
plt.show()
