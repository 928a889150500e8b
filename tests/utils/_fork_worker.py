"""Fit, fork, fit again, for every estimator and kernel of the common tests.

``python _fork_worker.py GROUP N_GROUPS`` takes the estimators ``GROUP::N_GROUPS`` of
``ARRAY_INSTANCES + STRUCTURED_INSTANCES`` (``tests/test_common.py``). It first starts an OpenMP
team of two threads (a Gram matrix on ``n_jobs=2``); then, for each estimator, it fits it with two
threads (``n_jobs=2`` where it has the parameter, the default threads otherwise) on data of a few
hundred objects, forks a child with ``os.fork()`` and one with multiprocessing's ``fork`` context,
and has both fit it again. It prints ``count\\t<n>``, then one line per estimator,
``<outcome>\\t<repr>\\t<detail>``: ``ok`` when both children gave the parent's output, ``hang``
when a child had not finished by the deadline (it is then killed), ``error`` otherwise.
"""

import pathlib
import sys
import warnings

import numpy as np

TESTS = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS), str(TESTS / "fuzz")]

from _cases import larger_run  # noqa: E402
from _stress import FORK_METHODS, assert_same_output, run_then_fork, with_threads  # noqa: E402
from test_common import ARRAY_INSTANCES, STRUCTURED_INSTANCES  # noqa: E402

INSTANCES = ARRAY_INSTANCES + STRUCTURED_INSTANCES


def check(est):
    """``(outcome, detail)``: ``est`` fitted here, then in two fork children at once."""
    model = with_threads(est)
    run = larger_run(est, np.random.default_rng(0))     # the data of the fuzz's fork case
    expected, children, deadline = run_then_fork(lambda: run(model), FORK_METHODS)
    problems = []
    for child in children:
        try:
            assert_same_output(child.result(deadline), expected)
        except TimeoutError as exc:
            problems.append(("hang", str(exc)))
        except Exception as exc:  # noqa: BLE001 - reported, with the fork method
            problems.append(("error", f"{child.how}: {type(exc).__name__}: {exc}"))
    if not problems:
        return "ok", ""
    return problems[0][0], " ".join("; ".join(detail for _, detail in problems).split())


def main():
    from kernelkit.kernels import VectorKernel

    group, n_groups = map(int, sys.argv[1:3])
    chosen = INSTANCES[group::n_groups]
    print(f"count\t{len(chosen)}", flush=True)
    warnings.simplefilter("ignore")     # convergence on random labels is not the question here
    # a team before the first estimator: every child inherits the pool (its bookkeeping, not its
    # threads), whether or not the estimator's own fit starts a team
    VectorKernel("rbf", n_jobs=2).fit_transform(np.random.default_rng(0).normal(size=(600, 50)))
    for est in chosen:
        outcome, detail = check(est)
        print(f"{outcome}\t{' '.join(repr(est).split())}\t{detail}", flush=True)


if __name__ == "__main__":
    main()
