"""Pure-Python/NumPy twins of kernelkit's compiled cores: readable, slow, used as test oracles.

Each function has the signature of the compiled entry it mirrors. This package imports neither
``kernelkit._core`` nor the estimator API.
"""

# Twin of kernelkit._core._smacof; the seed's Algorithm 17: kernelkit.reference.smacof.smacof.
from kernelkit.reference.smacof import guttman_transform  # noqa: F401
