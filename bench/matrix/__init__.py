"""The speed matrix: every public estimator, kernel and compiled function of kernelkit at its
defaults, at three sizes, against its peer and the fastest engine installed, on 2 threads and 1.

Run ``kernelkit bench matrix [--sizes small,medium] [--rows KMeans,SVC] [--busy-core]
[--budget SECONDS] [--out FOLDER]``. For each row and size it reports kernelkit's median time on
2 threads and on 1 (and their ratio), the peer's (scikit-learn's estimator of the same name; else
GraKeL's kernel, libsvm or a SciPy formulation), the fastest engine of the ``bench`` extra
(scikit-learn-intelex, LightGBM, XGBoost), kernelkit's time over each, and whether the results
agree (test predictions, cluster labels, embeddings up to rotation, Gram matrices). All
contenders of a cell run in one process, alternating, after an untimed warm-up of each at the
first size and an untimed run of the first at each larger size;
a run of kernelkit that follows a peer's waits ``SETTLE_SECONDS`` first, so that the threads the
peer leaves spinning (OpenBLAS's, TBB's, an OpenMP runtime's) are asleep, then, if it is short,
runs untimed for ``WARM_SECONDS``, so that the CPUs are awake again. A contender whose
previous size's time, scaled by the row's growth, would pass ``--budget`` seconds is left out of
the larger size (said in its cell).

``--baseline OLD.whl`` times kernelkit only, an older wheel against the installed one, in
alternating fresh processes (old, new, old, new, …), and reports old ÷ new per row, in wall and
CPU time: how a change is timed against main before it lands.

The rows are :func:`kernelkit.bench.matrix._rows.all_rows`: a new estimator is one more row there.
"""

import argparse
import contextlib
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

from kernelkit.bench.matrix import _rows

__all__ = ["main", "run_matrix", "format_matrix", "run_baseline", "format_baseline"]

N_THREADS = 2
DEFAULT_BUDGET = 30.0
WORKER = pathlib.Path(__file__).with_name("_worker.py")


def _n_repeats(first_time):
    """Timed runs of a contender from the time of its first run: many for a fit of a few
    milliseconds, whose single runs move by ±25 % with the caches and the other processes."""
    for limit, repeats in ((0.005, 41), (0.05, 11), (0.2, 5), (3.0, 3), (10.0, 2)):
        if first_time < limit:
            return repeats
    return 1


# Pause before a run of kernelkit that follows a peer's: OpenBLAS's threads spin about 0.1 s
# after a call, scikit-learn-intelex's TBB workers and the peers' OpenMP threads a while, on the
# cores the next run needs. kernelkit's 2-thread run after one of them took up to 1.5x its time
# (SVR and MDS of 1 000 samples, AdaBoost of 100 000: 2 thr ÷ 1 thr 1.24-1.44 in the matrix,
# 0.66-0.99 in a process without the peers). kernelkit's own threads spin microseconds, so the
# peers' runs that follow it need no pause.
SETTLE_SECONDS = 0.15
# The pause lets the virtual machine's idle CPUs sleep deeply, and the next milliseconds of work
# run slower: a k-NN fit+predict of 3.6 ms took 5.2 ms right after a 0.15 s pause, 4.3 ms the
# run after, then 3.6 ms (quiet, medians of 15 pauses), while the peers' runs, back to back,
# never paid it. A run of kernelkit shorter than SHORT_RUN_SECONDS is therefore repeated untimed
# for WARM_SECONDS after the pause.
WARM_SECONDS = 0.02
SHORT_RUN_SECONDS = 0.05


