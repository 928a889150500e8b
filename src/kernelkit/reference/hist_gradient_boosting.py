"""Twin of one tree of second-order histogram gradient boosting (``_core._hist_grower``),
written as the method reads.

Ke et al., "LightGBM: A Highly Efficient Gradient Boosting Decision Tree", NeurIPS 2017 (leaf-wise
growth on histograms); Chen & Guestrin, "XGBoost: A Scalable Tree Boosting System", KDD 2016 (the
gain ``G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)`` and the leaf value ``−G/(H+λ)``).

Every node's histogram is summed afresh from its samples (no sibling subtraction), the best node
is found by a scan of the open leaves (no heap): the same tree as the core's, whose arrays
``grow_tree`` returns under the same names. ``predict_binned`` routes binned rows.

Constraints (scikit-learn's semantics). Monotonic: a node's value is ``−G/(H+λ)`` clipped to the
bounds it was made in; a candidate's gain is ``G·v − G_L·v_L − G_R·v_R`` at the clipped values,
and a candidate on a constrained feature whose children's values are in the wrong order is
rejected; a split on a constrained feature bounds the values below its left child and those
below its right child by the midpoint of their two values. Interaction: a node splits only on
the features of the groups that contain every feature split on above it.
"""

import numpy as np
from scipy.special import expit

__all__ = ["grow_tree", "loss_gradients", "predict_binned"]


