"""String kernels: spectrum Gram vs a SciPy-sparse k-mer count matrix and strkernel; local
alignment kernel in DP cells per second vs the pure-Python DP."""

import time

import numpy as np

from kernelkit.bench._harness import Contender, Suite

N_THREADS = 2
# The per-pair contenders (merge-join, pure Python, strkernel) run on the first rows/sequences
# only; every time is divided by the number of Gram entries (or DP cells) it computed.
MERGE_SUBSET = 400
REFERENCE_SUBSET = 60
LA_REFERENCE_PAIRS = 2


def _cases(quick):
    # strkernel (pure Python) runs on the first `strkernel` sequences only
    if quick:
        return [
            dict(kernel="spectrum", k=3, n=300, strkernel=8),
            dict(kernel="local_alignment", n=16),
        ]
    return [
        dict(kernel="spectrum", k=3, n=2000, strkernel=40),
        dict(kernel="spectrum", k=5, n=2000, strkernel=40),
        dict(kernel="spectrum", k=3, n=10000),
        dict(kernel="local_alignment", n=200),
    ]


def _protein_windows(n, rng):
    """n real protein fragments of lengths 100–400, cut from the shipped PeNGaRoo proteins."""
    from kernelkit.datasets import load_secreted_proteins

    proteins = [s for s in load_secreted_proteins()[0] if len(s) >= 100]
    out = []
    for _ in range(n):
        s = proteins[rng.integers(len(proteins))]
        length = min(len(s), int(rng.integers(100, 401)))
        start = int(rng.integers(0, len(s) - length + 1))
        out.append(s[start:start + length])
    return out


def _setup(params):
    # import every contender's library here, so that memory peaks measure the computation only
    import importlib.util

    import scipy.sparse  # noqa: F401

    import kernelkit.kernels  # noqa: F401
    from kernelkit import reference  # noqa: F401

    if importlib.util.find_spec("strkernel") is not None:
        import strkernel.mismatch_kernel  # noqa: F401
    rng = np.random.default_rng(0)
    if params["kernel"] == "spectrum":
        return dict(params, X=_protein_windows(params["n"], rng))
    from kernelkit.datasets import load_secreted_proteins

    proteins = load_secreted_proteins()[0]
    order = rng.permutation(len(proteins))[:params["n"]]
    return dict(params, X=[proteins[i] for i in order])


def _spectrum_values(K, n_entries):
    return {"per": n_entries, "mean K": float(K.sum()) / n_entries}


def _kernelkit(data):
    from kernelkit.kernels import SpectrumKernel

    X = data["X"]
    if data["kernel"] == "spectrum":
        K = SpectrumKernel(k=data["k"], n_jobs=N_THREADS).fit_transform(X)
        return _spectrum_values(K, K.size)
    return _local_alignment(X, N_THREADS)


def _local_alignment(X, n_threads):
    """The local alignment Gram in DP cells per CPU-second (the kernel's own speed) and per
    wall-second and thread (what a thread gets from a machine other jobs share)."""
    from kernelkit.kernels import LocalAlignmentKernel

    start, wall_start = time.process_time(), time.perf_counter()
    K = LocalAlignmentKernel(beta=0.5, n_jobs=n_threads).fit_transform(X)
    cpu_seconds = time.process_time() - start
    wall_seconds = time.perf_counter() - wall_start
    lengths = np.array([len(x) for x in X], dtype=float)
    # pairs j ≥ i, plus the diagonal once more for the normalisation
    cells = (lengths.sum() ** 2 + (lengths**2).sum()) / 2 + (lengths**2).sum()
    return {"per": cells, "Mcells per CPU-s": cells / cpu_seconds / 1e6,
            "Mcells per wall-s per thread": cells / wall_seconds / n_threads / 1e6,
            "mean K": float(K.mean())}


def _kernelkit_merge(data):
    from kernelkit.kernels import SpectrumKernel

    X = data["X"][:MERGE_SUBSET]
    K = SpectrumKernel(k=data["k"], algorithm="merge", n_jobs=N_THREADS).fit_transform(X)
    return _spectrum_values(K, K.size)


