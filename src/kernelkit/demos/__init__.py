"""Demonstrations for ``kernelkit demo``: one module each, with a ``main()``."""
