"""k-medoids written for reading: FasterPAM, BUILD, assignment, in-cluster costs, k-medians'
ℓ1 assignment. Twin of ``kernelkit._core._kmedoids``, ``_fasterpam`` and ``_dissimilarity_check``
(same entry points and arguments).

Sangnier, §2.2.2 (k-medoids, k-median); Schubert & Rousseeuw 2021 (FasterPAM); Kaufman &
Rousseeuw 1987 (PAM's BUILD). Dissimilarities are whole matrices here: ``D[j, o]`` given, or
computed from ``X`` by direct differences (metric 0: Euclidean, 1: squared Euclidean).
"""

import numpy as np

__all__ = [
    "assign_medoids",
    "build_medoids",
    "cluster_medians",
    "dissimilarity_range",
    "distance_matrix",
    "fasterpam",
    "in_cluster_costs",
    "manhattan_assign",
]

PRECOMPUTED, EUCLIDEAN, SQEUCLIDEAN = -1, 0, 1


def distance_matrix(X, sqnorms, metric, out, n_threads=1):
    """``out[j, o] = ‖x_j − x_o‖`` (metric 0) or its square (metric 1); ``sqnorms`` and
    ``n_threads`` are accepted for the common signature."""
    squared = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    out[...] = np.sqrt(squared) if metric == EUCLIDEAN else squared


def _matrix(D, X, metric):
    if metric == PRECOMPUTED:
        return np.asarray(D, dtype=np.float64)
    out = np.empty((X.shape[0], X.shape[0]))
    distance_matrix(X, None, metric, out)
    return out


def _nearest_two(D, medoids):
    """Nearest and second-nearest medoid slot of every sample (a medoid is its own nearest)."""
    rows = D[medoids]                                   # (k, n)
    n = D.shape[0]
    near_i, near_d = np.zeros(n, dtype=np.int64), rows[0].copy()
    seco_i, seco_d = np.full(n, -1), np.full(n, np.inf)
    for m in range(1, len(medoids)):
        d = rows[m]
        closer = (d < near_d) | (np.arange(n) == medoids[m])
        second = ~closer & (d < seco_d)
        seco_i = np.where(closer, near_i, np.where(second, m, seco_i))
        seco_d = np.where(closer, near_d, np.where(second, d, seco_d))
        near_i = np.where(closer, m, near_i)
        near_d = np.where(closer, d, near_d)
    return near_i, near_d, seco_i, seco_d


def fasterpam(D, X, sqnorms, metric, medoids, labels, distances, history, max_iter,
              n_threads=1):
    """FasterPAM (eager swaps, Schubert & Rousseeuw 2021): same arguments, outputs and return
    ``(loss, n_iter, n_swaps)`` as the compiled entry; ``n_threads`` is ignored."""
    D = _matrix(D, X, metric)
    n, k = D.shape[0], len(medoids)
    if k == 1:
        medoids[0] = int(np.argmin(D.sum(axis=1)))
        loss = assign_medoids(D, X, sqnorms, PRECOMPUTED, medoids, labels, distances)
        if max_iter > 0:
            history[0] = loss
        return loss, 1, 0
    near_i, near_d, seco_i, seco_d = _nearest_two(D, medoids)
    loss = float(near_d.sum())
    n_iter = n_swaps = 0
    last_swap = n
    for it in range(max_iter):
        history[it] = loss
        n_iter = it + 1
        swaps_before, last_loss = n_swaps, loss
        for c in range(n):
            if c == last_swap:
                break
            if medoids[near_i[c]] == c:
                continue
            # removal loss of each medoid, then the FasterPAM adjustments for candidate c
            removal = np.bincount(near_i, weights=seco_d - near_d, minlength=k)
            d = D[c]
            closer = d < near_d
            between = ~closer & (d < seco_d)
            np.add.at(removal, near_i[closer], near_d[closer] - seco_d[closer])
            np.add.at(removal, near_i[between], d[between] - seco_d[between])
            best = int(np.argmin(removal))
            change = removal[best] + float((d[closer] - near_d[closer]).sum())
            if change >= 0:
                continue
            medoids[best] = c
            near_i, near_d, seco_i, seco_d = _nearest_two(D, medoids)
            loss = float(near_d.sum())
            n_swaps += 1
            last_swap = c
        if n_swaps == swaps_before or loss >= last_loss:
            break
    labels[:] = near_i
    distances[:] = near_d
    return loss, n_iter, n_swaps


def assign_medoids(D, X, sqnorms, metric, medoids, labels, distances, n_threads=1):
    """Nearest medoid of every sample into ``labels``/``distances``; returns the loss."""
    near_i, near_d, _, _ = _nearest_two(_matrix(D, X, metric), np.asarray(medoids))
    labels[:] = near_i
    distances[:] = near_d
    return float(near_d.sum())


def build_medoids(D, X, sqnorms, metric, medoids, n_threads=1):
    r"""PAM's BUILD: each medoid in turn minimises :math:`\sum_o \min(d_n(o), d(c, o))`, lowest
    index on ties."""
    D = _matrix(D, X, metric)
    near = np.full(D.shape[0], np.inf)
    for t in range(len(medoids)):
        totals = np.minimum(D, near[None, :]).sum(axis=1)
        totals[np.asarray(medoids[:t], dtype=np.intp)] = np.inf
        medoids[t] = int(np.argmin(totals))
        near = np.minimum(near, D[medoids[t]])


def in_cluster_costs(D, X, order, offsets, metric, costs, n_threads=1):
    """``costs[p] = Σ_{q in p's cluster} d(order[p], order[q])`` (grouped positions; with a
    vector metric ``X`` is already grouped)."""
    for c in range(len(offsets) - 1):
        members = np.arange(offsets[c], offsets[c + 1])
        if metric == PRECOMPUTED:
            block = np.asarray(D, dtype=np.float64)[np.ix_(order[members], order[members])]
        else:
            block = np.empty((members.size, members.size))
            distance_matrix(X[members], None, metric, block)
        costs[members] = block.sum(axis=1)


def dissimilarity_range(D, n_threads=1):
    """``(min, all finite)`` of ``D``."""
    D = np.asarray(D, dtype=np.float64)
    if D.size == 0:
        return 0.0, True
    return float(np.min(D)), bool(np.all(np.isfinite(D)))


def manhattan_assign(X, centers, labels, distances, n_threads=1, min_work_per_thread=0.0):
    r"""Nearest centre in ℓ1 (lowest index on ties); returns
    :math:`\sum_i \|x_i - c_{\mathrm{label}_i}\|_1`."""
    l1 = np.abs(X[:, None, :] - centers[None, :, :]).sum(axis=2)
    labels[:] = np.argmin(l1, axis=1)
    distances[:] = l1[np.arange(X.shape[0]), labels]
    return float(distances.sum())


def cluster_medians(X, order, offsets, centers, n_threads=1, min_work_per_thread=0.0):
    """``numpy.median`` of every cluster's samples ``X[order[offsets[c]:offsets[c + 1]]]``,
    feature by feature."""
    for c in range(len(offsets) - 1):
        centers[c] = np.median(X[order[offsets[c]:offsets[c + 1]]], axis=0)
