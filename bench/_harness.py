"""A small declarative benchmark runner.

A :class:`Suite` declares a grid of cases (a full and a ``quick`` profile), how to build each
case's data from a fixed seed, and its contenders: kernelkit first, then the pure-Python reference
and peers. All contenders run in the same process on the same data, in alternating order
(rotated each repeat), and the table reports the median time, its ratio to kernelkit's, and the
values each contender returns to show they computed the same thing. A contender whose library is
not importable is reported as missing, not a crash.

Optionally (``measure_memory=True``) each contender also runs once in a fresh interpreter, where the
peak resident-memory increase over the data set-up is read from ``/proc/self/status`` (Linux), so
memory allocated in C (kernelkit's cores, libsvm, BLAS) is counted too.

After the per-contender rows, the report summarises each case against the peers: the fastest
contender that is neither kernelkit nor its reference twin, and kernelkit's time over that peer's
and over scikit-learn's. :func:`busy_core` keeps one extra CPU busy while suites run, to measure
how the speed holds when another process takes a core.
"""

import contextlib
import dataclasses
import importlib
import importlib.util
import math
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable

from kernelkit.bench._shared_data import shared_data

__all__ = ["Contender", "Suite", "reference_up_to", "sklearn_peer", "versus_sklearn", "run_suite",
           "format_table", "machine_description", "case_summaries", "busy_core", "shared_data"]


@dataclasses.dataclass
class Contender:
    """One implementation timed in a suite.

    Parameters
    ----------
    name : str
        Column label, e.g. ``"kernelkit"``, ``"reference"``, ``"scikit-learn"``.
    run : callable
        ``run(data) -> dict or None``. The dict's entries are shown in the table (e.g. the
        objective reached); the special key ``"per"`` divides the time (e.g. iterations run, to
        report time per iteration).
    requires : tuple of str
        Modules that must import for this contender to run; otherwise it is reported missing.
        ``"module:Name"`` also requires the module to define ``Name`` (an estimator that has
        not landed yet is reported missing, not a crash).
    applies : callable or None
        ``applies(params) -> bool``; ``False`` skips this contender on that case (e.g. the
        pure-Python reference on a size it would take minutes on).
    peer : bool or None
        Whether this contender is another library's implementation, a candidate for the
        "fastest peer" of the summary. None: a contender that requires a module and whose name
        starts with neither ``"kernelkit"`` nor ``"reference"``.
    """

    name: str
    run: Callable
    requires: tuple = ()
    applies: Callable = None
    peer: bool = None

    def is_peer(self):
        """Whether this contender counts as a peer in the summary (see ``peer``)."""
        if self.peer is not None:
            return self.peer
        return bool(self.requires) and not self.name.startswith(("kernelkit", "reference"))

    def missing(self):
        """Names of required modules (or ``module:Name``) that are not importable."""
        return [r for r in self.requires if not _importable(*r.split(":", 1))]


def _importable(module, name=None):
    if name is None:
        return importlib.util.find_spec(module) is not None
    try:
        return hasattr(importlib.import_module(module), name)
    except ImportError:
        return False


def reference_up_to(n_max, run, name="reference"):
    """The pure-Python twin as a contender, timed only on the cases with ``params["n"] ≤ n_max``
    (it runs orders of magnitude slower than the core it mirrors)."""
    return Contender(name, run, applies=lambda params: params["n"] <= n_max)


def sklearn_peer(run, name="scikit-learn"):
    """scikit-learn as a contender, reported missing when it does not import."""
    return Contender(name, run, requires=("sklearn",))


def versus_sklearn(name, description, setup, kernelkit, sklearn, *, cases, quick_cases,
                   repeats, quick_repeats):
    """A suite of an estimator without a compiled core (hence no twin to time): kernelkit, the
    ratios' baseline, against scikit-learn, on a fixed grid per profile with a fixed number of
    repeats per profile."""
    return Suite(
        name=name,
        description=description,
        cases=lambda quick: quick_cases if quick else cases,
        setup=setup,
        contenders=[Contender("kernelkit", kernelkit), sklearn_peer(sklearn)],
        repeats=lambda params, quick: quick_repeats if quick else repeats,
    )


