"""``python -m kernelkit``: the command line of :mod:`kernelkit.cli` (also the ``kernelkit``
script)."""

import sys

from kernelkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
