"""Ctrl-C latency of the compiled loops: time from SIGINT to KeyboardInterrupt, per core.

Each workload below would run for many seconds to hours. For every workload and thread count a
fresh interpreter builds the data once, then, ``--repeats`` times: starts the call, sends itself
SIGINT 0.5 s later (from a timer thread, which notes the clock just before ``os.kill``), and notes
the clock when ``KeyboardInterrupt`` reaches the caller. The latency is the difference; the
table reports its median and worst over the repeats, with 1 and 2 threads (``n_jobs``). The
repeats also show that a model interrupted mid-fit fits again. A run that ends without the
interrupt is reported as ``finished`` (the workload is too small), a run that outlives
``--timeout`` as ``timeout``.

Usage::

    python bench/interrupt_latency.py [--repeats 5] [--only smo,dbscan-expansion]
                                      [--out bench/results/interrupt.md]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import textwrap
import time

# name -> (compiled core, set-up source defining ``run()``; ``{n_jobs}`` is the thread count)
WORKLOADS = {
    "smo": ("_smo_solver", """
        from kernelkit.svm import SVR
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(3000, 3)), rng.normal(size=3000)
        run = lambda: SVR(C=1e6, tol=1e-12, max_iter=10**8, n_jobs={n_jobs}).fit(X, y)
    """),
    "dual-cd": ("_dual_cd", """
        from kernelkit.svm import SquaredEpsilonSVR
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(4000, 3)), rng.normal(size=4000)
        run = lambda: SquaredEpsilonSVR(lambda_=1e-6, gamma=10.0, tol=1e-14, max_iter=10**6,
                                        n_jobs={n_jobs}).fit(X, y)
    """),
    "forest": ("_tree_builder", """
        from kernelkit.ensemble import RandomForestRegressor
        rng = np.random.default_rng(0)
        # no bootstrap: the per-tree seeds and counts, drawn in Python, stay short
        X, y = rng.normal(size=(50_000, 10)), rng.normal(size=50_000)
        run = lambda: RandomForestRegressor(n_estimators=500, bootstrap=False, max_features=0.5,
                                            n_jobs={n_jobs}).fit(X, y)
    """),
    "deep-tree": ("_tree_builder", """
        from kernelkit.tree import DecisionTreeRegressor
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(1_000_000, 5)), rng.normal(size=1_000_000)
        run = lambda: DecisionTreeRegressor(random_state=0).fit(X, y)
    """),
    "kmedoids-build": ("_kmedoids", """
        from kernelkit.cluster import KMedoids
        X = np.random.default_rng(0).normal(size=(40_000, 5))
        run = lambda: KMedoids(300, method="pam", init="build", n_jobs={n_jobs}).fit(X)
    """),
    "kmedoids-swap": ("_fasterpam", """
        from kernelkit.cluster import KMedoids
        X = np.random.default_rng(0).normal(size=(40_000, 5))
        run = lambda: KMedoids(300, method="pam", init="k-medoids++", max_iter=1000,
                               random_state=0, n_jobs={n_jobs}).fit(X)
    """),
    "dbscan-expansion": ("_dbscan_expansion", """
        from kernelkit.cluster import DBSCAN
        X = np.random.default_rng(0).normal(size=(300_000, 3))
        run = lambda: DBSCAN(eps=100.0, algorithm="kd_tree", n_jobs={n_jobs}).fit(X)
    """),
    "dbscan-gemm": ("_dbscan_gemm", """
        from kernelkit.cluster import DBSCAN
        X = np.random.default_rng(0).normal(size=(300_000, 3))
        run = lambda: DBSCAN(eps=100.0, algorithm="brute", n_jobs={n_jobs}).fit(X)
    """),
    "single-linkage": ("_linkage", """
        from kernelkit.cluster import AgglomerativeClustering
        X = np.random.default_rng(0).normal(size=(100_000, 3))
        run = lambda: AgglomerativeClustering(linkage="single").fit(X)
    """),
    "average-linkage": ("_linkage", """
        from scipy.spatial.distance import pdist
        from kernelkit._core._linkage import nn_chain_linkage
        X = np.random.default_rng(0).normal(size=(12_000, 3))
        D = pdist(X)
        Z = np.empty((len(X) - 1, 4))
        # D is the workspace, updated in place: later repeats start from the distances the
        # interrupted one left (still distances), without a 0.6 GB copy inside the timed call
        run = lambda: nn_chain_linkage(D, len(X), Z, "average")
    """),
    "kmeans": ("_kmeans_lloyd", """
        from kernelkit.cluster import KMeans
        X = np.random.default_rng(0).normal(size=(200_000, 50))
        run = lambda: KMeans(2000, init="random", n_init=1, max_iter=1000, tol=0,
                             random_state=0, n_jobs={n_jobs}).fit(X)
    """),
    "smacof": ("_smacof_guttman", """
        from kernelkit.manifold import MDS
        # a random start (the classical one is a LAPACK eigensolver call of seconds) and 3 000
        # points (the n × n dissimilarities are checked in numpy calls, which hold the
        # KeyboardInterrupt back until they return): the signal lands in the compiled passes
        X = np.random.default_rng(0).normal(size=(3000, 10))
        run = lambda: MDS(max_iter=100_000, eps=0.0, init="random", n_init=1, random_state=0,
                          n_jobs={n_jobs}).fit(X)
    """),
    "knn-brute": ("_knn_brute", """
        from kernelkit.neighbors import KNeighborsClassifier
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(400_000, 20)), rng.integers(0, 2, 400_000)
        model = KNeighborsClassifier(algorithm="brute", n_jobs={n_jobs}).fit(X, y)
        run = lambda: model.predict(X)
    """),
    "local-alignment": ("_local_alignment_dp", """
        from kernelkit.kernels import LocalAlignmentKernel
        rng = np.random.default_rng(0)
        X = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 60_000)) for _ in range(3)]
        run = lambda: LocalAlignmentKernel(n_jobs={n_jobs}).fit_transform(X)
    """),
    "substring": ("_substring_dp", """
        from kernelkit.kernels import SubstringKernel
        rng = np.random.default_rng(0)
        X = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 20_000)) for _ in range(3)]
        run = lambda: SubstringKernel(k=5, n_jobs={n_jobs}).fit_transform(X)
    """),
    "graphlets": ("_graphlet_counts", """
        import scipy.sparse as sp
        from kernelkit.kernels import GraphletKernel
        A = sp.triu(sp.random_array((3000, 3000), density=0.01, random_state=0), k=1)
        A = sp.csr_array(((A + A.T) > 0).astype(float))
        graphs = [(A[:9, :9], [0] * 9), (A, [0] * 3000)]
        run = lambda: GraphletKernel(k=4, n_jobs={n_jobs}).fit_transform(graphs)
    """),
    "walk": ("_product_graph", """
        import scipy.sparse as sp
        from kernelkit.kernels import WalkKernel
        A = sp.triu(sp.random_array((1500, 1500), density=0.01, random_state=0), k=1)
        A = sp.csr_array(((A + A.T) > 0).astype(float))
        run = lambda: WalkKernel(n=100, n_jobs={n_jobs}).fit_transform([(A, [0] * 1500)])
    """),
}

_CHILD = """
import json, os, signal, threading, time
import numpy as np
signal.signal(signal.SIGINT, signal.default_int_handler)
{setup}
results = []
for _ in range({repeats}):
    sent = []
    def interrupt():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)
    timer = threading.Timer(0.5, interrupt)
    start = time.perf_counter()
    timer.start()
    try:
        run()
        timer.cancel()
        results.append(["finished", time.perf_counter() - start])
    except KeyboardInterrupt:
        results.append(["interrupted", time.perf_counter() - sent[0]])
    timer.join()