@dataclasses.dataclass
class Suite:
    """A benchmark suite.

    Parameters
    ----------
    name : str
        Name on the command line and of the results file ``<name>.md``.
    description : str
        One paragraph for the head of the results file: what is measured, units, settings.
    cases : callable
        ``cases(quick: bool) -> list of dict``: the parameter grid.
    setup : callable
        ``setup(params) -> data``, deterministic (fixed seed), run once per case.
    contenders : list of Contender
        The first is the baseline of the ratio column (kernelkit).
    repeats : callable or int
        Timed runs per contender (median reported); ``repeats(params, quick)`` may size it.
    warmup : bool or callable
        Run every contender once, untimed, before timing (imports, caches, thread pools);
        ``warmup(params, quick) -> bool`` may decide per case (no warm-up on a case whose runs
        take minutes, once smaller cases have warmed the same contenders up).
    measure_memory : bool
        Also measure each contender's peak memory increase in a fresh process.
    """

    name: str
    description: str
    cases: Callable
    setup: Callable
    contenders: list
    repeats: object = 5
    warmup: object = True
    measure_memory: bool = False


def _n_repeats(suite, params, quick):
    r = suite.repeats
    return r(params, quick) if callable(r) else (max(1, r // 2) if quick else r)


def _peak_rss_increase(suite_module, case_index, quick, contender_name):
    """In a fresh process: build the case's data, then the peak RSS increase of one run (MiB)."""
    suite = importlib.import_module(suite_module).SUITE
    params = suite.cases(quick)[case_index]
    data = suite.setup(params)
    contender = next(c for c in suite.contenders if c.name == contender_name)
    with open("/proc/self/clear_refs", "w") as f:  # resets VmHWM to the current RSS
        f.write("5")
    base = _proc_status_kib("VmRSS")
    contender.run(data)
    return (_proc_status_kib("VmHWM") - base) / 1024.0


def _proc_status_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _load_average():
    """The 1, 5 and 15-minute load averages, or None where the system does not report them."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return None


def run_suite(suite, quick=False, log=print):
    """Run every case of ``suite``; return a list of row dicts (one per case and contender).

    Every row also records the load averages at the start and the end of its case
    (``load_before``, ``load_after``; None where the system does not report them), which
    :func:`format_table` prints with the machine's description.
    """
    rows = []
    can_measure_memory = suite.measure_memory and os.path.exists("/proc/self/clear_refs")
    for case_index, params in enumerate(suite.cases(quick)):
        log(f"[{suite.name}] case {params}")
        load_before = _load_average()
        case_rows = []
        data = suite.setup(params)
        active = []
        for c in suite.contenders:
            if c.applies is not None and not c.applies(params):
                continue
            missing = c.missing()
            if missing:
                case_rows.append(dict(case=params, contender=c.name,
                                      note=f"missing: {', '.join(missing)}"))
                continue
            active.append(c)
        times = {c.name: [] for c in active}
        info = {c.name: {} for c in active}
        warmup = suite.warmup(params, quick) if callable(suite.warmup) else suite.warmup
        if warmup:
            for c in active:
                info[c.name] = c.run(data) or {}
        n_rep = _n_repeats(suite, params, quick)
        for rep in range(n_rep):
            k = rep % len(active) if active else 0
            for c in active[k:] + active[:k]:
                t0 = time.perf_counter()
                out = c.run(data) or {}
                elapsed = time.perf_counter() - t0
                info[c.name] = out
                times[c.name].append(elapsed / out.get("per", 1))
        # the ratios' baseline is the suite's first contender (kernelkit); none if it is missing
        baseline = suite.contenders[0].name
        base = statistics.median(times[baseline]) if baseline in times else None
        for c in active:
            med = statistics.median(times[c.name])
            row = dict(case=params, contender=c.name, time=med, repeats=n_rep, peer=c.is_peer(),
                       ratio=med / base if base else float("nan"),
                       values={k: v for k, v in info[c.name].items() if k != "per"})
            if can_measure_memory:
                ctx = multiprocessing.get_context("spawn")
                with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
                    row["peak_mib"] = pool.submit(
                        _peak_rss_increase, _module_of(suite), case_index, quick, c.name
                    ).result()
            case_rows.append(row)
            log(f"  {c.name:>28s}: {_fmt_time(med)}  x{row['ratio']:.3f}  {row['values']}")
        del data
        load_after = _load_average()
        for row in case_rows:
            row.update(load_before=load_before, load_after=load_after)
        rows.extend(case_rows)
        for summary in case_summaries(suite, case_rows):
            log(f"  fastest peer: {summary['fastest peer'] or 'none'}; kernelkit ÷ fastest peer "
                f"{_fmt_ratio(summary['kernelkit / peer'])}, kernelkit ÷ scikit-learn "
                f"{_fmt_ratio(summary['kernelkit / scikit-learn'])}")
    return rows


def case_summaries(suite, rows):
    """For each case of ``rows``: the fastest peer and kernelkit's time over the peers'.

    Parameters
    ----------
    suite : Suite
        Its first contender is kernelkit, the numerator of the ratios.
    rows : list of dict
        As returned by :func:`run_suite`.

    Returns
    -------
    list of dict
        One per case, in order, with keys ``case`` (the parameters), ``fastest peer`` (name, or
        None when no peer ran), ``peer time`` (its median time, s), ``kernelkit / peer`` and
        ``kernelkit / scikit-learn`` (kernelkit's median time over the fastest peer's and over
        the fastest contender named ``scikit-learn...``; below 1: kernelkit is faster; NaN
        when either side did not run).
    """
    baseline = suite.contenders[0].name
    summaries = []
    for case in _unique_cases(rows):
        timed = [r for r in rows if r["case"] == case and "time" in r]
        kernelkit = next((r["time"] for r in timed if r["contender"] == baseline), None)
        peers = [r for r in timed if r.get("peer")]
        fastest = min(peers, key=lambda r: r["time"], default=None)
        sklearn = min((r["time"] for r in timed if r["contender"].startswith("scikit-learn")),
                      default=None)
        summaries.append({
            "case": case,
            "fastest peer": fastest["contender"] if fastest else None,
            "peer time": fastest["time"] if fastest else None,
            "kernelkit / peer": _over(kernelkit, fastest["time"] if fastest else None),
            "kernelkit / scikit-learn": _over(kernelkit, sklearn),
        })
    return summaries


def _over(kernelkit, peer):
    return kernelkit / peer if kernelkit is not None and peer else float("nan")


def _unique_cases(rows):
    cases = []
    for r in rows:
        if r["case"] not in cases:
            cases.append(r["case"])
    return cases


def _fmt_ratio(x):
    return "–" if math.isnan(x) else f"{x:.3f}"


@contextlib.contextmanager
def busy_core():
    """Keep one CPU busy while the block runs: a child Python process spinning in a loop.

    The child is started before the block and stopped when it ends, also on an exception or
    Ctrl-C. It runs in a session of its own (a Ctrl-C at the terminal reaches only this
    process, which stops it) and ends by itself once its parent is gone, so that not even a
    killed parent leaves it spinning.

    Yields
    ------
    subprocess.Popen
        The spinning process.
    """
    # the parent's id is passed, not read at start-up: a parent killed while the child's
    # interpreter starts would otherwise never be missed
    spinner = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys\nparent = int(sys.argv[1])\nwhile os.getppid() == parent:\n    pass",
         str(os.getpid())],
        stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        yield spinner
    finally:
        spinner.kill()
        spinner.wait()


def _module_of(suite):
    for name, mod in list(importlib.sys.modules.items()):
        if getattr(mod, "SUITE", None) is suite:
            return name
    raise LookupError(f"suite {suite.name!r} is not the SUITE of an importable module")


def _fmt_time(t):
    if t is None:
        return ""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if t >= scale:
            return f"{t / scale:.3g} {unit}"
    return f"{t / 1e-9:.3g} ns"


def _fmt_value(v):
    if isinstance(v, float):
        return f"{v:.10g}"
    return str(v)


def _cpu_model():
    """The processor's name as the system reports it (``/proc/cpuinfo`` on Linux)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "Hardware", "cpu model") \
                        and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _usable_cpus():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count()


def _fmt_load(load):
    return "not reported" if load is None else ", ".join(f"{x:.2f}" for x in load)


def machine_description(load_before=None, load_after=None, busy_core=False):
    """One sentence on the machine a benchmark runs on: CPU model, cores, OpenMP threads and the
    load averages (1, 5, 15 min) before and after the run.

    Parameters
    ----------
    load_before, load_after : tuple of 3 float or None
        As returned by ``os.getloadavg()``; None: not reported.
    busy_core : bool, default=False
        Whether the run had one busy core (see :func:`busy_core`): said in the sentence.

    Returns
    -------
    str
    """
    from kernelkit.utils._threads import effective_n_threads

    return (
        f"Machine: {_cpu_model()} ({platform.machine()}, {platform.system()}), "
        f"{os.cpu_count()} logical CPUs, {_usable_cpus()} usable by this process, "
        f"{effective_n_threads()} OpenMP threads"
        + (", with one busy core (another process spinning on one CPU throughout the run)"
           if busy_core else "")
        + "; load average (1, 5, 15 min) "
        f"{_fmt_load(load_before)} before the run and {_fmt_load(load_after)} after "
        "(a load above the number of CPUs means other jobs competed for them)."
    )


def format_table(suite, rows, quick=False, busy_core=False):
    """The Markdown report: header (machine, load, versions, profile), one row per contender,
    then the summary against the peers, one row per case (see :func:`case_summaries`).

    Parameters
    ----------
    suite : Suite
    rows : list of dict
        As returned by :func:`run_suite`.
    quick : bool, default=False
        Whether the rows are of the quick profile (said in the title).
    busy_core : bool, default=False
        Whether one core was kept busy during the run (said in the title and the machine's
        description).

    Returns
    -------
    str
    """
    import numpy
    import scipy
    import sklearn

    from kernelkit import __version__

    head = [
        (f"# Benchmark `{suite.name}`{' (quick profile)' if quick else ''}"
         f"{' with one busy core' if busy_core else ''}"),
        "",
        suite.description.strip(),
        "",
        machine_description(rows[0].get("load_before") if rows else None,
                            rows[-1].get("load_after") if rows else None, busy_core=busy_core),
        f"Python {platform.python_version()}, kernelkit {__version__}, numpy "
        f"{numpy.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}. "
        f"Run {time.strftime('%Y-%m-%d %H:%M')}. Times are medians of alternating runs; "
        "ratio = time / kernelkit's time (below 1: faster than kernelkit).",
        "",
    ]
    mem = any("peak_mib" in r for r in rows)
    cols = ["case", "contender", "median time", "ratio", "repeats"] + (["peak MiB"] if mem else [])
    cols.append("values")
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        case = ", ".join(f"{k}={v}" for k, v in r["case"].items())
        if "note" in r:
            cells = [case, r["contender"], r["note"], "", ""] + ([""] if mem else []) + [""]
        else:
            cells = [case, r["contender"], _fmt_time(r["time"]), _fmt_ratio(r["ratio"]),
                     str(r["repeats"])]
            if mem:
                cells.append(f"{r['peak_mib']:.1f}" if "peak_mib" in r else "")
            cells.append(", ".join(f"{k}={_fmt_value(v)}" for k, v in r["values"].items()))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(head + lines + _summary_table(suite, rows)) + "\n"


def _summary_table(suite, rows):
    """The Markdown lines of the per-case summary against the peers (none if no peer ran)."""
    summaries = case_summaries(suite, rows)
    if not any(s["fastest peer"] for s in summaries):
        return []
    lines = ["", ("Against the peers: the fastest contender other than kernelkit and its "
                  "reference twin, and kernelkit's median time over that peer's and over "
                  "scikit-learn's fastest (below 1: kernelkit is faster)."), "",
             "| case | fastest peer | its time | kernelkit ÷ fastest peer "
             + "| kernelkit ÷ scikit-learn |",
             "|---|---|---|---|---|"]
    for s in summaries:
        case = ", ".join(f"{k}={v}" for k, v in s["case"].items())
        lines.append(f"| {case} | {s['fastest peer'] or 'none ran'} | "
                     f"{_fmt_time(s['peer time'])} | {_fmt_ratio(s['kernelkit / peer'])} | "
                     f"{_fmt_ratio(s['kernelkit / scikit-learn'])} |")
    return lines


def available_suites():
    """Names of the suites shipped in ``kernelkit.bench.suites``."""
    import pkgutil

    from kernelkit.bench import suites

    return sorted(m.name for m in pkgutil.iter_modules(suites.__path__)
                  if not m.name.startswith("_"))


def load_suite(name):
    """The ``SUITE`` of ``kernelkit.bench.suites.<name>``."""
    if name not in available_suites():
        raise ValueError(f"unknown benchmark suite {name!r}; available: "
                         f"{', '.join(available_suites())}")
    return importlib.import_module(f"kernelkit.bench.suites.{name}").SUITE
