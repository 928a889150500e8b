"""Lloyd's k-means, written for reading (Sangnier, Algorithm 9). Twin of
``kernelkit.cluster._kmeans.kmeans_lloyd`` (which drives ``kernelkit._core._kmeans_lloyd``)."""

import numpy as np


def _new_centers(X, w, centers, labels):
    """Weighted cluster means; an empty cluster takes the sample farthest from its centre."""
    sums = np.zeros_like(centers)
    weights = np.zeros(centers.shape[0])
    for i in range(X.shape[0]):
        sums[labels[i]] += w[i] * X[i]
        weights[labels[i]] += w[i]
    empty = np.flatnonzero(weights == 0)
    if empty.size:
        dist = ((X - centers[labels]) ** 2).sum(axis=1)
        far = np.argsort(-dist, kind="stable")[: empty.size]
        for cluster, i in zip(empty, far):
            sums[labels[i]] -= w[i] * X[i]
            weights[labels[i]] -= w[i]
            sums[cluster] = w[i] * X[i]
            weights[cluster] = w[i]
    return sums / weights[:, None]


def kmeans_lloyd(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None):
    """Lloyd iterations from ``centers_init``; returns ``(centers, labels, inertia, n_iter,
    objective_history)`` with the conventions of the compiled version (ties to the lowest
    index, empty cluster takes the farthest sample, stop on stable labels or shift ≤ tol)."""
    X = np.asarray(X, dtype=np.float64)
    n_samples = X.shape[0]
    w = np.ones(n_samples) if sample_weight is None else np.asarray(sample_weight, float)
    centers = np.array(centers_init, dtype=np.float64)

    def assign(n_iter, centers):
        # squared distance of every sample to every centre, directly
        d2 = np.stack([((X - c) ** 2).sum(axis=1) for c in centers], axis=1)
        return np.argmin(d2, axis=1)  # argmin keeps the first (lowest) index on ties

    return _bounded_run(X, w, centers, max_iter, tol, assign, lambda shifts, labels: None)


def _bounded_run(X, w, centers, max_iter, tol, assign, move):
    """The loop of the twins: ``assign(n_iter, centers)`` returns the labels (bounds, if any,
    kept by the caller), ``move(shifts, labels)`` widens the bounds after the centres moved by
    ``shifts``. Stops on stable labels or a summed squared shift ≤ tol, then re-assigns."""
    labels_old = np.full(X.shape[0], -1)
    history = []
    stable = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        labels = assign(n_iter, centers)
        history.append(float(w @ ((X - centers[labels]) ** 2).sum(axis=1)))
        new_centers = _new_centers(X, w, centers, labels)
        shift = ((new_centers - centers) ** 2).sum()
        move(np.sqrt(((new_centers - centers) ** 2).sum(axis=1)), labels)
        centers = new_centers
        if np.array_equal(labels, labels_old):
            stable = True
            break
        if shift <= tol:
            break
        labels_old = labels.copy()
    if not stable:
        labels = np.argmin(((X[:, None, :] - centers[None, :, :]) ** 2).sum(-1), axis=1)
    inertia = float(w @ ((X - centers[labels]) ** 2).sum(axis=1))
    return centers, labels, inertia, n_iter, np.asarray(history)


