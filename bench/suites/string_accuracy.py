"""Accuracy of an SVM on string kernels of DNA: the gapped k-mer kernel (LS-GKM's default)
against the spectrum and weighted degree kernels, on the shipped E. coli promoters and the UCI
splice junctions."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite, shared_data

N_THREADS = 2
N_FOLDS = 5


def _cases(quick):
    cases = [{"data": "promoters", "n": 106}]
    if _splice_file() is not None:
        cases.append({"data": "splice", "n": 600 if quick else 3190})
    return cases


def _splice_file():
    """The UCI splice table in the shared data folder, or None."""
    folder = shared_data("uci_splice")
    return folder / "uci_splice" / "splice.csv" if folder is not None else None


def _setup(params):
    import kernelkit.kernels  # noqa: F401

    if params["data"] == "promoters":
        from kernelkit.datasets import load_uci_promoters

        promoters = load_uci_promoters()
        X, y = [s.upper() for s in promoters.data], np.asarray(promoters.target)
    else:
        rows = [line.split(",") for line in _splice_file().read_text().splitlines()[1:]]
        X = [row[2].strip() for row in rows]
        y = np.array([row[0].strip() for row in rows])
    order = np.random.default_rng(0).permutation(len(X))[:params["n"]]
    return dict(params, X=[X[i] for i in order], y=y[order])


def _accuracy(data, kernel):
    """Stratified ``N_FOLDS``-fold accuracy of an SVM (C = 1) on the kernel, fitted on each
    training part (a pipeline)."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline

    from kernelkit.svm import SVC

    model = make_pipeline(kernel, SVC(kernel="precomputed", C=1.0))
    scores = cross_val_score(model, data["X"], data["y"],
                             cv=StratifiedKFold(N_FOLDS, shuffle=True, random_state=0))
    return {"accuracy": float(scores.mean()), "std": float(scores.std())}


def _gapped_kmer(data):
    from kernelkit.kernels import GappedKmerKernel

    # LS-GKM's defaults (l = 11, k = 7, d = 3, truncated filter, reverse complements); the
    # splice windows' ambiguity codes (N, D, R, S) are skipped
    return _accuracy(data, GappedKmerKernel(alphabet="dna", unknown="skip", n_jobs=N_THREADS))


def _spectrum(data):
    from kernelkit.kernels import SpectrumKernel

    return _accuracy(data, SpectrumKernel(3, alphabet="dna", unknown="skip", normalize=True,
                                          n_jobs=N_THREADS))


def _weighted_degree(data):
    from kernelkit.kernels import WeightedDegreeKernel

    return _accuracy(data, WeightedDegreeKernel(8, 0, alphabet="dna", unknown="skip",
                                                normalize=True, n_jobs=N_THREADS))


SUITE = Suite(
    name="string_accuracy",
    description=f"""
Accuracy of an SVM (``kernelkit.svm.SVC``, C = 1, on the kernel fitted in each training part) by
stratified {N_FOLDS}-fold cross-validation (shuffled, seed 0) on DNA: the 106 shipped E. coli
promoters (57 nt, two classes) and the UCI splice-junction windows (60 nt, three classes, from
the shared data folder). Kernels: ``GappedKmerKernel`` at LS-GKM's defaults (l = 11, k = 7,
d = 3, estimated l-mer kernel with the truncated filter, reverse complements, normalised), the
normalised 3-spectrum kernel and the normalised weighted degree kernel of degree 8. The times
are those of the whole cross-validation; the values column holds the mean and standard
deviation of the fold accuracies.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("gapped k-mer", _gapped_kmer),
        Contender("spectrum k=3", _spectrum),
        Contender("weighted degree 8", _weighted_degree),
    ],
    repeats=1,
    warmup=False,
    measure_memory=False,
)
