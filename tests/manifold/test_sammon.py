"""Sammon mapping by weighted SMACOF."""

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform

from kernelkit.manifold import SammonMapping
from kernelkit.reference import smacof as reference


def _sammon_stress(D, Z):
    iu = np.triu_indices(D.shape[0], k=1)
    d, delta = D[iu], squareform(pdist(Z))[iu]
    return ((d - delta) ** 2 / d).sum() / d.sum()


def test_stress_non_increasing_and_matches_definition(rng):
    X = rng.normal(size=(60, 5))
    sammon = SammonMapping(init="random", random_state=0, eps=1e-10, max_iter=500).fit(X)
    history = sammon.stress_history_
    assert np.all(np.diff(history) <= 1e-12 * history[0])
    assert history[-1] < 0.5 * history[0]
    D = squareform(pdist(X))
    assert sammon.stress_ == pytest.approx(_sammon_stress(D, sammon.embedding_), rel=1e-10)


def test_matches_weighted_reference(rng):
    X = rng.normal(size=(30, 4))
    D = squareform(pdist(X))
    Z0 = rng.normal(size=(30, 2))
    with np.errstate(divide="ignore"):
        W = np.where(D > 0, 1.0 / D, 0.0)
    Z_ref, _ = reference.smacof(D, Z0, weights=W, max_iter=15, eps=0.0)
    with pytest.warns(Warning, match="did not converge"):
        Z = SammonMapping(init=Z0, max_iter=15, eps=0.0).fit_transform(X)
    np.testing.assert_allclose(Z, Z_ref, rtol=1e-10, atol=1e-10)


def test_zero_stress_on_embeddable_data_and_duplicates(rng):
    X = rng.normal(size=(30, 2))
    X = np.vstack([X, X[:3]])  # duplicates: D_ij = 0 pairs are left out
    sammon = SammonMapping(n_components=2).fit(X)
    assert sammon.stress_ < 1e-12
    np.testing.assert_allclose(sammon.embedding_[-3:], sammon.embedding_[:3], atol=1e-8)


def test_bad_input():
    with pytest.raises(ValueError, match="unconnected"):
        SammonMapping(n_components=1, dissimilarity="precomputed").fit(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="n_components"):
        SammonMapping(n_components=3).fit(np.eye(3))


def test_verbose_prints_one_line_and_changes_nothing(capsys):
    X = np.random.default_rng(0).normal(size=(60, 5))
    quiet = SammonMapping(max_iter=50).fit(X)
    assert capsys.readouterr().err == ""
    loud = SammonMapping(max_iter=50, verbose=1).fit(X)
    np.testing.assert_array_equal(quiet.embedding_, loud.embedding_)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("[SammonMapping] init 1 of 1: stress ")
    assert f", {quiet.n_iter_} iterations, " in lines[0]


def test_sammon_mapping_of_tiny_distances():
    # weights 1/D of 1e160 rounded away the 11ᵀ/n term of the weighted SMACOF solver and the
    # Cholesky factorisation raised numpy's LinAlgError; Sammon's stress is scale-invariant
    X = np.random.default_rng(0).normal(size=(15, 3))
    expected = SammonMapping(random_state=0).fit(X)
    model = SammonMapping(random_state=0).fit(X * 1e-160)
    assert np.isfinite(model.embedding_).all()
    # same stress up to the stopping rule's tolerance
    np.testing.assert_allclose(model.stress_, expected.stress_, rtol=1e-2)
