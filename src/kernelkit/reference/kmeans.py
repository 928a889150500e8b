"""Lloyd's k-means, written for reading (Sangnier, Algorithm 9). Twin of
``kernelkit.cluster._kmeans.kmeans_lloyd`` (which drives ``kernelkit._core._kmeans_lloyd``)."""

import numpy as np


def kmeans_lloyd(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None):
    """Lloyd iterations from ``centers_init``; returns ``(centers, labels, inertia, n_iter,
    objective_history)`` with the conventions of the compiled version (ties to the lowest
    index, empty cluster takes the farthest sample, stop on stable labels or shift ≤ tol)."""
    X = np.asarray(X, dtype=np.float64)
    n_samples = X.shape[0]
    w = np.ones(n_samples) if sample_weight is None else np.asarray(sample_weight, float)
    centers = np.array(centers_init, dtype=np.float64)
    k = centers.shape[0]

    def assign(centers):
        # squared distance of every sample to every centre, directly
        d2 = np.stack([((X - c) ** 2).sum(axis=1) for c in centers], axis=1)
        labels = np.argmin(d2, axis=1)  # argmin keeps the first (lowest) index on ties
        return labels, float(w @ d2[np.arange(n_samples), labels])

    labels_old = np.full(n_samples, -1)
    history = []
    stable = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        labels, objective = assign(centers)
        history.append(objective)
        sums = np.zeros_like(centers)
        weights = np.zeros(k)
        for i in range(n_samples):
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
        new_centers = sums / weights[:, None]
        shift = ((new_centers - centers) ** 2).sum()
        centers = new_centers
        if np.array_equal(labels, labels_old):
            stable = True
            break
        if shift <= tol:
            break
        labels_old = labels
    if not stable:
        labels, _ = assign(centers)
    inertia = float(w @ ((X - centers[labels]) ** 2).sum(axis=1))
    return centers, labels, inertia, n_iter, np.asarray(history)
