"""A fixed 64-bit mixer for the kernels that key features by a hash of their parts (graphlet
fingerprints, treelets)."""

import numpy as np

__all__ = ["mix64"]


def mix64(x):
    """splitmix64's finaliser (Steele, Lea & Flood, OOPSLA 2014): a bijection of 64-bit words
    whose outputs look random (uint64 arithmetic wraps modulo 2^64)."""
    x = np.asarray(x, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))
