"""Demonstrations for ``python -m kernelkit demo``: one module each, with a ``main()``."""
