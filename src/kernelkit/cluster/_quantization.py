"""Lloyd's algorithm for a continuous density: optimal quantisation, centroidal Voronoi
tessellations (Peyré, §16.1.2 "Lloyd algorithm and continuous densities", Fig 16.6).

The density is discretised on a grid and the iterations are those of weighted
k-means (:class:`kernelkit.cluster.KMeans` with ``sample_weight``) — no second Lloyd loop.
"""

from numbers import Integral

import numpy as np

from kernelkit.cluster._kmeans import KMeans
from kernelkit.utils._sklearn_compat import Interval, StrOptions, validate_params
from kernelkit.utils._threads import N_JOBS_CONSTRAINT
from kernelkit.utils._validation import MAX_INT, check_distance_scale

__all__ = ["quantize_density"]


@validate_params(
    {
        "density": ["array-like"],
        "grid": ["array-like", tuple, list],
        "n_centers": [Interval(Integral, 1, MAX_INT, closed="left")],
        "init": [StrOptions({"k-means++", "random"}), "array-like"],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
    },
    prefer_skip_nested_validation=True,
)
def quantize_density(density, grid, n_centers, *, init="k-means++", max_iter=300,
                     random_state=None, n_jobs=None):
    """Quantise a density with ``n_centers`` points by Lloyd's algorithm.

    Minimises the quantisation energy
    :math:`\\sum_\\ell \\int_{V_\\ell} \\|x - c_\\ell\\|^2 d\\mu(x)` over the centres :math:`c` and
    the cells :math:`V` by alternating the Voronoi cells
    :math:`V_\\ell = \\{x : \\|x - c_\\ell\\| \\le \\|x - c_{\\ell'}\\|\\}` and the centroid update
    :math:`c_\\ell \\leftarrow \\int_{V_\\ell} x \\, d\\mu / \\int_{V_\\ell} d\\mu` (Peyré,
    §16.1.2). The measure :math:`\\mu` is discretised on a grid: each grid point carries the mass of
    its cell, and the iterations are weighted k-means, whose energy never increases. The fixed
    points are centroidal Voronoi tessellations; for a uniform density in the plane the optimum is
    the hexagonal lattice (the course's Fig 16.6, top), and for a smooth density the centres
    concentrate with density :math:`\\propto \\mu^{d/(d+2)}` (Zador; :math:`\\mu^{1/2}` in the
    plane, Fig 16.6 bottom).

    Parameters
    ----------
    density : array-like
        Non-negative values of the density (or masses) at the grid points: of shape
        ``(n_points,)`` with ``grid`` a ``(n_points, n_features)`` array of points, or of shape
        ``(m_1, ..., m_d)`` (an image) with ``grid`` a tuple of the ``d`` axes' coordinates
        (lengths ``m_1, ..., m_d``), as in ``numpy.meshgrid(*grid, indexing="ij")``. Normalised
        to total mass 1.
    grid : array-like of shape (n_points, n_features), or tuple of 1-D arrays
    n_centers : int
    init : {"k-means++", "random"} or array-like of shape (n_centers, n_features), \
default="k-means++"
        Initial centres, as :class:`KMeans` (drawn with probability proportional to the mass).
    max_iter : int, default=300
        Lloyd iterations at most; the iterations stop when the cells no longer change.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None
        Threads of the k-means core.

    Returns
    -------
    centers : ndarray of shape (n_centers, n_features)
    labels : ndarray of shape (n_points,) or (m_1, ..., m_d)
        The Voronoi cell of every grid point, in the shape of ``density``.
    energy_history : ndarray of shape (n_iter,)
        The quantisation energy :math:`\\sum_i \\mu_i \\|x_i - c_{\\ell(i)}\\|^2` of each assignment
        step: non-increasing.

    See Also
    --------
    KMeans : the same iterations on samples (``sample_weight`` for masses).

    References
    ----------
    Peyré, *Mathematical Foundations of Data Sciences*, ch. 16 / Peyré, *Mathematical Foundations of
    Data Sciences*, ch. 16, §16.1.2, "Lloyd algorithm and continuous densities", Fig 16.6.
    S. Lloyd, "Least squares quantization in PCM", IEEE Trans. Inf. Theory 28(2), 1982.
    Q. Du, V. Faber and M. Gunzburger, "Centroidal Voronoi tessellations: applications and
    algorithms", SIAM Review 41, 1999.

    Examples
    --------
    Four centres for the uniform density of the unit square reach the centres of its quarters:

    >>> import numpy as np
    >>> from kernelkit.cluster import quantize_density
    >>> axis = (np.arange(40) + 0.5) / 40
    >>> centers, labels, energy = quantize_density(np.ones((40, 40)), (axis, axis), 4,
    ...                                            random_state=0)
    >>> np.round(centers[np.lexsort(centers.T[::-1])], 3)
    array([[0.25, 0.25],
           [0.25, 0.75],
           [0.75, 0.25],
           [0.75, 0.75]])
    >>> bool(np.all(np.diff(energy) <= 1e-12)), round(float(energy[-1]), 5)   # (1/2)²/6 − h²/6
    (True, 0.04156)
    """
    density = np.asarray(density, dtype=np.float64)
    if isinstance(grid, (tuple, list)) and all(np.ndim(axis) == 1 for axis in grid):
        axes = [np.asarray(axis, dtype=np.float64) for axis in grid]
        if density.shape != tuple(axis.size for axis in axes):
            raise ValueError(f"density has shape {density.shape} but the grid axes have lengths "
                             f"{tuple(axis.size for axis in axes)}.")
        points = np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")], axis=1)
    else:
        points = np.asarray(grid, dtype=np.float64)
        if points.ndim != 2 or density.shape != (points.shape[0],):
            raise ValueError(f"grid must be (n_points, n_features) with density (n_points,); got "
                             f"{points.shape} and {density.shape}.")
    check_distance_scale(points)
    mass = density.ravel()
    if not np.all(np.isfinite(mass)) or np.any(mass < 0) or not mass.sum() > 0:
        raise ValueError("density must be finite, non-negative and not all zero.")
    kmeans = KMeans(n_centers, init=init, n_init=1, max_iter=max_iter, tol=0.0,
                    random_state=random_state, n_jobs=n_jobs)
    kmeans.fit(points, sample_weight=mass / mass.sum())
    return kmeans.cluster_centers_, kmeans.labels_.reshape(density.shape), kmeans.inertia_history_
