"""String and graph kernels whose feature space or work space outgrows memory are refused up
front, with the estimate and the parameter to lower."""

import numpy as np
import pytest
import scipy.sparse as sp

from kernelkit.kernels import (
    MismatchKernel,
    ShortestPathKernel,
    SubstringKernel,
    WeisfeilerLehmanKernel,
)

PROTEINS_8 = ["MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVK",
              "MSDNGPQNQRNAPRITFGGPSDSTGSNQNGERSGARSKQRRPQGLPNNTASWFTALTQ",
              "MADQLTEEQIAEFKEAFSLFDKDGDGTITTKELGTVMRSLGQNPTEAELQDMINEVDA",
              "MVLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKG",
              "MGLSDGEWQQVLNVWGKVEADIAGHGQEVLIRLFTGHPETLEKFDKFKHLKTEAEMKA",
              "MKALIVLGLVLLSVTVQGKVFERCELARTLKRLGMDGYRGISLANWMCLAKWESGYNT",
              "MRPSGTAGAALLALLAALCPASRALEEKKVCQGTSNKLTQLGTFEDHFLSLQRMFNNC",
              "MNIFEMLRIDEGLRLKIYKDTEGYYTIGIGHLLTKSPSLNAAKSELDKAIGRNTNGVI"]


def test_mismatch_balls_larger_than_memory_are_refused():
    # 1 000 windows × 6.5·10⁸ k-mers per radius-5 ball: tens of TiB
    with pytest.raises(ValueError, match=r"k=10, m=5 of 200 sequences \(1000 windows × "
                                         r"652183874 k-mers .*TiB of memory.*lower m or k"):
        MismatchKernel(k=10, m=5, alphabet="protein").fit(["ACDEFGHIKLMNPQ"] * 200)


def test_mismatch_k12_m3_under_an_address_space_limit_is_refused(under_address_limit):
    # 8 proteins of ≤ 60 letters, 1.5·10⁶ k-mers per ball: 22 GiB at its peak, accepted by a
    # bound of physical memory alone, then killed or a MemoryError after 47 s under ulimit -v 5G
    result = under_address_limit(
        f"from kernelkit.kernels import MismatchKernel\nproteins = {PROTEINS_8!r}",
        "MismatchKernel(k=12, m=3).fit(proteins)\nprint('fitted')",
        headroom=4 << 30)
    assert result.returncode == 0, result.stderr
    assert "ValueError: the k-mer spectra with k=12, m=3 of 8 sequences" in result.stdout
    assert "1533035 k-mers" in result.stdout and "RLIMIT_AS" in result.stdout
    assert "fitted" not in result.stdout


def test_shortest_paths_of_a_huge_graph_are_refused():
    n = 10**6
    path = sp.diags_array([np.ones(n - 1), np.ones(n - 1)], offsets=[-1, 1], format="csr")
    # a key and a count for each of the 10¹² ordered node pairs
    with pytest.raises(ValueError, match=r"graphs of up to 1000000 nodes would need .* TiB"):
        ShortestPathKernel().fit([(path, [0] * n)])


def test_substring_dp_rows_larger_than_memory_are_refused():
    long = "AC" * 500_000
    # k · (longest + 1) doubles per thread: 8 TB for k = 10⁶
    with pytest.raises(ValueError, match=r"SubstringKernel\(k=1000000\) on sequences of up to "
                                         r"1000000 letters .*TiB of memory.*lower k"):
        SubstringKernel(k=1_000_000, n_jobs=1).fit_transform([long])
    SubstringKernel(k=3, n_jobs=1).fit_transform([long[:200]])


def test_weisfeiler_lehman_iterations_larger_than_memory_are_refused_before_relabelling():
    triangle = (np.ones((3, 3)) - np.eye(3), [0, 1, 1])
    with pytest.raises(ValueError, match=r"WeisfeilerLehmanKernel\(n_iter=1000000000000\) on "
                                         r"graphs of 3 nodes in all.*TiB of memory.*lower n_iter"):
        WeisfeilerLehmanKernel(n_iter=10**12).fit([triangle])


def test_a_mismatch_ball_beyond_the_float_range_is_refused_not_overflowing():
    with pytest.raises(ValueError, match=r"about 10\^468 k-mers .* more than 1e308 bytes of "
                                         r"memory"):
        MismatchKernel(k=500, m=250).fit(["ACDEFGHIKLMNPQRSTVWY" * 30])
