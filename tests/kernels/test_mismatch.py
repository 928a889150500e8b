"""Mismatch kernel: m = 0 is the spectrum kernel; brute force over A^k; p.d."""

import numpy as np
import pytest

from kernelkit import reference
from kernelkit.kernels import MismatchKernel, SpectrumKernel, mismatch_kernel


@pytest.mark.parametrize("k", [1, 3, 5])
def test_zero_mismatches_is_the_spectrum_kernel(make_strings, k):
    X = make_strings(20, 5, 70)
    np.testing.assert_array_equal(MismatchKernel(k=k, m=0).fit_transform(X),
                                  SpectrumKernel(k=k).fit_transform(X))


@pytest.mark.parametrize("algorithm", ["merge", "sparse"])
@pytest.mark.parametrize("alphabet, k, m", [("ACGT", 3, 1), ("ACGT", 4, 2), ("ACGT", 5, 1),
                                            ("AB", 4, 3), ("ACDEFGHIKL", 2, 1)])
def test_equals_brute_force_over_all_kmers(make_strings, algorithm, alphabet, k, m):
    X, Y = make_strings(8, k, 25, alphabet), make_strings(3, 1, 25, alphabet)
    est = MismatchKernel(k=k, m=m, alphabet=alphabet, algorithm=algorithm)
    np.testing.assert_array_equal(
        est.fit_transform(X), reference.mismatch_kernel(X, k=k, m=m, alphabet=alphabet))
    np.testing.assert_array_equal(
        est.fit(X).transform(Y), reference.mismatch_kernel(Y, X, k=k, m=m, alphabet=alphabet))


def test_one_window_ball_sizes():
    # a single k-mer matches C(k, j)(|A| − 1)^j k-mers at distance j
    K = mismatch_kernel(["ACG"], k=3, m=1, alphabet="dna")
    assert K[0, 0] == 1 + 3 * 3
    K = mismatch_kernel(["ACG"], k=3, m=2, alphabet="dna")
    assert K[0, 0] == 1 + 3 * 3 + 3 * 9


def test_m_must_be_smaller_than_k():
    with pytest.raises(ValueError, match="m=3 must be smaller than k=3"):
        MismatchKernel(k=3, m=3).fit(["ACGT"])
    with pytest.raises(ValueError, match="'m' parameter"):
        MismatchKernel(k=3, m=-1).fit(["ACGT"])


def test_real_dna_gram_is_psd(shared_data):
    import csv

    with open(shared_data / "uci_splice" / "splice.csv") as f:
        rows = list(csv.reader(f))[1:]
    X = [r[2].strip() for r in rows[:300]]
    K = MismatchKernel(k=5, m=1, alphabet="ACGTNDRS", normalize=True).fit_transform(X)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K)[0] >= -1e-8 * np.trace(K)


def test_promoters_are_learnable_with_spectrum_and_mismatch_kernels(shared_data):
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC

    lines = (shared_data / "uci_promoters" / "promoters.data").read_text().splitlines()
    rows = [line.split(",") for line in lines if line.strip()]
    X = [r[2].strip() for r in rows]
    y = np.array([r[0].strip() == "+" for r in rows], dtype=int)
    assert len(X) == 106 and y.sum() == 53
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    for kernel in (SpectrumKernel(k=3, alphabet="acgt", normalize=True),
                   MismatchKernel(k=5, m=1, alphabet="acgt", normalize=True)):
        pipe = make_pipeline(kernel, SVC(kernel="precomputed"))
        # balanced classes: chance is 0.5
        assert cross_val_score(pipe, X, y, cv=cv).mean() > 0.8
