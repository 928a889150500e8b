"""k-means, written for reading: Lloyd's iterations (Sangnier, Algorithm 9) and the two
accelerations that skip the distances the triangle inequality proves useless, as their papers
state them: Elkan (ICML 2003), one lower bound per sample and centre, and Hamerly (SDM 2010), one
lower bound per sample.

Twins of :class:`kernelkit.cluster.KMeans` with ``algorithm="lloyd"``, ``"elkan"`` and
``"hamerly"``, compared in ``tests/cluster/test_reference_kmeans.py`` (through the estimator),
``tests/cluster/test_kmeans.py`` and ``tests/cluster/test_kmeans_elkan.py``. They take the
method's arguments (data, initial centres, ``max_iter``, ``tol``, weights) and return
``(centers, labels, inertia, n_iter, inertia_history)``.

The loop around the assignment step is the estimator's: the inertia of each assignment is
recorded, the centres move to the weighted means of their clusters (an empty cluster takes the
sample farthest from its centre), and the run stops when the labels repeat or the summed
squared shift of the centres is at most ``tol``; in the latter case the labels are then those
of the final centres.

Exact bounds in rounded arithmetic. The papers' bound tests are exact statements: a skipped
centre is provably no closer. Evaluated in floating point they decide ties by the rounding of
the bounds, and Elkan's rule keeps the current centre on an exact tie where Lloyd's rule takes
the lowest index. So on data whose distances are well separated the three methods give the
same labels, while near ties may go another way than Lloyd's; the compiled core widens every
bound test by a relative margin so that a near tie is always decided by Lloyd's rule.
"""

import numpy as np

__all__ = ["kmeans_elkan", "kmeans_hamerly", "kmeans_lloyd"]


def _prepared(X, centers_init, sample_weight):
    X = np.asarray(X, dtype=np.float64)
    w = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    return X, w, np.array(centers_init, dtype=np.float64)


