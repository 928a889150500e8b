"""``kernelkit demo``: the demonstrations of ``kernelkit.demos``, one module each."""

import importlib

from kernelkit.cli._arguments import _check_names
from kernelkit.cli._text import _first_paragraph, _listing, _module_summaries, _wrap

SUMMARY = "short demonstrations on shipped real data"


def fill_parser(parser):
    parser.description = _wrap("Short demonstrations on the real data shipped with kernelkit "
                               "(about 15 s in all on 2 idle cores). Without names, every demo "
                               "runs.")
    parser.epilog = _listing("demos", _module_summaries("kernelkit.demos"))
    parser.add_argument("parts", nargs="*", metavar="DEMO", help="demo names (default: all)")
    parser.set_defaults(func=run, parser=parser)


def run(args):
    parser = args.parser
    available = list(_module_summaries("kernelkit.demos"))
    _check_names(parser, "demo", args.parts, available)
    for name in args.parts or available:
        module = importlib.import_module(f"kernelkit.demos.{name}")
        print(f"=== {name}: {_first_paragraph(module.__doc__)}")
        module.main()
        print()
    return 0
