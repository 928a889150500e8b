"""Pure-Python/NumPy twins of kernelkit's compiled cores: readable, slow, used as test oracles.

Each function has the signature of the compiled entry it mirrors. This package imports neither
``kernelkit._core`` nor the estimator API.
"""

from kernelkit.reference.smo import smo_solve  # noqa: E402  (twin of kernelkit._core._smo)
