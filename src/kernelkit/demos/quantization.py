"""Lloyd's algorithm on continuous densities (Peyré, Fig 16.6).

The uniform density gives hexagonal cells; a bump attracts centres as the density to the 1/2.
"""

import numpy as np

N_CENTERS = 40
GRID = 160


def _report(name, energy):
    steps = ", ".join(f"{e:.5f}" for e in energy[[0, 1, 2, len(energy) // 2, -1]])
    print(f"  {name}: {len(energy)} Lloyd iterations, energy {steps} (never increases: "
          f"{bool(np.all(np.diff(energy) <= 1e-12))})")


def main():
    from scipy.spatial import Delaunay

    from kernelkit.cluster import quantize_density

    axis = (np.arange(GRID) + 0.5) / GRID
    print(f"{N_CENTERS} centres on a {GRID}×{GRID} grid of the unit square")

    # top of Fig 16.6: the uniform density — the optimum is the hexagonal lattice
    centers, _, energy = quantize_density(np.ones((GRID, GRID)), (axis, axis), N_CENTERS,
                                          random_state=0)
    _report("uniform", energy)
    indptr, _ = Delaunay(centers).vertex_neighbor_vertices
    neighbours = np.diff(indptr)
    interior = np.all((centers > 0.2) & (centers < 0.8), axis=1)
    hexagon = 5 / (36 * np.sqrt(3))     # normalised second moment of the regular hexagon
    print(f"  interior centres with 6 Voronoi neighbours: {np.mean(neighbours[interior] == 6):.0%}"
          f" of {interior.sum()}; energy {energy[-1]:.5f} vs {2 * hexagon / N_CENTERS:.5f} for "
          "ideal hexagonal cells (the boundary costs the difference)")

    # bottom of Fig 16.6: a non-uniform density — cells shrink where the mass is
    X, Y = np.meshgrid(axis, axis, indexing="ij")
    density = np.exp(-((X - 0.3) ** 2 + (Y - 0.6) ** 2) / (2 * 0.15**2)) + 0.05
    centers, labels, energy = quantize_density(density, (axis, axis), N_CENTERS, random_state=0)
    _report("Gaussian bump", energy)
    # Zador/Gersho: optimal centres have density ∝ μ^{d/(d+2)} = μ^{1/2} in the plane
    near = np.hypot(centers[:, 0] - 0.3, centers[:, 1] - 0.6) < 0.2
    inside = np.hypot(X - 0.3, Y - 0.6) < 0.2
    predicted = np.sqrt(density)[inside].sum() / np.sqrt(density).sum()
    mass = density[inside].sum() / density.sum()
    print(f"  centres within 0.2 of the bump: {near.mean():.0%}; predicted by μ^(1/2): "
          f"{predicted:.0%} (the mass there is {mass:.0%}); {np.unique(labels).size} cells")


if __name__ == "__main__":
    main()
