"""kernelkit's command line: demonstrations on shipped data, benchmarks against peer libraries,
Gram matrices of string and graph kernels computed from files, and what this installation runs
on. Run "kernelkit COMMAND --help" for the names and options of each command."""

# The docstring above is the text of ``kernelkit --help``. One module per command
# (``_demo``, ``_bench``, ``_gram``, ``_info``), each with its ``SUMMARY`` (its line in the
# command list), ``fill_parser(parser)`` (its arguments and help) and ``run(args)`` (its exit
# status); the help texts are built by ``_text``, a kernel's options from its parameters by
# ``_options``, the files of ``gram`` read and written by ``_gram_files``.

import argparse
import sys

from kernelkit import __version__
from kernelkit.cli import _bench, _demo, _gram, _info
from kernelkit.cli._arguments import _Parser
from kernelkit.cli._text import PROG, _wrap

# the commands, in the order of the command list
COMMANDS = {"demo": _demo, "bench": _bench, "gram": _gram, "info": _info}


def build_parser(command=None):
    """The command-line parser.

    Parameters
    ----------
    command : str or None, default=None
        Fill in only this command's parser (its arguments and help); the others keep only their
        line in the command list. Filling in ``gram`` imports scikit-learn and the kernels
        (its options are their parameters), which ``--help``, ``--version`` and the other
        commands do not need. None fills in every command.

    Returns
    -------
    parser : argparse.ArgumentParser
    """
    parser = _Parser(prog=PROG, description=_wrap(__doc__),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        command_parser = sub.add_parser(name, help=module.SUMMARY,
                                        formatter_class=argparse.RawDescriptionHelpFormatter)
        if command in (None, name):
            module.fill_parser(command_parser)
    return parser


def main(argv=None):
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if len(argv) > 1 and argv[0] == "bench" and argv[1] in _bench.TOOLS:
        return _bench.run_tool(argv[1], argv[2:])  # a command of its own, with its own options
    # the top-level options take no value: the first other word names the command
    command = next((word for word in argv if not word.startswith("-")), "")
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    return args.func(args)