def loss_gradients(loss, y, raw):
    """Gradients and Hessians ``(K, n_samples)`` of a loss at raw scores ``raw``
    (n_samples, K), twin of ``_core._hist_gradients`` (float64 here); the Hessian of the squared
    and absolute errors is 1.

    ``loss``: "squared_error" ``½(f − y)²``, "absolute_error" ``|f − y|``, "poisson"
    ``e^f − y f``, "log_loss" ``log(1 + e^f) − y f`` (one column) or ``log Σ e^{f_k} − f_y``.
    """
    f = raw[:, 0]
    if loss == "squared_error":
        return (f - y)[None], np.ones((1, len(y)))
    if loss == "absolute_error":
        return np.sign(f - y)[None], np.ones((1, len(y)))
    if loss == "poisson":
        return (np.exp(f) - y)[None], np.exp(f)[None]
    if raw.shape[1] == 1:
        p = expit(f)
        return (p - y)[None], (p * (1 - p))[None]
    p = np.exp(raw - raw.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    one_hot = np.eye(raw.shape[1])[y.astype(int)]
    return (p - one_hot).T, (p * (1 - p)).T


def _histogram(bins, gradients, hessians, n_bins):
    """``(Σ g, Σ h, count)`` per bin of one feature over a node's samples."""
    return (np.bincount(bins, weights=gradients, minlength=n_bins),
            np.bincount(bins, weights=hessians, minlength=n_bins),
            np.bincount(bins, minlength=n_bins))


def _clipped_value(g, h, lam, bounds):
    """``−g/(h+λ)`` clipped to ``bounds`` (the 1e-15 of scikit-learn's denominator too)."""
    return min(max(-g / (h + lam + 1e-15), bounds[0]), bounds[1])


# Least support of a category (Hessian, in samples) and smoothing of the categories' order.
CATEGORY_SMOOTHING = 10


def _categorical_candidates(sum_g, sum_h, count, n, H, n_categories, has_missing, missing_bin):
    """``(left bins, G_L, H_L, n_left)`` of the categorical splits of one feature: the
    categories with support (the missing bin one of them if the feature had missing values at
    fit) sorted by ``Σ g / (Σ h + smoothing)`` (ties: the higher bin first), the first ``k`` of
    them to the left for ``k`` up to half of them, then the last ``k``, ``k`` below half."""
    categories = list(range(n_categories)) + ([missing_bin] if has_missing else [])
    supported = [b for b in categories if sum_h[b] * n / H >= CATEGORY_SMOOTHING]
    if len(supported) < 2:
        return []
    order = sorted(supported, key=lambda b: (sum_g[b] / (sum_h[b] + CATEGORY_SMOOTHING), -b))
    m = len(order)
    cuts = ([order[:k] for k in range(1, (m + 1) // 2 + 1)]
            + [order[m - k:] for k in range(1, (m + 1) // 2)])
    return [(frozenset(left), sum_g[left].sum(), sum_h[left].sum(), int(count[left].sum()))
            for left in cuts]


def _numeric_candidates(sum_g, sum_h, count, n, G, H, n_bins, has_missing):
    """``(bin, missing_go_left, G_L, H_L, n_left)`` of the numeric splits of one feature: bins
    ``≤ bin`` left, the missing bin right (every bin but the last, which may go left only when
    there are missing values), then, with missing values, the missing bin left."""
    candidates = []
    # missing values right: left = bins 0..b
    for b in range(n_bins - 1 + int(has_missing)):
        candidates.append((b, False, sum_g[:b + 1].sum(), sum_h[:b + 1].sum(),
                           int(count[:b + 1].sum())))
    if has_missing:
        # missing values left: right = bins b+1..n_bins-1
        for b in range(n_bins - 2, -1, -1):
            g_right = sum_g[b + 1:n_bins].sum()
            h_right = sum_h[b + 1:n_bins].sum()
            n_right = int(count[b + 1:n_bins].sum())
            candidates.append((b, True, G - g_right, H - h_right, n - n_right))
    return candidates


def _best_split(X_binned, rows, gradients, hessians, node, n_bins_non_missing,
                has_missing_values, is_categorical, missing_bin, min_samples_leaf, min_hessian,
                lam, monotonic_cst, features):
    """``(gain, feature, bin, missing_go_left, G_L, H_L, n_left)`` of the best split of
    ``node`` over ``features``, or None.

    Bins ``≤ bin`` go left. A feature with missing values at fit is tried with the missing bin
    on the right (scanning the bins left to right) and on the left (right to left); a strictly
    larger gain wins, so ties keep the first candidate found, the categorical features' first.
    At a categorical feature ``bin`` is the set of bins that go left
    (:func:`_categorical_candidates`). With monotonic constraints the gain is taken at the
    children's values clipped to the node's ``bounds``.
    """
    def score(g, h):
        return g * g / (h + lam)

    G, H = node["G"], node["H"]

    def gain_of(f, g_left, h_left):
        if monotonic_cst is None:
            return score(g_left, h_left) + score(G - g_left, H - h_left) - score(G, H)
        v_left = _clipped_value(g_left, h_left, lam, node["bounds"])
        v_right = _clipped_value(G - g_left, H - h_left, lam, node["bounds"])
        cst = monotonic_cst[f]
        if (cst > 0 and v_left > v_right) or (cst < 0 and v_left < v_right):
            return -1.0
        return G * node["value"] - g_left * v_left - (G - g_left) * v_right

    n = len(rows)
    best = None
    best_gain = 0.0
    for f in sorted(features, key=lambda f: not is_categorical[f]):
        sum_g, sum_h, count = _histogram(X_binned[rows, f], gradients[rows], hessians[rows],
                                         missing_bin + 1)
        n_bins = n_bins_non_missing[f]
        if is_categorical[f]:
            candidates = [(left, missing_bin in left, g_left, h_left, n_left)
                          for left, g_left, h_left, n_left in _categorical_candidates(
                              sum_g, sum_h, count, n, H, n_bins, has_missing_values[f],
                              missing_bin)]
        else:
            candidates = _numeric_candidates(sum_g, sum_h, count, n, G, H, n_bins,
                                             has_missing_values[f])
        for b, missing_left, g_left, h_left, n_left in candidates:
            if (n_left < min_samples_leaf or n - n_left < min_samples_leaf
                    or h_left < min_hessian or H - h_left < min_hessian):
                continue
            gain = gain_of(f, g_left, h_left)
            if gain > best_gain:
                best_gain = gain
                best = (gain, f, b, missing_left, g_left, h_left, n_left)
    return best


def grow_tree(X_binned, gradients, hessians, hessians_are_constant, n_bins_non_missing,
              has_missing_values, missing_bin, max_leaf_nodes, max_depth, min_samples_leaf,
              min_hessian_to_split, l2_regularization, learning_rate, monotonic_cst=None,
              interaction_groups=None, is_categorical=None):
    """Grow one tree leaf-wise: the open leaf of largest gain is split (ties: the older),
    until ``max_leaf_nodes`` leaves or no split with a positive gain.

    Parameters
    ----------
    X_binned : ndarray of shape (n_samples, n_features), dtype uint8
    gradients, hessians : ndarray of shape (n_samples,), dtype float32
        ``hessians`` is read as all ones when ``hessians_are_constant``.
    hessians_are_constant : bool
    n_bins_non_missing : ndarray of shape (n_features,)
    has_missing_values : ndarray of shape (n_features,), dtype bool
    missing_bin : int
    max_leaf_nodes, max_depth : int
        ``max_depth = -1``: no bound.
    min_samples_leaf : int
    min_hessian_to_split, l2_regularization, learning_rate : float
    monotonic_cst : ndarray of shape (n_features,) of −1, 0, 1, or None
        None (or all 0): no monotonic constraint.
    interaction_groups : list of sets of feature indices, or None
        Every feature in at least one group; None: no interaction constraint.
    is_categorical : ndarray of shape (n_features,), dtype bool, default=None
        Features split by sets of bins (None: none).

    Returns
    -------
    tree : dict of ndarray of shape (n_nodes,)
        ``feature`` (−1 at a leaf), ``bin``, ``missing_go_left``, ``left`` and ``right``
        (children ids, −1 at a leaf), ``value`` (``−ν G/(H+λ)``), ``gain``, ``left_bins`` (the
        set of bins that go left at a categorical split, empty elsewhere), and ``leaf_of``
        (n_samples,): the leaf of every training sample.
    """
    if is_categorical is None:
        is_categorical = np.zeros(X_binned.shape[1], dtype=bool)
    gradients = np.asarray(gradients, dtype=np.float64)
    hessians = (np.ones_like(gradients) if hessians_are_constant
                else np.asarray(hessians, dtype=np.float64))
    lam = l2_regularization
    n_features = X_binned.shape[1]
    if monotonic_cst is not None and not np.any(monotonic_cst):
        monotonic_cst = None
    G, H = gradients.sum(), hessians.sum()
    # "bounds": of the node's children's values; "groups": the interaction groups still open
    nodes = [{"rows": np.arange(len(gradients)), "depth": 0, "G": G, "H": H, "split": None,
              "left": -1, "value": _clipped_value(G, H, lam, (-np.inf, np.inf)),
              "bounds": (-np.inf, np.inf),
              "groups": None if interaction_groups is None else list(interaction_groups)}]

    def find(node):
        features = (range(n_features) if node["groups"] is None
                    else sorted(set().union(*node["groups"])))
        if ((max_depth < 0 or node["depth"] < max_depth)
                and len(node["rows"]) >= 2 * min_samples_leaf
                and node["H"] >= 2 * min_hessian_to_split):
            node["split"] = _best_split(X_binned, node["rows"], gradients, hessians, node,
                                        n_bins_non_missing, has_missing_values, is_categorical,
                                        missing_bin, min_samples_leaf, min_hessian_to_split,
                                        lam, monotonic_cst, features)

    if max_leaf_nodes > 1:
        find(nodes[0])
    open_leaves = [0] if nodes[0]["split"] is not None else []
    n_leaves = 1
    while open_leaves and n_leaves < max_leaf_nodes:
        best = max(open_leaves, key=lambda i: (nodes[i]["split"][0], -i))
        open_leaves.remove(best)
        node = nodes[best]
        gain, f, b, missing_left, g_left, h_left, n_left = node["split"]
        bins = X_binned[node["rows"], f]
        if is_categorical[f]:
            goes_left = np.isin(bins, list(b))
        else:
            goes_left = np.where(bins == missing_bin, missing_left, bins <= b)
        node["left"] = len(nodes)
        n_leaves += 1
        children = [{"rows": rows, "depth": node["depth"] + 1, "G": G, "H": H,
                     "split": None, "left": -1, "bounds": node["bounds"],
                     "value": _clipped_value(G, H, lam, node["bounds"]),
                     "groups": (None if node["groups"] is None
                                else [group for group in node["groups"] if f in group])}
                    for rows, G, H in ((node["rows"][goes_left], g_left, h_left),
                                       (node["rows"][~goes_left], node["G"] - g_left,
                                        node["H"] - h_left))]
        if monotonic_cst is not None and monotonic_cst[f] != 0:
            # increasing: the values below the left child stay under the middle of the two
            # children's values, those below the right child over it (decreasing: the reverse)
            middle = (children[0]["value"] + children[1]["value"]) / 2
            low, high = node["bounds"]
            under, over = (low, middle), (middle, high)
            children[0]["bounds"], children[1]["bounds"] = ((under, over) if monotonic_cst[f] > 0
                                                            else (over, under))
        for child in children:
            nodes.append(child)
            if n_leaves < max_leaf_nodes:
                find(child)
                if child["split"] is not None:
                    open_leaves.append(len(nodes) - 1)

    n_nodes = len(nodes)
    tree = {"feature": np.full(n_nodes, -1), "bin": np.zeros(n_nodes, dtype=np.intp),
            "missing_go_left": np.zeros(n_nodes, dtype=np.uint8),
            "left": np.full(n_nodes, -1), "right": np.full(n_nodes, -1),
            "value": np.zeros(n_nodes), "gain": np.zeros(n_nodes),
            "left_bins": [frozenset()] * n_nodes,
            "leaf_of": np.zeros(len(gradients), dtype=np.intp)}
    for i, node in enumerate(nodes):
        tree["value"][i] = (-learning_rate * node["G"] / (node["H"] + lam)
                            if monotonic_cst is None else learning_rate * node["value"])
        if node["left"] < 0:
            tree["leaf_of"][node["rows"]] = i
            continue
        gain, f, b, missing_left, g_left, h_left, n_left = node["split"]
        if not has_missing_values[f]:
            # no missing value at fit: unseen ones go to the child with more samples
            missing_left = n_left > len(node["rows"]) - n_left
        if is_categorical[f]:
            tree["left_bins"][i], b = b, 0
        tree["feature"][i], tree["bin"][i], tree["gain"][i] = f, b, gain
        tree["missing_go_left"][i] = missing_left
        tree["left"][i], tree["right"][i] = node["left"], node["left"] + 1
    return tree


def predict_binned(tree, X_binned, missing_bin):
    """Leaf value of every binned row (a walk down the tree; the right child is
    ``left + 1``, as in the core's arrays; a tree without ``left_bins`` has numeric splits
    only)."""
    left_bins = tree.get("left_bins", [frozenset()] * len(tree["left"]))
    out = np.empty(X_binned.shape[0])
    for i, row in enumerate(X_binned):
        node = 0
        while tree["left"][node] >= 0:
            b = row[tree["feature"][node]]
            if left_bins[node]:
                go_left = b in left_bins[node]
            elif b == missing_bin:
                go_left = tree["missing_go_left"][node]
            else:
                go_left = b <= tree["bin"][node]
            node = tree["left"][node] + (0 if go_left else 1)
        out[i] = tree["value"][node]
    return out