def _count_matrix(X, k):
    """What a competent user writes: a k-mer vocabulary and a CSR count matrix F."""
    from collections import Counter

    from scipy import sparse

    vocabulary, indptr, indices, values = {}, [0], [], []
    for x in X:
        counts = Counter(x[i:i + k] for i in range(len(x) - k + 1))
        indices.extend(vocabulary.setdefault(u, len(vocabulary)) for u in counts)
        values.extend(counts.values())
        indptr.append(len(indices))
    return sparse.csr_array((np.array(values, dtype=np.float64), indices, indptr),
                            shape=(len(X), len(vocabulary)))


def _scipy_sparse(data):
    F = _count_matrix(data["X"], data["k"])
    K = (F @ F.T).toarray()
    return _spectrum_values(K, K.size)


def _reference(data):
    from kernelkit import reference

    if data["kernel"] == "spectrum":
        K = reference.spectrum_kernel(data["X"][:REFERENCE_SUBSET], k=data["k"])
        return _spectrum_values(K, K.size)
    from kernelkit.datasets import load_blosum62

    X = sorted(data["X"], key=len)[:LA_REFERENCE_PAIRS + 1]   # the shortest: seconds, not hours
    cells = 0.0
    start = time.process_time()
    for x, y in zip(X[:-1], X[1:]):
        reference.local_alignment_kernel([x], [y], beta=0.5, substitution=load_blosum62(),
                                         normalize=False, log=True)
        cells += len(x) * len(y)
    return {"per": cells, "Mcells per CPU-s": cells / (time.process_time() - start) / 1e6}


def _strkernel(data):
    from strkernel.mismatch_kernel import MismatchKernel, preprocess

    # strkernel truncates every sequence to the shortest one and codes letters per sequence
    # (sorted set of its own letters), so its values are not the spectrum kernel's.
    X = preprocess(data["X"][:data["strkernel"]])
    K = MismatchKernel(l=20, k=data["k"], m=0).get_kernel(np.array(X), normalize=False).kernel
    return _spectrum_values(K, K.size)


SUITE = Suite(
    name="strings",
    description=f"""
Spectrum kernel: full Gram ``K(X, X)`` of n real protein fragments (lengths 100-400, cut with a
fixed seed from the shipped PeNGaRoo proteins), k = 3 and 5, {N_THREADS} threads. Times are
**per Gram entry** (so contenders run on fewer sequences can be compared): kernelkit (default
``algorithm="sparse"``, the inverted-index sparse product) on all n; kernelkit's
merge-join (``algorithm="merge"``, the seed's O(|x|+|x'|) per pair) on the first {MERGE_SUBSET};
the baseline a competent user writes today (a k-mer ``Counter`` per sequence into a
``scipy.sparse`` CSR count matrix F, then ``F @ F.T``) on all n; the pure-Python reference on the
first {REFERENCE_SUBSET}; strkernel 0.2 (``MismatchKernel(m=0)``, pure Python) on the first
``strkernel`` sequences of the case. strkernel's values differ: it truncates every sequence to the
shortest one and encodes letters per sequence, so its Gram is not the spectrum kernel (see its
``mean K``; the subset contenders' means differ from the full Gram's anyway).
Local alignment kernel: normalised Gram of n real proteins (BLOSUM62, beta=0.5, gaps 11/1),
time **per DP cell** (pairs j >= i, plus the diagonal for the normalisation); ratio < 1 means
faster than kernelkit. Cells per core are reported per CPU-second (``time.process_time`` of all
threads), since wall time on a shared machine includes waiting for a core; per wall-second and
thread too (what each thread got), for {N_THREADS} threads and 1 (``kernelkit 1 thread``). The
pure-Python reference runs the log-space DP on {LA_REFERENCE_PAIRS} pairs of the shortest proteins, 1 thread.
Contenders alternate, which keeps ratios fair when other jobs share the machine.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("kernelkit 1 thread", lambda data: _local_alignment(data["X"], 1),
                  applies=lambda p: p["kernel"] == "local_alignment"),
        Contender("kernelkit merge-join", _kernelkit_merge,
                  applies=lambda p: p["kernel"] == "spectrum" and p["n"] <= 2000),
        Contender("reference", _reference, applies=lambda p: p["n"] <= 2000),
        Contender("scipy.sparse F @ F.T", _scipy_sparse, requires=("scipy",),
                  applies=lambda p: p["kernel"] == "spectrum" and p["n"] <= 2000),
        Contender("strkernel", _strkernel, requires=("strkernel",),
                  applies=lambda p: "strkernel" in p),
    ],
    repeats=lambda params, quick: 1 if params["n"] >= 10000 else 3,
    measure_memory=True,
)
