"""Weighted degree and gappy pair string kernels: kernelkit vs strkernel, the explicit-feature
product and the pure-Python twins, on UCI splice junctions (DNA) and the shipped proteins; with
an accuracy check of the weighted degree kernel on the splice classes."""


import numpy as np

from kernelkit.bench._harness import Contender, Suite, shared_data

N_THREADS = 2
# The pure-Python twins run on the first sequences only; times are per Gram entry.
REFERENCE_SUBSET = 12


def _cases(quick):
    proteins = [{"kernel": "gappy", "data": "proteins", "k": 1, "g": 3,
                 "n": 150 if quick else 655}]
    if _splice_file() is None:
        return proteins
    n = 600 if quick else 3190
    return [
        {"kernel": "wd", "data": "splice", "degree": 8, "shift": 0, "n": n},
        {"kernel": "wd", "data": "splice", "degree": 8, "shift": 3, "n": n},
        {"kernel": "gappy", "data": "splice", "k": 2, "g": 3, "n": n},
        *proteins,
        {"kernel": "wd accuracy", "data": "splice", "degree": 8, "shift": 0, "n": n},
    ]


def _splice_file():
    """The UCI splice table in the shared data folder, or None."""
    folder = shared_data("uci_splice")
    return folder / "uci_splice" / "splice.csv" if folder is not None else None


def _splice():
    """UCI splice junctions: 60-nt DNA windows and their classes (EI, IE, N)."""
    rows = [line.split(",") for line in _splice_file().read_text().splitlines()[1:]]
    return [row[2].strip() for row in rows], np.array([row[0].strip() for row in rows])


def _setup(params):
    # import every contender's library here, so that memory peaks measure the computation only
    import importlib.util

    import kernelkit.kernels  # noqa: F401
    from kernelkit import reference  # noqa: F401

    if importlib.util.find_spec("strkernel") is not None:
        import strkernel.gappy_kernel  # noqa: F401
    if params["data"] == "splice":
        X, y = _splice()
    else:
        from kernelkit.datasets import load_secreted_proteins

        X, y, _ = load_secreted_proteins()
    order = np.random.default_rng(0).permutation(len(X))[:params["n"]]
    return dict(params, X=[X[i] for i in order], y=np.asarray(y)[order])


def _values(K):
    return {"per": K.size, "mean K": float(K.mean())}


def _kernel(data, **extra):
    from kernelkit.kernels import GappyPairKernel, WeightedDegreeKernel

    # DNA letters; the splice windows' ambiguity codes (N, D, R, S) match nothing
    if data["kernel"].startswith("wd"):
        return WeightedDegreeKernel(data["degree"], data["shift"], alphabet="dna",
                                    unknown="skip", n_jobs=N_THREADS, **extra)
    alphabet = "dna" if data["data"] == "splice" else "protein"
    return GappyPairKernel(data["k"], data["g"], alphabet=alphabet, unknown="skip",
                           n_jobs=N_THREADS, **extra)


def _kernelkit(data):
    if data["kernel"] == "wd accuracy":
        return _accuracy(data, _kernel(data, normalize=True))
    return _values(_kernel(data).fit_transform(data["X"]))


def _kernelkit_features(data):
    """The explicit features ``transform_features`` and the sparse product ``F @ F.T``."""
    est = _kernel(data).fit(data["X"])
    F = est.transform_features(data["X"])
    return _values((F @ F.T).toarray())


def _reference(data):
    from kernelkit.reference import string_canon

    X = data["X"][:REFERENCE_SUBSET]
    if data["kernel"] == "wd":
        return _values(string_canon.weighted_degree_kernel(
            X, degree=data["degree"], shift=data["shift"], known="ACGT"))
    return _values(string_canon.gappy_pair_kernel(X, k=data["k"], g=data["g"]))


def _strkernel(data):
    from strkernel.gappy_kernel import gappypair_kernel

    # strkernel codes every letter as DNA: on proteins its features, so its values, are wrong
    F = gappypair_kernel(data["X"], k=data["k"], g=data["g"])
    return _values((F @ F.T).toarray())


def _accuracy(data, kernel):
    """5-fold stratified accuracy of an SVM (C = 1) on a precomputed, normalised Gram."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline

    from kernelkit.svm import SVC

    model = make_pipeline(kernel, SVC(kernel="precomputed", C=1.0))
    scores = cross_val_score(model, data["X"], data["y"],
                             cv=StratifiedKFold(5, shuffle=True, random_state=0))
    return {"accuracy": float(scores.mean())}


def _spectrum_accuracy(data):
    from kernelkit.kernels import SpectrumKernel

    return _accuracy(data, SpectrumKernel(3, alphabet="dna", unknown="skip", normalize=True,
                                          n_jobs=N_THREADS))


SUITE = Suite(
    name="string_canon",
    description=f"""
Weighted degree kernel (``WeightedDegreeKernel``, degree 8, shift 0 and 3) and gappy pair kernel
(``GappyPairKernel``): full Gram ``K(X, X)`` of n sequences, {N_THREADS} threads, times **per Gram
entry**. Data: the UCI splice-junction windows (60 nt, shuffled with a fixed seed; the ambiguity
codes N, D, R, S match nothing) and the 655 shipped PeNGaRoo proteins. Contenders: kernelkit (the
compiled run-length pair core for the weighted degree kernel, the sparse product of pair counts
for the gappy pair kernel); the explicit features (``transform_features``, a scipy CSR matrix F)
and ``F @ F.T``, for the kernels that have them; the pure-Python twins
(``kernelkit.reference.string_canon``) on the first {REFERENCE_SUBSET} sequences; strkernel 0.2
(``gappy_kernel.gappypair_kernel``, pure Python, its features then ``F @ F.T``). strkernel has no
weighted degree kernel. Its gappy pair values are lower than the kernel's on DNA (it drops the
gapped pairs of the last g + 2 starts of every sequence) and wrong on proteins (it reads every
sequence as DNA); see ``GappyPairKernel``'s notes. The accuracy row is a sanity check, not a
timing: 5-fold stratified accuracy on the three splice classes of an SVM (C = 1) on the
normalised weighted degree Gram, against the normalised 3-spectrum kernel.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("kernelkit features F @ F.T", _kernelkit_features,
                  applies=lambda p: p["kernel"] == "gappy"
                  or (p["kernel"] == "wd" and p["shift"] == 0)),
        Contender("reference", _reference, applies=lambda p: p["kernel"] != "wd accuracy"),
        Contender("strkernel", _strkernel, requires=("strkernel",),
                  applies=lambda p: p["kernel"] == "gappy"),
        Contender("kernelkit 3-spectrum", _spectrum_accuracy,
                  applies=lambda p: p["kernel"] == "wd accuracy"),
    ],
    repeats=lambda params, quick: 1 if params["kernel"] == "wd accuracy" else 3,
    measure_memory=False,
)
