"""``kernelkit bench``: the benchmark suites of ``kernelkit.bench.suites``, each written as a
Markdown table; ``kernelkit bench graph-accuracy`` and ``kernelkit bench matrix`` are tools of
their own, with their own options (:data:`TOOLS`)."""

import contextlib
import importlib
import os

from kernelkit.cli._arguments import _check_names
from kernelkit.cli._text import _listing, _module_summaries, _wrap

SUMMARY = "benchmark suites side by side with peer libraries"
# ``kernelkit bench NAME ...``: the module whose ``main(argv)`` takes the rest of the line
TOOLS = {"graph-accuracy": "kernelkit.bench.graph_accuracy", "matrix": "kernelkit.bench.matrix"}


def run_tool(name, argv):
    """Run the bench tool ``name`` (a key of :data:`TOOLS`) with ``argv``; its exit status."""
    return importlib.import_module(TOOLS[name]).main(argv)


def _writable_folder(parser, path):
    """Refuse an --out that cannot become a folder, before any work is done; create nothing."""
    if os.path.exists(path):
        if not os.path.isdir(path):
            parser.error(f"--out {path!r} exists and is not a folder")
        probe = path
    else:
        probe = os.path.dirname(os.path.abspath(path))
        while not os.path.exists(probe):
            probe = os.path.dirname(probe)
        if not os.path.isdir(probe):
            parser.error(f"--out {path!r}: {probe!r} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        parser.error(f"--out {path!r}: {probe!r} is not writable")


def fill_parser(parser):
    parser.description = _wrap(
        "Time kernelkit against its pure-Python twins and peer libraries in one process, "
        "alternating runs. Each suite writes a Markdown table SUITE.md (SUITE-quick.md with "
        "--quick) into the --out folder, which is created when the first table is written; the "
        "table describes the machine it ran on (CPU, cores, load average before and after). "
        "Peers missing from this Python are reported as missing (the bench extra of kernelkit "
        "lists them). Without names, every suite runs. With --busy-core, another process "
        "spins on one CPU while the suites run (SUITE-busy.md, SUITE-quick-busy.md): how the "
        "speed holds when a core is taken.")
    parser.epilog = (_listing("suites", _module_summaries("kernelkit.bench.suites"))
                     + "\n\n" + _wrap("Also: kernelkit bench graph-accuracy [--datasets ...] "
                                       "[--kernels ...] [--data FOLDER] [--out FILE] [--quick], "
                                       "the table of graph classification accuracy of every "
                                       "graph kernel on the TU sets (see its --help). And: "
                                       "kernelkit bench matrix [--sizes ...] [--rows ...] "
                                       "[--baseline OLD.whl] [--busy-core], every estimator, "
                                       "kernel and compiled function at its defaults against "
                                       "its peer, on 2 threads and 1 (see its --help)."))
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="suite names (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="small profile (about a minute per suite)")
    parser.add_argument("--out", default=".", metavar="FOLDER",
                        help="folder for the Markdown tables (default: the current folder)")
    parser.add_argument("--busy-core", action="store_true",
                        help="keep one CPU busy with another process while the suites run")
    parser.set_defaults(func=run, parser=parser)


def run(args):
    from kernelkit.bench import available_suites, busy_core, format_table, load_suite, run_suite

    available = available_suites()
    _check_names(args.parser, "suite", args.suites, available)
    _writable_folder(args.parser, args.out)
    with busy_core() if args.busy_core else contextlib.nullcontext():
        for name in args.suites or available:
            suite = load_suite(name)
            rows = run_suite(suite, quick=args.quick)
            table = format_table(suite, rows, quick=args.quick, busy_core=args.busy_core)
            os.makedirs(args.out, exist_ok=True)
            path = os.path.join(args.out, _table_name(name, args.quick, args.busy_core))
            with open(path, "w", encoding="utf-8") as f:
                f.write(table)
            print(table)
            print(f"written to {path}")
    return 0


def _table_name(suite, quick, busy):
    return f"{suite}{'-quick' if quick else ''}{'-busy' if busy else ''}.md"
