"""Twin of ``kernelkit._core._sum_of_squares``: ``Σ x²`` by NumPy in the core's order.

Eight running sums in float64 of the entries ``i ≡ r (mod 8)``, each added in index order (a
cumulative sum, which NumPy adds sequentially), then
``((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇))``. Compared with the compiled module, bit for
bit, in ``tests/utils/test_validation.py``.
"""

import numpy as np

__all__ = ["sum_of_squares"]


def sum_of_squares(x):
    """``Σ x_i²`` in float64 of a 1-d array, summed as the compiled core sums it."""
    squares = np.asarray(x, dtype=np.float64) ** 2
    padded = np.zeros(-(-len(squares) // 8) * 8)
    padded[:len(squares)] = squares
    s = np.cumsum(padded.reshape(-1, 8), axis=0)[-1] if len(padded) else np.zeros(8)
    return float(((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7])))
