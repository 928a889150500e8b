"""Command line: ``python -m kernelkit demo`` and ``python -m kernelkit bench [--quick] [SUITE ...]``."""

import argparse
import os
import sys


def _bench(args):
    from kernelkit.bench._harness import available_suites, format_table, load_suite, run_suite

    names = args.suites or available_suites()
    os.makedirs(args.out, exist_ok=True)
    for name in names:
        suite = load_suite(name)
        rows = run_suite(suite, quick=args.quick)
        table = format_table(suite, rows, quick=args.quick)
        path = os.path.join(args.out, f"{name}{'-quick' if args.quick else ''}.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(table)
        print(table)
        print(f"written to {path}")
    return 0


def _demo(args):
    import importlib
    import pkgutil

    from kernelkit import demos

    names = sorted(m.name for m in pkgutil.iter_modules(demos.__path__) if not m.name.startswith("_"))
    for name in args.parts or names:
        if name not in names:
            raise SystemExit(f"unknown demo {name!r}; available: {', '.join(names)}")
        module = importlib.import_module(f"kernelkit.demos.{name}")
        print(f"=== {name}: {module.__doc__.strip().splitlines()[0]}")
        module.main()
        print()
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m kernelkit", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_bench = sub.add_parser("bench", help="run benchmark suites side by side with peers")
    p_bench.add_argument("suites", nargs="*", help="suite names (default: all)")
    p_bench.add_argument("--quick", action="store_true", help="small profile (< 1 min per suite)")
    p_bench.add_argument("--out", default=".", help="folder for the Markdown tables (default: .)")
    p_bench.set_defaults(func=_bench)
    p_demo = sub.add_parser("demo", help="short demonstrations on shipped real data")
    p_demo.add_argument("parts", nargs="*", help="demo names (default: all)")
    p_demo.set_defaults(func=_demo)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
