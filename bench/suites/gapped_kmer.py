"""Gapped k-mer kernels (``GappedKmerKernel``): kernelkit vs the pure-Python twin and
gkmsvm-lite, on random DNA of 300 bp (fixed seed)."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite

N_THREADS = 2
LENGTH = 300
# The pure-Python twin runs on the first sequences only (an l-mer pair at a time).
REFERENCE_SUBSET = 4
# gkmsvm-lite compares every pair of l-mers (its time per entry does not fall with n): at
# n = 20 000 it runs on the first sequences only, times per entry as the others.
PEER_SUBSET = 2_000


def _cases(quick):
    sizes = (100,) if quick else (2_000, 20_000)
    # the gapped k-mer kernel with every m <= l - k: gkmsvm-lite's takes no d
    return [{"kernel_type": t, "n": n, "l": 11, "k": 7, "d": d}
            for n in sizes for t, d in (("estimated_truncated", 3), ("gkm", 4))]


def _setup(params):
    import kernelkit.kernels  # noqa: F401
    from kernelkit import reference  # noqa: F401

    rng = np.random.default_rng(0)
    X = ["".join(rng.choice(list("ACGT"), LENGTH)) for _ in range(params["n"])]
    return dict(params, X=X)


def _values(K):
    return {"per": K.size, "mean K": float(K.mean())}


def _params(data):
    return {name: data[name] for name in ("l", "k", "d", "kernel_type")}


def _kernelkit(data):
    from kernelkit.kernels import GappedKmerKernel

    return _values(GappedKmerKernel(**_params(data), n_jobs=N_THREADS).fit_transform(data["X"]))


def _reference(data):
    from kernelkit.reference.gapped_kmer import gapped_kmer_kernel

    return _values(gapped_kmer_kernel(data["X"][:REFERENCE_SUBSET], **_params(data)))


def _gkmsvm_lite(data):
    from gkmsvm import one_hot_encode
    from gkmsvm.gram import compute_gram
    from gkmsvm.kernels import DirectGkmKernel, EstTruncGkmKernel

    X = np.stack([one_hot_encode(x) for x in data["X"][:PEER_SUBSET]])
    if data["kernel_type"] == "gkm":
        kernel = DirectGkmKernel(data["l"], data["k"])
    else:
        kernel = EstTruncGkmKernel(data["l"], data["k"], d=data["d"])
    return _values(compute_gram(kernel, X))


SUITE = Suite(
    name="gapped_kmer",
    description=f"""
Gapped k-mer kernel (``GappedKmerKernel``, l = 11, k = 7; LS-GKM's default estimated l-mer
kernel with the truncated filter, d = 3, and the gapped k-mer kernel, d = l - k = 4): full
normalised Gram ``K(X, X)`` of n random DNA sequences of {LENGTH} bp, reverse complements on, {N_THREADS}
threads, times **per Gram entry**. Contenders: kernelkit (the compiled masked-match counts
or trie walk of the mismatch profiles, whichever its cost estimate picks: the masked matches
for these cases); the pure-Python twin (``kernelkit.reference.gapped_kmer``, every l-mer
pair) on the first {REFERENCE_SUBSET} sequences; gkmsvm-lite (Numba, packed 2-bit l-mer pairs;
``compute_gram``), when installed (it is not a dependency of kernelkit), on the first
{PEER_SUBSET} sequences at most.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("reference", _reference),
        Contender("gkmsvm-lite", _gkmsvm_lite, requires=("gkmsvm",)),
    ],
    repeats=lambda params, quick: 1 if params["n"] > 2_000 else 3,
    measure_memory=False,
)
