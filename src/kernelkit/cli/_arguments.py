"""Argument checks shared by the commands: a parser whose errors are one line, and the check
of the names given to a command against those it knows."""

import argparse


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block) and exit with status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _check_names(parser, kind, names, available):
    unknown = [name for name in names if name not in available]
    if unknown:
        parser.error(f"unknown {kind} {', '.join(map(repr, unknown))}; available: "
                     f"{', '.join(available)}")
