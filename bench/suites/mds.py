"""SMACOF time per iteration: kernelkit's fused compiled pass vs scikit-learn and the reference."""

import warnings

import numpy as np
from scipy.spatial.distance import pdist, squareform

from kernelkit.bench._harness import Contender, Suite
from kernelkit.manifold import smacof
from kernelkit.reference import smacof as reference

try:  # imported here, so that the memory measurement does not count imports
    from sklearn.manifold import smacof as sklearn_smacof
except ImportError:  # reported as missing by the harness
    sklearn_smacof = None

SIZES = (500, 1000, 2000, 5000)
QUICK_SIZES = (500,)


def _iterations(n, quick):
    # Enough Guttman transforms to dwarf the per-call set-up, few enough for the large sizes.
    if quick:
        return 5
    return 20 if n <= 2000 else 5


def cases(quick):
    return [{"n_samples": n, "n_iter": _iterations(n, quick)}
            for n in (QUICK_SIZES if quick else SIZES)]


def setup(params):
    rng = np.random.default_rng(0)
    n = params["n_samples"]
    X = rng.normal(size=(n, 10))
    return {"D": squareform(pdist(X)), "init": rng.normal(size=(n, 2)),
            "n_iter": params["n_iter"]}


def _kernelkit(n_jobs):
    def run(data):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, stress = smacof(data["D"], init=data["init"], max_iter=data["n_iter"], eps=0.0,
                               n_jobs=n_jobs)
        return {"per": data["n_iter"], "stress": stress}

    return run


def _reference(data):
    Z, _ = reference.smacof(data["D"], data["init"], max_iter=data["n_iter"], eps=0.0)
    return {"per": data["n_iter"], "stress": reference.stress(data["D"], None, Z)[0]}


def _sklearn(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, stress = sklearn_smacof(data["D"], init=data["init"].copy(), n_init=1,
                           max_iter=data["n_iter"], eps=0.0, normalized_stress=False)
    return {"per": data["n_iter"], "stress": stress}


SUITE = Suite(
    name="mds",
    description=(
        "Metric SMACOF on Euclidean distances of n Gaussian points in R^10, embedded in 2-D from "
        "the same random initial configuration, for a fixed number of Guttman transforms "
        "(eps=0). Time is per iteration, input validation included; `stress` is the raw stress "
        "of the final configuration (each pair once, the same convention for all three). "
        "kernelkit uses every OpenMP thread unless marked 1 thread; scikit-learn's "
        "smacof runs NumPy/BLAS. Peak MiB is the resident-memory increase over the data set-up "
        "(the n×n input alone is 8n² bytes: 1.9 MiB at n=500, 30.5 MiB at 2000, 191 MiB at "
        "5000). On a machine shared with other jobs an OpenMP thread can wait for a descheduled "
        "sibling, so the 2-thread rows can lose to the 1-thread rows."
    ),
    cases=cases,
    setup=setup,
    contenders=[
        Contender("kernelkit", _kernelkit(None)),
        Contender("kernelkit (1 thread)", _kernelkit(1)),
        Contender("reference", _reference, applies=lambda p: p["n_samples"] <= 500),
        Contender("scikit-learn", _sklearn, requires=("sklearn",)),
    ],
    repeats=lambda params, quick: 3 if quick or params["n_samples"] >= 2000 else 5,
    measure_memory=True,
)