def _settled(label, previous, rerun, last_time):
    """Before kernelkit's run ``label``, when a peer ran ``previous``ly (None: before this cell,
    whose last run may have been a peer's): wait ``SETTLE_SECONDS``, then call ``rerun()``
    (the run, untimed) for ``WARM_SECONDS`` if its ``last_time`` was short (None: unknown, not
    repeated)."""
    if label.startswith("kernelkit") and not (previous or "").startswith("kernelkit"):
        time.sleep(SETTLE_SECONDS)
        if last_time is not None and last_time < SHORT_RUN_SECONDS:
            end = time.perf_counter() + WARM_SECONDS
            rerun()
            while time.perf_counter() < end:
                rerun()
    return label


def _timed(run, data, threads):
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=threads) if threads else contextlib.nullcontext():
        wall, cpu = time.perf_counter(), time.process_time()
        output = run(data)
        return time.perf_counter() - wall, time.process_time() - cpu, output


def _contenders(row):
    """``(label, run, threads, contender)`` of a row: kernelkit on 2 threads and on 1, then the
    peers, on 2 threads as well.

    On a machine of 2 usable CPUs, 2 threads are every library's default and those runs enter
    no ``threadpool_limits`` context: entering one (it inspects every loaded library) costs the
    run that follows about 0.1 ms of cold caches, measured on a 0.3 ms k-NN fit with or without
    it, scikit-learn's as kernelkit's. Elsewhere kernelkit and the peers run in the same context.
    """
    from kernelkit.bench._harness import _usable_cpus

    threads = None if _usable_cpus() == N_THREADS else N_THREADS
    out = [("kernelkit", row.kernelkit, threads, None),
           ("kernelkit 1 thread", row.kernelkit, 1, None)]
    out += [(peer.name, peer.run, threads, peer) for peer in row.peers]
    return out


def _run_cell(row, n, state, budget, log):
    """Time every contender of ``row`` at ``n``; ``state`` carries each contender's previous
    ``(n, time)`` and whether it has warmed up."""
    cell = dict(row=row.name, family=row.family, n=n, times={}, notes={}, checks={})
    try:
        data = row.setup(n)
    except (LookupError, OSError) as error:
        cell["notes"]["data"] = f"data unavailable: {error}"
        return cell
    active = []
    for label, run, threads, peer in _contenders(row):
        if peer is not None and peer.missing():
            cell["notes"][label] = f"missing: {', '.join(peer.missing())}"
            continue
        if (row.peers and peer is row.peers[0] and row.peer_max_n is not None
                and n > row.peer_max_n):
            cell["notes"][label] = f"not run above n = {row.peer_max_n}"
            continue
        previous = state.get(label)
        if previous and previous["time"] is not None:
            estimate = previous["time"] * (n / previous["n"]) ** row.cost
            if estimate > budget:
                cell["notes"][label] = f"left out: ~{estimate:.0f} s estimated"
                continue
        elif previous and previous["time"] is None:
            cell["notes"][label] = "left out: failed or left out at a smaller size"
            continue
        active.append((label, run, threads))
    samples = {label: [] for label, *_ in active}
    outputs = {}
    previous = None
    if active and all(state.get(label, {}).get("warm") for label, *_ in active):
        # a larger size: the process's first run at it touches more memory than the process
        # has held, and paid for it (a sum kernel of 10 000 samples: 5.9 s, then 2.4 s), in
        # the column of whichever contender ran first: one run untimed
        first_label, first_run, first_threads = active[0]
        previous = _settled(first_label, previous, None, None)
        _timed(first_run, data, first_threads)
    for label, run, threads in list(active):
        try:
            if not state.get(label, {}).get("warm"):
                _timed(run, data, threads)  # imports, caches, thread pools: untimed
            previous = _settled(label, previous, None, None)
            wall, cpu, outputs[label] = _timed(run, data, threads)
        except Exception as error:  # a peer that refuses the case is a note, not a crash
            cell["notes"][label] = f"error: {type(error).__name__}: {str(error)[:120]}"
            state[label] = dict(n=n, time=None)
            active.remove((label, run, threads))
            continue
        samples[label].append(wall)
        state[label] = dict(n=n, time=wall, warm=True)
    repeats = max((_n_repeats(samples[label][0]) for label, *_ in active), default=0)
    for rep in range(1, repeats):
        k = rep % len(active)
        for label, run, threads in active[k:] + active[:k]:
            if len(samples[label]) < _n_repeats(samples[label][0]):
                previous = _settled(label, previous,
                                    lambda: _timed(run, data, threads), samples[label][-1])
                samples[label].append(_timed(run, data, threads)[0])
    for label, *_ in active:
        cell["times"][label] = statistics.median(samples[label])
        state[label]["time"] = cell["times"][label]
    reference = outputs.get("kernelkit")
    if reference is not None:
        mine = row.outcome(reference, data)
        for label in outputs:
            if label.startswith("kernelkit"):
                continue
            try:
                cell["checks"][label] = row.compare(mine, row.outcome(outputs[label], data))
            except Exception as error:
                cell["checks"][label] = (f"not comparable: {type(error).__name__}", False)
    log(_cell_line(cell))
    return cell


