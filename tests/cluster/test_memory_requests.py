"""Clustering parameters whose buffers outgrow memory are refused up front, by name."""

import numpy as np
import pytest

from kernelkit.cluster import KMedoids

X = np.random.default_rng(0).normal(size=(20, 2))


def test_a_pam_loss_history_larger_than_memory_is_refused():
    with pytest.raises(ValueError, match=r"KMedoids\(max_iter=10{15}\) loss history would need "
                                         r"about .*TiB.*lower max_iter"):
        KMedoids(3, method="pam", max_iter=10**15, random_state=0).fit(X)
