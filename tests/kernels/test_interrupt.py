"""Ctrl-C stops the kernels' compiled loops (the ``ctrl_c`` fixture of tests/conftest.py), also
inside one long pair and while one thread holds the only long item."""

import pytest

_PROTEINS = """
    import numpy as np
    rng = np.random.default_rng(0)
    letters = list("ACDEFGHIKLMNPQRSTVWY")
"""

_LONG_LOOPS = {
    # ~45 000 pairs of the pair driver: many minutes
    "substring": _PROTEINS + """
    from kernelkit.kernels import SubstringKernel
    X = ["".join(rng.choice(letters, 1000)) for _ in range(300)]
    run = lambda: SubstringKernel(k=5, n_jobs=2).fit_transform(X)
    """,
    # 4.5e6 merge-joins of two spectra of ~2 000 k-mers: minutes
    "spectrum merge": _PROTEINS + """
    from kernelkit.kernels import SpectrumKernel
    X = ["".join(rng.choice(letters, 2000)) for _ in range(3000)]
    run = lambda: SpectrumKernel(k=3, algorithm="merge", n_jobs=2).fit_transform(X)
    """,
    # three proteins of 60 000 letters: six pairs of 3.6e9 DP cells each, on one and two threads
    # (the pairs outnumber neither thread by much: one thread ends up alone in a long pair)
    "local alignment, 1 thread": _PROTEINS + """
    from kernelkit.kernels import LocalAlignmentKernel
    X = ["".join(rng.choice(letters, 60_000)) for _ in range(3)]
    run = lambda: LocalAlignmentKernel(n_jobs=1).fit_transform(X)
    """,
    "local alignment, 2 threads": _PROTEINS + """
    from kernelkit.kernels import LocalAlignmentKernel
    X = ["".join(rng.choice(letters, 60_000)) for _ in range(3)]
    run = lambda: LocalAlignmentKernel(n_jobs=2).fit_transform(X)
    """,
    # C(3000, 4) = 3.4e12 induced 4-node subgraphs of a graph: hours; two threads: the first may
    # finish the small graph while the other one enumerates
    "graphlets": """
    import numpy as np, scipy.sparse as sp
    from kernelkit.kernels import GraphletKernel
    A = sp.triu(sp.random_array((3000, 3000), density=0.01, random_state=0), k=1)
    A = sp.csr_array(((A + A.T) > 0).astype(float))
    graphs = [(A[:9, :9], [0] * 9), (A, [0] * 3000)]
    run = lambda: GraphletKernel(k=4, n_jobs=2).fit_transform(graphs)
    """,
    # 80 000 pairs of 300-node graphs, 90 000 node pairs each: the Gaussian GraphHopper pair
    # kernel runs for many minutes (its path counts, before, for about a second)
    "graphhopper": """
    import numpy as np, scipy.sparse as sp
    from kernelkit.kernels import GraphHopperKernel
    A = sp.triu(sp.random_array((300, 300), density=0.02, random_state=0), k=1)
    A = sp.csr_array(((A + A.T) > 0).astype(float))
    x = np.random.default_rng(0).normal(size=(300, 18))
    graphs = [(A, None, None, x)] * 400
    run = lambda: GraphHopperKernel(kernel="gaussian", n_jobs=2).fit_transform(graphs)
    """,
    # one pair: 100 mat-vecs of ~5e8 multiply-adds on a product graph of 2.25e6 vertices
    "walk": """
    import numpy as np, scipy.sparse as sp
    from kernelkit.kernels import WalkKernel
    A = sp.triu(sp.random_array((1500, 1500), density=0.01, random_state=0), k=1)
    A = sp.csr_array(((A + A.T) > 0).astype(float))
    run = lambda: WalkKernel(n=100, n_jobs=2).fit_transform([(A, [0] * 1500)])
    """,
    # 2 million transport problems between 20-node graphs, on two threads: hours
    "wasserstein weisfeiler-lehman": """
    import numpy as np
    from kernelkit.kernels import WassersteinWeisfeilerLehmanKernel
    x = np.random.default_rng(0).normal(size=(20, 3))
    graphs = [(np.zeros((20, 20)), None, None, x + i) for i in range(2000)]
    run = lambda: WassersteinWeisfeilerLehmanKernel(
        node_label=None, node_attributes="attributes", n_jobs=2).fit_transform(graphs)
    """,
}


@pytest.mark.parametrize("loop", sorted(_LONG_LOOPS))
def test_ctrl_c_stops_a_kernel(ctrl_c, loop):
    assert ctrl_c(_LONG_LOOPS[loop]) == ["interrupted"]


def test_ctrl_c_stops_one_weisfeiler_lehman_compression(ctrl_c):
    # one call ranking 6e6 node signatures (the relabelling of a batch of that many nodes):
    # seconds of merge sort before the first code is written. Stopped inside the call, it leaves
    # codes unwritten; a call that ran to its end before Python saw the signal wrote them all.
    setup = """
    import numpy as np
    from kernelkit._core import _wl_relabel
    n = 6_000_000
    signatures = np.random.default_rng(0).integers(0, 5, 5 * n).astype(np.int32)
    sig_ptr = np.arange(0, 5 * n + 1, 5, dtype=np.intp)
    rows, codes = np.arange(n, dtype=np.intp), np.full(n, -1, dtype=np.int32)
    run = lambda: _wl_relabel.compress_signatures(signatures, sig_ptr, rows, codes)
    """
    after = "print('inside' if (codes < 0).any() else 'after')"
    assert ctrl_c(setup, after) == ["interrupted", "inside"]


def test_ctrl_c_stops_one_k_core_decomposition(ctrl_c):
    # one peeling of 6.7e7 adjacency entries: a circulant graph on a random order of 4e6 nodes
    # (neighbours at random places), each edge kept with probability 0.7 (degrees vary, so the
    # peeling moves nodes between buckets): seconds of random reads. Stopped inside the call,
    # it leaves the nodes not yet peeled with their current degree, not their core number; a
    # call that ran to its end before Python saw the signal gives what a second call gives.
    setup = """
    import numpy as np
    from kernelkit._core import _k_core_decomposition
    n, n_shifts = 4_000_000, 12
    rng = np.random.default_rng(0)
    order = rng.permutation(n).astype(np.int32)
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n)
    kept = rng.random((n_shifts, n)) < 0.7

    def ends():  # per shift s: each node's neighbour s places on, then s places back
        for s in range(1, n_shifts + 1):
            yield order[(rank + s) % n], kept[s - 1][rank]
            yield order[(rank - s) % n], kept[s - 1][(rank - s) % n]

    indptr = np.zeros(n + 1, dtype=np.intp)
    np.cumsum(sum(keep.astype(np.intp) for _, keep in ends()), out=indptr[1:])
    indices, slot = np.empty(indptr[-1], dtype=np.int32), indptr[:-1].copy()
    for other, keep in ends():
        indices[slot[keep]] = other[keep]
        slot[keep] += 1
    core = np.empty(n, dtype=np.int32)
    run = lambda: _k_core_decomposition.core_numbers(indptr, indices, core)
    """
    after = """
    again = np.empty(n, dtype=np.int32)
    _k_core_decomposition.core_numbers(indptr, indices, again)
    print('after' if np.array_equal(core, again) else 'inside')
    """
    assert ctrl_c(setup, after) == ["interrupted", "inside"]