def run_matrix(rows, sizes=_rows.SIZES, budget=DEFAULT_BUDGET, log=print, after_row=None):
    """Time every row at every size; return the list of cells (dicts). ``after_row(cells)``,
    if given, sees the cells so far after each row (the command writes its table then, so an
    interrupted run keeps what it measured)."""
    cells = []
    for row in rows:
        state = {}
        for size in sizes:
            n = row.sizes[_rows.SIZES.index(size)]
            if n is None:
                continue
            cells.append(_run_cell(row, n, state, budget, log))
        if after_row is not None:
            after_row(cells)
    return cells


def _fastest_peer(cell):
    peers = {k: v for k, v in cell["times"].items() if not k.startswith("kernelkit")}
    if not peers:
        return None, None
    name = min(peers, key=peers.get)
    return name, peers[name]


def _first_peer(cell, row_peers):
    for name in row_peers:
        if name in cell["times"]:
            return name, cell["times"][name]
    return None, None


def _cell_line(cell):
    times = ", ".join(f"{k} {_fmt(v)}" for k, v in cell["times"].items())
    notes = "; ".join(f"{k}: {v}" for k, v in cell["notes"].items())
    return f"[matrix] {cell['row']} n={cell['n']}: {times}" + (f" ({notes})" if notes else "")


def _fmt(t):
    if t is None:
        return "–"
    return f"{t:.3g} s" if t >= 1 else f"{t * 1e3:.3g} ms"


def _ratio(a, b):
    return f"{a / b:.2f}" if a and b else "–"


def _flag(text, over):
    return f"**{text}**" if over else text


