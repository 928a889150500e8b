"""Lloyd's algorithm for continuous densities (coverage entry B4) on a discretised density."""

import numpy as np
import pytest

from kernelkit.cluster import KMeans, quantize_density


def test_energy_never_increases_and_cells_are_voronoi(random_seed):
    axis = (np.arange(60) + 0.5) / 60
    X, Y = np.meshgrid(axis, axis, indexing="ij")
    density = np.exp(-((X - 0.4) ** 2 + (Y - 0.5) ** 2) / 0.05) + 0.1
    centers, labels, energy = quantize_density(density, (axis, axis), 12,
                                               random_state=random_seed)
    assert np.all(np.diff(energy) <= 1e-12 * energy[0])
    points = np.stack([X.ravel(), Y.ravel()], axis=1)
    squared = ((points[:, None, :] - centers[None]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(labels.ravel(), np.argmin(squared, axis=1))
    # at the fixed point each centre is the centroid of the mass of its cell (seed's update)
    mass = density.ravel() / density.sum()
    for c in range(12):
        cell = labels.ravel() == c
        np.testing.assert_allclose(centers[c], mass[cell] @ points[cell] / mass[cell].sum(),
                                   atol=1e-9)
    assert energy[-1] == pytest.approx(mass @ squared.min(axis=1), rel=1e-9)


def test_integer_weights_equal_replicated_points(rng):
    points = rng.uniform(size=(80, 2))
    counts = rng.integers(1, 4, size=80)
    init = points[:5].copy()
    centers, _, _ = quantize_density(counts, points, 5, init=init)
    replicated = KMeans(5, init=init, tol=0.0).fit(np.repeat(points, counts, axis=0))
    np.testing.assert_allclose(centers, replicated.cluster_centers_, atol=1e-12)


def test_uniform_square_gives_its_quarters():
    axis = (np.arange(40) + 0.5) / 40
    centers, labels, _ = quantize_density(np.ones((40, 40)), (axis, axis), 4, random_state=0)
    np.testing.assert_allclose(np.sort(centers, axis=0), [[0.25, 0.25]] * 2 + [[0.75, 0.75]] * 2)
    assert labels.shape == (40, 40)
    np.testing.assert_array_equal(np.bincount(labels.ravel()), [400] * 4)


def test_bad_input():
    with pytest.raises(ValueError, match="non-negative"):
        quantize_density(np.array([1.0, -1.0]), np.zeros((2, 1)), 1)
    with pytest.raises(ValueError, match="axes"):
        quantize_density(np.ones((3, 4)), (np.arange(3.0), np.arange(3.0)), 2)
    with pytest.raises(ValueError, match="overflow float64"):
        quantize_density(np.ones(2), np.array([[0.0], [1e200]]), 1)
    with pytest.raises(ValueError, match="n_points"):
        quantize_density(np.ones(3), np.zeros((4, 2)), 2)
