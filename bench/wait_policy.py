"""How kernelkit's idle OpenMP threads should wait: sleeping at once (``OMP_WAIT_POLICY=PASSIVE``
with ``GOMP_SPINCOUNT=0``) or spinning a bounded while first (``GOMP_SPINCOUNT``; kernelkit's
runtime spins 1 000 polls unless the user sets a policy).

A sleeping thread costs nothing when the cores are shared, but each parallel region then pays
for waking it; a spinning one answers at once, but burns a core that another process may need.
For every workload and policy, a fresh interpreter loads kernelkit's runtime under the policy,
runs the workload once untimed, then ``--repeats`` times; the policies alternate, ``--rounds``
times, and the table gives the median over rounds of each process's median. ``--busy-core``
keeps one CPU busy with another process (a Python loop) during the run.

Usage::

    python bench/wait_policy.py [--rounds 3] [--repeats 2] [--busy-core]
                                [--policies passive,1000,3000,10000]
                                [--out bench/results/wait-policy.md]
"""

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import textwrap
import time

from kernelkit.bench._harness import busy_core, machine_description

# name -> set-up source defining ``run()``: kernelkit's cores with many short parallel regions
WORKLOADS = {
    "HistGradientBoostingClassifier 200 000 × 30, 60 rounds": """
        from sklearn.datasets import make_classification
        from kernelkit.ensemble import HistGradientBoostingClassifier
        X, y = make_classification(200_000, 30, n_informative=10, random_state=0)
        run = lambda: HistGradientBoostingClassifier(max_iter=60, early_stopping=False).fit(X, y)
    """,
    "HistGradientBoostingRegressor 100 000 × 20, 200 rounds": """
        from sklearn.datasets import make_regression
        from kernelkit.ensemble import HistGradientBoostingRegressor
        X, y = make_regression(100_000, 20, n_informative=10, noise=10.0, random_state=0)
        run = lambda: HistGradientBoostingRegressor(max_iter=200, early_stopping=False).fit(X, y)
    """,
    "KMeans 200 000 × 12, k = 8": """
        from kernelkit.cluster import KMeans
        X = np.random.default_rng(0).normal(size=(200_000, 12))
        run = lambda: KMeans(8, n_init=1, random_state=0).fit(X)
    """,
    "KMeans 10 000 × 10, k = 5": """
        from kernelkit.cluster import KMeans
        X = np.random.default_rng(0).normal(size=(10_000, 10))
        run = lambda: KMeans(5, n_init=1, random_state=0).fit(X)
    """,
    "SpectrumKernel k = 3, 300 sequences of 400 letters": """
        from kernelkit.kernels import SpectrumKernel
        rng = np.random.default_rng(0)
        X = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 400)) for _ in range(300)]
        run = lambda: SpectrumKernel(k=3).fit_transform(X)
    """,
}

_CHILD = """
import os, statistics, sys, time
import numpy as np
import kernelkit._core  # loads kernelkit's runtime under the environment's policy
{setup}
run()
times = []
for _ in range({repeats}):
    start = time.perf_counter()
    run()
    times.append(time.perf_counter() - start)
print(statistics.median(times))
"""


def _time(workload, policy, repeats):
    env = dict(os.environ)
    # kernelkit keeps the user's spin count (with OMP_WAIT_POLICY=PASSIVE); 0: sleep at once
    env["GOMP_SPINCOUNT"] = "0" if policy == "passive" else policy
    code = _CHILD.format(setup=textwrap.dedent(WORKLOADS[workload]), repeats=repeats)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--busy-core", action="store_true")
    parser.add_argument("--policies", default="passive,1000,3000,10000")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    policies = args.policies.split(",")
    load_before = os.getloadavg()
    times = {(w, p): [] for w in WORKLOADS for p in policies}
    with busy_core() if args.busy_core else contextlib.nullcontext():
        for _ in range(args.rounds):
            for workload in WORKLOADS:
                for policy in policies:
                    times[workload, policy].append(_time(workload, policy, args.repeats))
                    print(json.dumps([workload, policy, times[workload, policy][-1]]),
                          flush=True)
    lines = [
        "# Wait policy of kernelkit's OpenMP threads"
        + (" (one busy core)" if args.busy_core else ""),
        "", f"`python bench/wait_policy.py --rounds {args.rounds} --repeats {args.repeats}"
        f"{' --busy-core' if args.busy_core else ''}`, {time.strftime('%Y-%m-%d %H:%M')}. "
        + machine_description(load_before, os.getloadavg(), args.busy_core)
        + " Time: median over the rounds of each process's median; ratio: over the first "
        "policy's (below 1: faster).", "",
        "| workload | " + " | ".join(
            "passive" if p == "passive" else f"GOMP_SPINCOUNT={p}" for p in policies) + " |",
        "|---|" + "---:|" * len(policies)]
    for workload in WORKLOADS:
        base = statistics.median(times[workload, policies[0]])
        cells = [f"{statistics.median(times[workload, p]):.3f} s "
                 f"({statistics.median(times[workload, p]) / base:.2f})" for p in policies]
        lines.append(f"| {workload} | " + " | ".join(cells) + " |")
    print("\n".join(lines))
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
