"""Random projections and the Johnson–Lindenstrauss bounds."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import pdist

from kernelkit.decomposition import (
    GaussianRandomProjection,
    SparseRandomProjection,
    johnson_lindenstrauss_min_dim,
)


def test_min_dim_formulas():
    n, eps = np.array([10, 1000, 10**6]), np.array([0.05, 0.1, 0.5])
    dg = 4 * np.log(n) / (eps**2 / 2 - eps**3 / 3)
    np.testing.assert_array_equal(johnson_lindenstrauss_min_dim(n, eps=eps), np.ceil(dg))
    seed = 16 / eps**2 * np.log(n / np.sqrt(0.1))
    np.testing.assert_array_equal(johnson_lindenstrauss_min_dim(n, eps=eps, delta=0.1),
                                  np.ceil(seed))
    # Corollary 69: δ = 1 gives 16 ε⁻² log n.
    assert johnson_lindenstrauss_min_dim(100, eps=0.5, delta=1.0) == np.ceil(64 * np.log(100))


def test_min_dim_vs_scikit_learn():
    random_projection = pytest.importorskip("sklearn.random_projection")
    for n in (5, 100, 12345):
        for eps in (0.05, 0.3, 0.9):
            theirs = random_projection.johnson_lindenstrauss_min_dim(n, eps=eps)
            ours = johnson_lindenstrauss_min_dim(n, eps=eps)
            # scikit-learn truncates the same bound; we round up.
            assert ours - theirs in (0, 1)


@pytest.mark.parametrize("Projection", [GaussianRandomProjection, SparseRandomProjection])
def test_pairwise_distances_within_eps_at_the_bound(Projection):
    # Seed 003 Fig. 3.2 set-up: 50 points uniform in [0, 1]^10000.
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(50, 10000))
    eps = 0.3
    # "auto" (Dasgupta–Gupta) only bounds the expected failure; Sangnier Theorem 68's dimension
    # guarantees the ε-isometry with probability 1 − δ.
    auto = Projection(eps=eps, random_state=0).fit(X)
    assert auto.n_components_ == johnson_lindenstrauss_min_dim(50, eps=eps)
    p = int(johnson_lindenstrauss_min_dim(50, eps=eps, delta=0.1))
    ratio = pdist(Projection(n_components=p, random_state=0).fit_transform(X)) ** 2
    ratio /= pdist(X) ** 2
    assert np.all((1 - eps <= ratio) & (ratio <= 1 + eps))


def test_norm_preserved_in_expectation():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(1, 500))
    for Projection in (GaussianRandomProjection, SparseRandomProjection):
        norms = [np.sum(Projection(n_components=50, random_state=s).fit(x).transform(x) ** 2)
                 for s in range(200)]
        # Mean of 200 draws, each ‖x‖² χ²_50/50-like: sd of the mean ≈ ‖x‖²·0.2/√200·…
        assert np.mean(norms) == pytest.approx(np.sum(x**2), rel=0.05)


def test_sparse_components_and_sparse_input_kept_sparse(rng):
    X = sp.random(30, 2000, density=0.02, format="csr", random_state=0)
    proj = SparseRandomProjection(n_components=200, density=1 / 3, random_state=0).fit(X)
    W = proj.components_
    assert sp.issparse(W) and W.shape == (200, 2000)
    assert W.nnz / (200 * 2000) == pytest.approx(1 / 3, rel=0.02)
    assert set(np.unique(np.round(W.data * np.sqrt(200 / 3), 12))) == {-1.0, 1.0}
    assert sp.issparse(proj.transform(X))
    dense = SparseRandomProjection(n_components=200, density=1 / 3, random_state=0,
                                   dense_output=True).fit(X)
    np.testing.assert_allclose(dense.transform(X), proj.transform(X).toarray())
    assert SparseRandomProjection(n_components=10, random_state=0).fit(X).density_ == \
        pytest.approx(1 / np.sqrt(2000))
    assert isinstance(GaussianRandomProjection(n_components=5, random_state=0).fit(X)
                      .transform(X), np.ndarray)


def test_same_seed_same_projection(rng):
    X = rng.normal(size=(5, 100))
    a = GaussianRandomProjection(n_components=7, random_state=3).fit_transform(X)
    b = GaussianRandomProjection(n_components=7, random_state=3).fit_transform(X)
    np.testing.assert_array_equal(a, b)


def test_bad_input(rng):
    with pytest.raises(ValueError, match="more than n_features"):
        GaussianRandomProjection(eps=0.1).fit(rng.normal(size=(100, 50)))
    with pytest.raises(ValueError, match="eps"):
        johnson_lindenstrauss_min_dim(10, eps=1.5)
    with pytest.raises(ValueError, match="n_samples"):
        johnson_lindenstrauss_min_dim(0)
    with pytest.raises(ValueError, match="density"):
        SparseRandomProjection(n_components=2, density=0.0).fit(rng.normal(size=(3, 4)))
    with pytest.raises(ValueError, match="features"):
        GaussianRandomProjection(n_components=2).fit(np.ones((3, 4))).transform(np.ones((3, 5)))


@pytest.mark.parametrize("model", [GaussianRandomProjection(3, random_state=0),
                                   SparseRandomProjection(3, random_state=0)],
                         ids=lambda model: type(model).__name__)
def test_projections_that_overflow_are_refused(model):
    X = np.random.default_rng(0).normal(size=(10, 5))
    W = model.fit(X).components_
    W = W.toarray() if sp.issparse(W) else W
    # a row aligned with the signs of the heaviest component: x·w = 1.7e308 Σ|w| overflows
    component = np.argmax(np.abs(W).sum(axis=1))
    assert np.abs(W[component]).sum() > 1.1
    with pytest.raises(ValueError, match="overflows float64"):
        model.transform(1.7e308 * np.sign(W[component])[None, :])


def test_malformed_sparse_X_is_refused(sparse_inputs):
    """Inconsistent index arrays are refused before scipy's conversions and products read
    them."""
    sparse_inputs.assert_refused("""
        from kernelkit.decomposition import GaussianRandomProjection, SparseRandomProjection
        Z = sp.random(20, 30, density=0.3, format="csr", random_state=0)
        gaussian = GaussianRandomProjection(5, random_state=0).fit(Z)
        sparse = SparseRandomProjection(5, random_state=0).fit(Z)
        def make():
            return Z.copy()
        """, ["GaussianRandomProjection(5, random_state=0).fit(X)", "gaussian.transform(X)",
              "sparse.transform(X)"])


@pytest.mark.parametrize("Projection", [GaussianRandomProjection, SparseRandomProjection])
def test_every_sparse_layout_gives_the_projection_of_the_csr_matrix(Projection, sparse_inputs):
    X = sp.random(20, 30, density=0.3, format="csr", random_state=0)
    model = Projection(5, random_state=0).fit(X)

    def projected(Z):
        out = model.transform(Z)
        return out.toarray() if sp.issparse(out) else out
    for case, given in sparse_inputs.equivalent(X):
        np.testing.assert_allclose(projected(given), projected(X), rtol=1e-12, atol=1e-12,
                                   err_msg=case)