def _distances(A, B):
    """Euclidean distance of every row of ``A`` to every row of ``B``, directly."""
    return np.sqrt(((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2))


def _half_center_distances(centers):
    """``½ d(c, c')`` for every pair of centres, +∞ on the diagonal."""
    half = 0.5 * _distances(centers, centers)
    np.fill_diagonal(half, np.inf)
    return half


def _nearest(X, centers):
    """Lloyd's rule: the nearest centre by squared distance, the lowest index on ties."""
    return np.argmin(((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2), axis=1)


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


def _run(X, w, centers, max_iter, tol, assign, move):
    """The loop shared by the three methods.

    ``assign(n_iter, centers)`` returns the labels of iteration ``n_iter`` (keeping whatever
    bounds it needs); ``move(shifts, labels)`` is told how far each centre moved.
    """
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
        labels = _nearest(X, centers)
    inertia = float(w @ ((X - centers[labels]) ** 2).sum(axis=1))
    return centers, labels, inertia, n_iter, np.asarray(history)


def kmeans_lloyd(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None):
    """Lloyd's iterations from ``centers_init``: every sample to its nearest centre (the lowest
    index on ties), every centre to the weighted mean of its samples.

    Returns
    -------
    centers, labels, inertia, n_iter, inertia_history
    """
    X, w, centers = _prepared(X, centers_init, sample_weight)
    return _run(X, w, centers, max_iter, tol, lambda n_iter, centers: _nearest(X, centers),
                lambda shifts, labels: None)


def kmeans_elkan(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None):
    r"""Elkan's k-means (Elkan, "Using the triangle inequality to accelerate k-means", ICML 2003,
    Algorithm of §3): Lloyd's iterations without the distances the bounds rule out.

    Every sample ``x`` keeps an upper bound ``u(x)`` of its distance to its centre ``c(x)`` and a
    lower bound ``l(x, c)`` of its distance to every centre; ``r(x)`` says whether ``u(x)`` may
    be loose. With :math:`s(c) = \frac12 \min_{c' \ne c} d(c, c')`:

    2. samples with :math:`u(x) \le s(c(x))` keep their centre;
    3. otherwise every centre ``c ≠ c(x)`` with :math:`u(x) > l(x, c)` and
       :math:`u(x) > \frac12 d(c(x), c)` is examined: (a) if ``r(x)``, ``u(x) = d(x, c(x))``
       is computed; (b) if still :math:`u(x) > l(x, c)` or :math:`u(x) > \frac12 d(c(x), c)`,
       ``d(x, c)`` is computed, and ``x`` moves to ``c`` if it is strictly closer.

    Steps 5–6, after the centres move by ``p(c)``: :math:`l(x, c) = \max(l(x, c) - p(c), 0)`,
    :math:`u(x) = u(x) + p(c(x))`, ``r(x)`` true.

    The first assignment computes every distance (all bounds tight). Same returns as
    :func:`kmeans_lloyd`.
    """
    X, w, centers = _prepared(X, centers_init, sample_weight)
    n_samples, n_clusters = X.shape[0], centers.shape[0]
    lower = _distances(X, centers)
    labels = np.argmin(lower, axis=1)
    upper = lower[np.arange(n_samples), labels]
    loose = np.zeros(n_samples, dtype=bool)

    def assign(n_iter, centers):
        if n_iter == 1:
            return labels
        half = _half_center_distances(centers)
        s = half.min(axis=1)
        for i in range(n_samples):
            if upper[i] <= s[labels[i]]:
                continue                                    # step 2
            for c in range(n_clusters):
                a = labels[i]
                if c == a or upper[i] <= lower[i, c] or upper[i] <= half[a, c]:
                    continue                                # step 3: c cannot be closer
                if loose[i]:                                # step 3a
                    upper[i] = lower[i, a] = np.linalg.norm(X[i] - centers[a])
                    loose[i] = False
                if upper[i] > lower[i, c] or upper[i] > half[a, c]:     # step 3b
                    lower[i, c] = d = np.linalg.norm(X[i] - centers[c])
                    if d < upper[i]:
                        labels[i], upper[i] = c, d
        return labels

    def move(shifts, labels):
        lower[:] = np.maximum(lower - shifts[None, :], 0.0)     # step 5
        upper[:] = upper + shifts[labels]                       # step 6
        loose[:] = True

    return _run(X, w, centers, max_iter, tol, assign, move)


def kmeans_hamerly(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None):
    r"""Hamerly's k-means (Hamerly, "Making k-means even faster", SDM 2010, Algorithm 2): one
    upper bound ``u(x)`` of the distance to the sample's centre ``a(x)`` and one lower bound
    ``l(x)`` of the distance to every other centre.

    With :math:`s(c) = \frac12 \min_{c' \ne c} d(c, c')` and :math:`m = \max(s(a(x)), l(x))`: a
    sample with :math:`u(x) \le m` keeps its centre; otherwise ``u(x) = d(x, a(x))`` is computed
    and, if still :math:`u(x) > m`, all distances of ``x`` are (``Point-All-Ctrs``: the nearest
    centre, the lowest index on ties, and the second nearest set ``u`` and ``l``). After the
    centres move by ``p(c)`` (``Update-Bounds``): :math:`u(x) = u(x) + p(a(x))` and
    :math:`l(x) = l(x) - p(r)`, ``r`` the centre that moved most, or the second most if
    ``r = a(x)``.

    The first assignment computes every distance. Same returns as :func:`kmeans_lloyd`.
    """
    X, w, centers = _prepared(X, centers_init, sample_weight)
    n_samples = X.shape[0]
    labels = np.zeros(n_samples, dtype=np.intp)
    upper = np.empty(n_samples)
    lower = np.empty(n_samples)

    def point_all_centers(i, centers):
        d = np.linalg.norm(X[i] - centers, axis=1)
        labels[i] = np.argmin(d)
        upper[i] = d[labels[i]]
        lower[i] = np.min(np.delete(d, labels[i]), initial=np.inf)

    def assign(n_iter, centers):
        if n_iter == 1:
            for i in range(n_samples):
                point_all_centers(i, centers)
            return labels
        s = _half_center_distances(centers).min(axis=1)
        for i in range(n_samples):
            m = max(s[labels[i]], lower[i])
            if upper[i] <= m:
                continue
            upper[i] = np.linalg.norm(X[i] - centers[labels[i]])
            if upper[i] <= m:
                continue
            point_all_centers(i, centers)
        return labels

    def move(shifts, labels):
        upper[:] = upper + shifts[labels]
        by_shift = np.argsort(-shifts, kind="stable")
        most = by_shift[0]
        second_shift = shifts[by_shift[1]] if shifts.size > 1 else 0.0
        lower[:] = lower - np.where(labels == most, second_shift, shifts[most])

    return _run(X, w, centers, max_iter, tol, assign, move)
