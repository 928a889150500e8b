r"""The masked-match path of the gapped k-mer kernels: its masks and when it is cheaper.

For a set F of j free positions, the masked code of an l-mer is its letters outside F;
summed over the :math:`\binom lj` sets F, the pairs with equal masked codes count each pair at
Hamming distance m :math:`\binom{l-m}{j-m}` times, :math:`M_j = \sum_{m \le j}
\binom{l-m}{j-m} N_m` (``_core/_gapped_kmer_masked.pyx``). A mask is coded as the runs of
kept positions moved from the bit-packed l-mer code (``letter_bits`` bits a letter, the
first letter in the highest bits) into the key.

The cost model compares the work of the two cores in units of one inner step (a live l-mer
at a trie node, an entry of a radix pass, a product of two summed weights), for random
letters: the trie walk visits, for each row l-mer and depth p, the prefixes within d
mismatches of it that the column l-mers fill; the masked path sorts each tile's l-mers once
per mask and adds the products of the row and column l-mers sharing a masked code.
"""

from itertools import combinations
from math import comb

import numpy as np

__all__ = ["letter_bits", "masked_plan", "masked_is_cheaper", "tile_size"]

#: the largest radix digit of the core (its histogram has 2^16 counts)
_DIGIT_BITS = 16
#: a trie step (a branch on one letter of a live l-mer) costs about this many sort steps
_TRIE_STEP = 3.0


def letter_bits(n_letters):
    """Bits of one letter in a packed l-mer code."""
    return max(1, (n_letters - 1).bit_length())


def tile_size(n_rows, n_cols, n_threads, largest):
    """Rows and columns of a Gram tile: ``largest`` each (a larger tile sorts each l-mer for
    fewer tiles), halved down to 64 until every thread has two tiles to take."""
    tile = largest
    while tile > 64 and -(-n_rows // tile) * -(-n_cols // tile) < 2 * n_threads:
        tile //= 2
    return tile, tile


def _runs(kept):
    """Maximal runs of consecutive positions in the sorted list ``kept``, as (first, last)."""
    runs = []
    for p in kept:
        if runs and runs[-1][1] == p - 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return runs


def masked_plan(l, d, h, n_letters, tile_rows, tile_cols):
    r"""The ``plan`` of ``_gapped_kmer_masked``: every mask of the levels counted, the
    triangle :math:`\binom{l-q}{m-q}` and the tile sizes.

    Only :math:`M_d` is counted when h is a multiple of the triangle's last row,
    :math:`h_m = h_d \binom{l-m}{d-m}` (the ``gkm`` type with d = l − k: the gapped k-mers
    shared are the masks of size l − k matched), as :math:`K = h_d M_d`.
    """
    bits = letter_bits(n_letters)
    triangle = np.array([[comb(l - q, m - q) if q <= m else 0 for q in range(d + 1)]
                         for m in range(d + 1)], dtype=np.int64)
    top_only = bool(np.all(h == h[d] * triangle[d].astype(np.float64)))
    levels = [d] if top_only else list(range(d + 1))
    run_ptr, run_shift, run_bits, run_place, key_bits, level = [0], [], [], [], [], []
    for index, j in enumerate(levels):
        for free in combinations(range(l), j):
            place = 0
            for first, last in _runs([p for p in range(l) if p not in free]):
                width = bits * (last - first + 1)
                run_shift.append(bits * (l - 1 - last))
                run_bits.append((1 << width) - 1)
                run_place.append(place)
                place += width
            run_ptr.append(len(run_shift))
            key_bits.append(place)
            level.append(index)
    return {"run_ptr": np.array(run_ptr, dtype=np.intp),
            "run_shift": np.array(run_shift, dtype=np.int32),
            "run_bits": np.array(run_bits, dtype=np.uint64),
            "run_place": np.array(run_place, dtype=np.int32),
            "key_bits": np.array(key_bits, dtype=np.int32),
            "level": np.array(level, dtype=np.int32),
            "binomial": triangle.ravel(), "h": np.asarray(h, dtype=np.float64),
            "d": d, "n_levels": len(levels), "levels": levels,
            "tile_rows": tile_rows, "tile_cols": tile_cols, "bits": bits, "l": l}


def _trie_cost(l, d, n_letters, n_row_lmers, n_col_lmers):
    """Live (row l-mer, trie node) steps of the walk of ``n_col_lmers`` column l-mers."""
    steps = 0.0
    for p in range(1, l + 1):
        within = sum(comb(p, m) * (n_letters - 1) ** m for m in range(min(d, p) + 1))
        steps += within * min(1.0, n_col_lmers / n_letters**p)
    return _TRIE_STEP * n_row_lmers * steps


def _masked_cost(plan, n_letters, n_row_lmers, n_col_lmers, n_row_tiles, n_col_tiles):
    """Sort steps (passes, histograms) and products of the masked path over every tile."""
    l, bits, total = plan["l"], plan["bits"], 0.0
    sorted_per_mask = n_row_lmers * n_col_tiles + n_col_lmers * n_row_tiles
    for j in plan["levels"]:
        key = bits * (l - j)
        passes = -(-key // _DIGIT_BITS)
        histogram = 2 ** -(-key // passes) if passes else 0
        products = n_row_lmers * n_col_lmers / n_letters ** (l - j)
        total += comb(l, j) * (sorted_per_mask * (passes + 1)
                               + n_row_tiles * n_col_tiles * passes * histogram + products)
    return total


def masked_is_cheaper(plan, n_letters, row_lmers, col_lmers, max_weight, diagonal):
    """Whether the masked path's estimated work is below the trie walk's (False when an
    l-mer does not fit 64 bits packed, or a count M_j might not fit an int64).

    ``row_lmers``, ``col_lmers``: the l-mers of each row and column sequence (ndarrays of
    int); ``max_weight``: the largest position weight; ``diagonal``: each row against its own
    column l-mers only.
    """
    if plan["bits"] * plan["l"] > 64 or row_lmers.size == 0 or col_lmers.size == 0:
        return False
    # M_j(x, y) ≤ C(l, j) (Σ w over x)(Σ w over y)
    largest = max(comb(plan["l"], j) for j in plan["levels"]) * max_weight**2
    if largest * int(row_lmers.max()) * int(col_lmers.max()) >= 2**63:
        return False
    n_row, n_col = int(row_lmers.sum()), int(col_lmers.sum())
    tile_rows, tile_cols = plan["tile_rows"], plan["tile_cols"]
    n_row_tiles = -(-row_lmers.shape[0] // tile_rows)
    if diagonal:
        per_sequence = n_col / max(col_lmers.shape[0], 1)
        trie = _trie_cost(plan["l"], plan["d"], n_letters, n_row, per_sequence)
        # a diagonal tile pairs each sequence with itself only: products as within one
        masked = _masked_cost(plan, n_letters, n_row, n_col, n_row_tiles, 1) - sum(
            comb(plan["l"], j) * n_row * (n_col - per_sequence) / n_letters ** (plan["l"] - j)
            for j in plan["levels"])
    else:
        trie = _trie_cost(plan["l"], plan["d"], n_letters, n_row, n_col)
        masked = _masked_cost(plan, n_letters, n_row, n_col, n_row_tiles,
                              -(-col_lmers.shape[0] // tile_cols))
    return masked < trie