def kmeans_elkan(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None, margin=1e-12):
    r"""Elkan's accelerated k-means (Elkan, ICML 2003): the iterations of :func:`kmeans_lloyd`,
    skipping the distances that the triangle inequality proves irrelevant. Twin of
    ``kernelkit.cluster._kmeans.kmeans_lloyd(..., algorithm="elkan")``; same return values.

    Each sample keeps an upper bound ``u`` of its distance to its centre and a lower bound ``l[j]``
    to every centre ``j``. After the centres move by ``p[j]``, ``u += p[label]`` and ``l[j] -=
    p[j]``. Centre ``j`` cannot win if ``u < l[j]`` or :math:`u < \|c_\mathrm{label} - c_j\| / 2`.
    Every test keeps a relative ``margin`` so that rounding cannot turn a near tie the other way:
    the labels are those of Lloyd's rule (nearest centre, lowest index on ties).
    """
    X = np.asarray(X, dtype=np.float64)
    n_samples = X.shape[0]
    w = np.ones(n_samples) if sample_weight is None else np.asarray(sample_weight, float)
    centers = np.array(centers_init, dtype=np.float64)
    k = centers.shape[0]
    grow, shrink = 1.0 + margin, 1.0 - margin
    # first step: all distances (the bounds start tight); squared distances decide, as in Lloyd
    d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
    labels = np.argmin(d2, axis=1)
    lower = np.sqrt(d2) * shrink
    upper = np.sqrt(d2[np.arange(n_samples), labels]) * grow

    def assign(n_iter, centers):
        if n_iter == 1:
            return labels
        half = 0.5 * np.sqrt(((centers[:, None, :] - centers[None, :, :]) ** 2).sum(-1))
        half *= shrink
        for i in range(n_samples):
            a, tight = labels[i], False
            for j in range(k):
                if j == a or upper[i] < half[a, j] or upper[i] * grow < lower[i, j] * shrink:
                    continue  # centre j is provably farther than centre a
                if not tight:
                    d_a = float(((X[i] - centers[a]) ** 2).sum())
                    upper[i], lower[i, a] = np.sqrt(d_a) * grow, np.sqrt(d_a) * shrink
                    tight = True
                    if upper[i] < half[a, j] or upper[i] * grow < lower[i, j] * shrink:
                        continue
                d_j = float(((X[i] - centers[j]) ** 2).sum())
                lower[i, j] = np.sqrt(d_j) * shrink
                if d_j < d_a or (d_j == d_a and j < a):
                    a, d_a, upper[i] = j, d_j, np.sqrt(d_j) * grow
            labels[i] = a
        return labels

    def move(shifts, labels):
        # the triangle inequality moves the bounds by the centres' shifts
        upper[:] = (upper + shifts[labels] * grow) * grow
        lower[:] = np.maximum((lower - shifts[None, :] * grow) * shrink, 0.0)

    return _bounded_run(X, w, centers, max_iter, tol, assign, move)


def kmeans_hamerly(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None, margin=1e-12):
    r"""Hamerly's accelerated k-means (Hamerly, SDM 2010): each sample keeps an upper bound ``u``
    of its distance to its centre and one lower bound ``l`` to all the others; it is re-assigned
    only when :math:`u \ge \max(l, s(\mathrm{label}))`, :math:`s(a)` half the distance from centre
    ``a`` to its nearest other centre. Twin of ``kmeans_lloyd(..., algorithm="hamerly")`` of
    ``kernelkit.cluster._kmeans``; the margins and return values are those of
    :func:`kmeans_elkan`."""
    X = np.asarray(X, dtype=np.float64)
    n_samples = X.shape[0]
    w = np.ones(n_samples) if sample_weight is None else np.asarray(sample_weight, float)
    centers = np.array(centers_init, dtype=np.float64)
    grow, shrink = 1.0 + margin, 1.0 - margin
    labels = np.zeros(n_samples, dtype=np.intp)
    upper = np.empty(n_samples)
    second = np.empty(n_samples)

    def reassign(i, centers):
        """Lloyd's rule for sample i, with its two bounds."""
        d2 = ((X[i] - centers) ** 2).sum(axis=1)
        labels[i] = int(np.argmin(d2))
        upper[i] = np.sqrt(d2[labels[i]]) * grow
        others = np.delete(d2, labels[i])
        second[i] = np.sqrt(others.min()) * shrink if others.size else np.inf

    def assign(n_iter, centers):
        if n_iter == 1:
            for i in range(n_samples):
                reassign(i, centers)
            return labels
        half = 0.5 * np.sqrt(((centers[:, None, :] - centers[None, :, :]) ** 2).sum(-1))
        np.fill_diagonal(half, np.inf)
        nearest_half = half.min(axis=1) * shrink
        for i in range(n_samples):
            a = labels[i]
            if upper[i] < nearest_half[a] or upper[i] * grow < second[i] * shrink:
                continue  # every other centre is provably farther
            upper[i] = np.sqrt(((X[i] - centers[a]) ** 2).sum()) * grow
            if upper[i] < nearest_half[a] or upper[i] * grow < second[i] * shrink:
                continue
            reassign(i, centers)
        return labels

    def move(shifts, labels):
        upper[:] = (upper + shifts[labels] * grow) * grow
        second[:] = np.maximum((second - shifts.max() * grow) * shrink, 0.0)

    return _bounded_run(X, w, centers, max_iter, tol, assign, move)