def format_matrix(cells, rows, busy_core=False, load=None):
    """The Markdown table of :func:`run_matrix`'s cells."""
    from kernelkit.bench import machine_description

    peers_of = {row.name: [p.name for p in row.peers] for row in rows}
    lines = [
        f"# Speed matrix{' with one busy core' if busy_core else ''}", "",
        __doc__.split("\n\n")[0].replace("\n", " "), "",
        machine_description(*(load or (None, None)), busy_core=busy_core),
        f"Run {time.strftime('%Y-%m-%d %H:%M')}. Medians of alternating runs in one process; "
        "the first run of each contender at the smallest size is an untimed warm-up, and so is "
        "the first run at each larger size; a run of kernelkit that follows a peer's waits "
        f"{SETTLE_SECONDS} s for the peer's threads to sleep, then, when it takes less than "
        f"{SHORT_RUN_SECONDS * 1e3:.0f} ms, runs untimed for {WARM_SECONDS * 1e3:.0f} ms. "
        "2 thr ÷ 1 thr: kernelkit's time on 2 threads over its time on 1 (below 1: the second "
        "thread pays). Ratios over 1.0 (kernelkit slower) in bold. A check compares kernelkit's "
        "result with each peer's (✔ within the row's tolerance); a ✘ against a library that "
        "draws other random numbers (bootstrap samples, k-means seeding, hashing, LightGBM's "
        "and XGBoost's trees) or defines the method otherwise (scikit-learn's spectral "
        "embedding normalises its Laplacian) is a difference of definition, not of "
        "exactness; exactness is tested against scikit-learn and the twins in the test "
        "suite.", "",
        "| row | n | kernelkit | 1 thread | 2 thr ÷ 1 thr | peer | peer time | kernelkit ÷ peer "
        "| fastest peer | kernelkit ÷ fastest | check | notes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for cell in cells:
        kk = cell["times"].get("kernelkit")
        one = cell["times"].get("kernelkit 1 thread")
        peer, peer_time = _first_peer(cell, peers_of.get(cell["row"], []))
        fastest, fastest_time = _fastest_peer(cell)
        check = "; ".join(f"{'✔' if ok else '✘'} {text} ({name})"
                          for name, (text, ok) in cell["checks"].items())
        notes = "; ".join(f"{k}: {v}" for k, v in cell["notes"].items())
        over = kk and peer_time and kk > peer_time
        over_fastest = kk and fastest_time and kk > fastest_time
        lines.append(
            f"| {cell['row']} | {cell['n']} | {_fmt(kk)} | {_fmt(one)} | {_ratio(kk, one)} | "
            f"{peer or '–'} | {_fmt(peer_time)} | {_flag(_ratio(kk, peer_time), over)} | "
            f"{fastest or '–'} {_fmt(fastest_time) if fastest else ''} | "
            f"{_flag(_ratio(kk, fastest_time), over_fastest)} | {check} | {notes} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- old vs new


def _unpacked(wheel, folder):
    """A folder to put on ``sys.path`` for the kernelkit of ``wheel`` (a .whl, or a folder
    holding a ``kernelkit`` package)."""
    wheel = pathlib.Path(wheel)
    if wheel.is_dir():
        return wheel
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder)
    return pathlib.Path(folder)


def _worker_times(row, size, path, repeats):
    env = dict(os.environ)
    if path is not None:
        env["KERNELKIT_MATRIX_PATH"] = str(path)
    out = subprocess.run(
        [sys.executable, str(WORKER), row, size, str(repeats)], env=env, check=True,
        capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_baseline(wheel, rows, sizes=("small", "medium"), pairs=3, log=print, after_row=None):
    """Old wheel vs the installed kernelkit, alternating fresh processes; one cell per row and
    size with the medians of both sides' wall and CPU times (``after_row(cells)`` as in
    :func:`run_matrix`)."""
    cells = []
    with tempfile.TemporaryDirectory() as folder:
        old = _unpacked(wheel, folder)
        for row in rows:
            for size in sizes:
                n = row.sizes[_rows.SIZES.index(size)]
                if n is None:
                    continue
                times = {"old": [], "new": []}
                repeats = {"small": 5, "medium": 3}.get(size, 1)
                try:
                    for _ in range(pairs):
                        for side, path in (("old", old), ("new", None)):
                            times[side].append(_worker_times(row.name, size, path, repeats))
                except subprocess.CalledProcessError as error:
                    log(f"[baseline] {row.name} {size}: failed ({error.stderr[-300:]})")
                    continue
                cell = dict(row=row.name, n=n, **{
                    f"{side}_{kind}": statistics.median(t[kind] for t in times[side])
                    for side in times for kind in ("wall", "cpu")},
                    old_from=times["old"][0]["kernelkit"], new_from=times["new"][0]["kernelkit"])
                log(f"[baseline] {row.name} n={n}: old ÷ new wall "
                    f"{cell['old_wall'] / cell['new_wall']:.3f}, CPU "
                    f"{cell['old_cpu'] / cell['new_cpu']:.3f}")
                cells.append(cell)
            if after_row is not None and cells:
                after_row(cells)
    return cells


def format_baseline(cells, wheel, load=None):
    from kernelkit.bench import machine_description

    lines = [
        f"# Speed matrix: {pathlib.Path(wheel).name} (old) against the installed kernelkit (new)",
        "", machine_description(*(load or (None, None))),
        "Each side runs in fresh processes, alternating (old, new, old, new, …): data, an "
        "untimed warm-up, then timed runs on 2 threads (5 at the small size, 3 at the medium, "
        "1 at the large). Medians; old ÷ new above 1: the new kernelkit is faster.",
        *(f"Old kernelkit imported from {cells[0]['old_from']}, new from {cells[0]['new_from']}."
          for _ in cells[:1]), "",
        "| row | n | old wall | new wall | old ÷ new wall | old ÷ new CPU |",
        "|---|---|---|---|---|---|"]
    for c in cells:
        slower = c["old_wall"] < c["new_wall"]
        lines.append(f"| {c['row']} | {c['n']} | {_fmt(c['old_wall'])} | {_fmt(c['new_wall'])} "
                     f"| {_flag(_ratio(c['old_wall'], c['new_wall']), slower)} | "
                     f"{_ratio(c['old_cpu'], c['new_cpu'])} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------- command


def _parser():
    parser = argparse.ArgumentParser(
        prog="kernelkit bench matrix", description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--rows", default=None, metavar="NAMES",
                        help="comma-separated row names, or prefixes of them (default: all)")
    parser.add_argument("--sizes", default=",".join(_rows.SIZES), metavar="SIZES",
                        help="comma-separated among small, medium, large (default: all three)")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                        help="leave a contender out of a size it would take longer than this "
                             "at (estimated from the previous size; default 30)")
    parser.add_argument("--busy-core", action="store_true",
                        help="keep one CPU busy with another process during the run")
    parser.add_argument("--baseline", default=None, metavar="WHEEL",
                        help="time an older wheel (or unpacked folder) against the installed "
                             "kernelkit instead, old ÷ new per row")
    parser.add_argument("--out", default=".", metavar="FOLDER",
                        help="folder of matrix.md, matrix-busy.md or matrix-baseline.md")
    return parser


def _select(rows, names):
    if not names:
        return rows
    wanted = [w.strip() for w in names.split(",") if w.strip()]
    chosen = [r for r in rows if any(r.name == w or r.name.startswith(w + " ") for w in wanted)]
    unknown = [w for w in wanted
               if not any(r.name == w or r.name.startswith(w + " ") for r in rows)]
    if unknown:
        raise SystemExit(f"kernelkit bench matrix: unknown rows {', '.join(unknown)}")
    return chosen


def main(argv=None):
    """Run the matrix command with ``argv``; return the exit status."""
    from kernelkit.bench import busy_core

    args = _parser().parse_args(argv)
    sizes = [s.strip() for s in args.sizes.split(",")]
    if not set(sizes) <= set(_rows.SIZES):
        raise SystemExit(f"kernelkit bench matrix: --sizes takes {', '.join(_rows.SIZES)}")
    rows = _select(_rows.all_rows(), args.rows)
    os.makedirs(args.out, exist_ok=True)
    load_before = os.getloadavg()
    name = ("matrix-baseline.md" if args.baseline else
            "matrix-busy.md" if args.busy_core else "matrix.md")
    path = os.path.join(args.out, name)

    def write(cells):
        load = (load_before, os.getloadavg())
        table = (format_baseline(cells, args.baseline, load) if args.baseline else
                 format_matrix(cells, rows, args.busy_core, load))
        with open(path, "w", encoding="utf-8") as f:
            f.write(table)
        return table

    with busy_core() if args.busy_core else contextlib.nullcontext():
        if args.baseline:
            table = write(run_baseline(args.baseline, rows, sizes, after_row=write))
        else:
            table = write(run_matrix(rows, sizes, args.budget, after_row=write))
    print(table)
    print(f"written to {path}")
    return 0
