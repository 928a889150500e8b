"""Pure-Python/NumPy twins of kernelkit's compiled cores: readable, slow, used as test oracles.

Each function has the signature of the compiled entry it mirrors. This package imports neither
``kernelkit._core`` nor the estimator API.
"""

from kernelkit.reference.strings import (
    local_alignment_kernel,
    local_alignment_kernel_bruteforce,
    mismatch_kernel,
    smith_waterman_score,
    spectrum_kernel,
    substring_kernel,
    substring_kernel_bruteforce,
)