print(json.dumps(results), flush=True)
"""


def measure(setup, n_jobs, repeats, timeout):
    """Latencies (s) of ``repeats`` interrupted runs, or the reason there are none."""
    script = _CHILD.format(setup=textwrap.dedent(setup.format(n_jobs=n_jobs)),
                           repeats=repeats)
    try:
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    if out.returncode != 0:
        return "error: " + out.stderr.strip().splitlines()[-1]
    results = json.loads(out.stdout.strip().splitlines()[-1])
    if any(kind != "interrupted" for kind, _ in results):
        return "finished"
    return [latency for _, latency in results]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--only", default="", help="comma-separated workload names")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results",
                                                      "interrupt.md"))
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(WORKLOADS)
    threads = [int(t) for t in args.threads.split(",")]
    load_before = os.getloadavg()
    started = time.time()
    rows = []
    for name in names:
        core, setup = WORKLOADS[name]
        cells = []
        for n_jobs in threads:
            result = measure(setup, n_jobs, args.repeats, args.timeout)
            if isinstance(result, str):
                cells += [result, ""]
            else:
                cells += [f"{1e3 * statistics.median(result):.0f}", f"{1e3 * max(result):.0f}"]
            print(name, n_jobs, result, flush=True)
        rows.append([name, f"`{core}`"] + cells)
    load_after = os.getloadavg()
    header = ["workload", "core"]
    for n_jobs in threads:
        header += [f"median ms, {n_jobs} thr.", f"worst ms, {n_jobs} thr."]
    lines = [
        "# Ctrl-C latency of the compiled loops",
        "",
        "Time from SIGINT (sent 0.5 s into the call) to KeyboardInterrupt in the caller, "
        f"{args.repeats} repeats per cell, one fresh interpreter per cell "
        "(`python bench/interrupt_latency.py`). The loops look at the signals about every "
        "0.1 s (`_core/_interrupt.pxd`).",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; load average (1, 5, 15 min) "
        f"{', '.join(f'{x:.2f}' for x in load_before)} before and "
        f"{', '.join(f'{x:.2f}' for x in load_after)} after the "
        f"{time.time() - started:.0f} s run (the machine was shared with other jobs).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
