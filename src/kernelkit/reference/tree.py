"""CART as the course writes it, recursive, for reading (Sangnier, §1.6.2 and §1.6.4).

Twin of ``kernelkit.utils._trees.TreeTrainingSet(X).grow_tree(...)`` (compiled:
``kernelkit._core._tree_builder``) for depth-first growth. Every node sorts its samples along
each drawn feature, tries every midpoint between consecutive distinct values, and evaluates the
seed's objective ``|L|/|A| D(L) + |R|/|A| D(R)`` (weights instead of counts) from the impurity
definitions, with no incremental sums. Conventions shared with the compiled core, so that both
grow the same tree:

- X is read as float32; values closer than 1e-7 (float32 arithmetic) are one value; a
  threshold is ``v_k/2 + v_{k+1}/2``;
- the features examined at a node are drawn with scikit-learn's xorshift generator and
  Fisher–Yates scheme (:class:`FeatureDraws`);
- ties go to the first candidate in draw order, then in increasing threshold;
- entropy is in bits; the weighted median of an even split is the midpoint of the middle pair.
"""

import math

import numpy as np

__all__ = ["FeatureDraws", "cart_tree", "impurity"]

FEATURE_THRESHOLD = np.float32(1e-7)
EPSILON = np.finfo(np.float64).eps
RAND_R_MAX = 2**31 - 1
# Candidates whose objectives agree to this relative precision are ties (the compiled core
# compares differently rounded expressions of the same quantity).
TIE_TOLERANCE = 1e-12


class FeatureDraws:
    """scikit-learn's per-node feature sampling: a Fisher–Yates shuffle driven by a 32-bit
    xorshift generator, with the features known to be constant kept in a prefix."""

    def __init__(self, seed, n_features):
        self.state = int(seed)
        self.features = list(range(n_features))
        self.constant_features = [0] * n_features

    def rand_int(self, low, high):
        if self.state == 0:
            self.state = 1
        s = self.state
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.state = s
        return low + (s % (RAND_R_MAX + 1)) % (high - low)

    def draw(self, is_constant, n_known_constants, max_features):
        """Features to evaluate, in draw order, and the number known constant afterwards."""
        features = self.features
        f_i = len(features)
        n_visited = n_found = n_drawn = 0
        n_total = n_known_constants
        chosen = []
        while f_i > n_total and (n_visited < max_features or n_visited <= n_found + n_drawn):
            n_visited += 1
            f_j = self.rand_int(n_drawn, f_i - n_found)
            if f_j < n_known_constants:
                features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
                n_drawn += 1
                continue
            f_j += n_found
            if is_constant(features[f_j]):
                features[f_j], features[n_total] = features[n_total], features[f_j]
                n_found += 1
                n_total += 1
                continue
            f_i -= 1
            features[f_i], features[f_j] = features[f_j], features[f_i]
            chosen.append(features[f_i])
        features[:n_known_constants] = self.constant_features[:n_known_constants]
        self.constant_features[n_known_constants:n_known_constants + n_found] = \
            features[n_known_constants:n_known_constants + n_found]
        return chosen, n_total


def _weighted_median(y, w):
    order = np.argsort(y, kind="stable")
    y, w = y[order], w[order]
    half = 0.5 * w.sum()
    cumulative = 0.0
    for k in range(y.size):
        if cumulative + w[k] > half:
            if cumulative == half and k > 0:
                previous = max(j for j in range(k) if w[j] > 0)
                return (y[previous] + y[k]) / 2
            return y[k]
        cumulative += w[k]
    return y[-1]


def impurity(criterion, y, w, n_classes=None, hessian=None, l2_regularization=0.0):
    """The course's distortion D of a cell: Gini ``Σ p(1 − p)``, entropy ``−Σ p log₂ p``, MSE
    ``(1/W) Σ w (y − ȳ)²``, mean absolute deviation from the weighted median, or the Newton
    objective ``−G²/(H (H + λ))`` (G = Σ w g, H = Σ w h, for ``y`` the gradients)."""
    W = math.fsum(w)
    if criterion in ("gini", "entropy", "log_loss"):
        p = np.bincount(y.astype(np.intp), weights=w, minlength=n_classes) / W
        if criterion == "gini":
            return math.fsum(p * (1 - p))
        return -math.fsum(q * math.log2(q) for q in p if q > 0)
    if criterion in ("squared_error", "friedman_mse"):
        mean = math.fsum(w * y) / W
        return math.fsum(w * (y - mean) ** 2) / W
    if criterion == "absolute_error":
        return math.fsum(w * np.abs(y - _weighted_median(y, w))) / W
    G, H = math.fsum(w * y), math.fsum(w * hessian)
    return -G * G / (H * (H + l2_regularization)) if H > 0 else 0.0


def _value(criterion, y, w, n_classes, hessian, l2_regularization):
    if criterion in ("gini", "entropy", "log_loss"):
        return np.bincount(y.astype(np.intp), weights=w, minlength=n_classes) / w.sum()
    if criterion == "absolute_error":
        return np.array([_weighted_median(y, w)])
    if criterion == "newton":
        H = w @ hessian + l2_regularization
        return np.array([-(w @ y) / H if H > 0 else 0.0])
    return np.array([(w @ y) / w.sum()])


def cart_tree(X, y, sample_weight=None, seed=0, *, criterion="gini", n_classes=None,
              hessian=None, l2_regularization=0.0, max_depth=None, min_samples_split=2,
              min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_features=None,
              min_impurity_decrease=0.0):
    """Grow a CART tree recursively (depth-first, left child first).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class codes ``0..n_classes−1``, targets, or gradients (``criterion="newton"``).
    sample_weight : array-like of shape (n_samples,), default=None
        Samples of weight 0 are left out.
    seed : int
        Seed of the feature draws.
    criterion : {"gini", "entropy", "squared_error", "friedman_mse", "absolute_error", \
"newton"}
    n_classes : int, default=None
    hessian : array-like of shape (n_samples,), default=None
        ``criterion="newton"``.
    l2_regularization : float, default=0.0
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, max_features, \
min_impurity_decrease
        The stopping rules (see :class:`kernelkit.tree.DecisionTreeClassifier`).

    Returns
    -------
    tree : dict
        ``children_left``, ``children_right``, ``feature``, ``threshold``, ``value``,
        ``impurity``, ``n_node_samples``, ``weighted_n_node_samples`` (arrays in preorder, as
        :class:`kernelkit.utils._trees.Tree`) and ``max_depth``.
    """
    X = np.asarray(X, dtype=np.float32)
    y = np.asarray(y, dtype=np.float64)
    n_samples, n_features = X.shape
    w_all = np.ones(n_samples) if sample_weight is None else np.asarray(sample_weight, float)
    h_all = None if hessian is None else np.asarray(hessian, dtype=np.float64)
    # the split "weights" W: sample weights, or weighted hessians for the Newton criterion
    u_all = w_all if criterion != "newton" else w_all * h_all
    max_depth = np.iinfo(np.int32).max if max_depth is None else max_depth
    min_samples_split = max(min_samples_split, 2 * min_samples_leaf)
    max_features = n_features if max_features is None else max_features
    min_weight_leaf = min_weight_fraction_leaf * u_all.sum()
    W_root = u_all.sum()
    draws = FeatureDraws(seed, n_features)
    nodes = []

    def D(idx):
        return impurity(criterion, y[idx], w_all[idx], n_classes,
                        None if h_all is None else h_all[idx], l2_regularization)

    def objective(left, right):
        """The course's split objective, minimised."""
        WL, WR = u_all[left].sum(), u_all[right].sum()
        if criterion == "friedman_mse":
            # the course prints argmin; Friedman's criterion is maximised
            mean_left = (w_all[left] @ y[left]) / WL
            mean_right = (w_all[right] @ y[right]) / WR
            return -(WL * WR / (WL + WR)) * (mean_left - mean_right) ** 2
        return (WL * D(left) + WR * D(right)) / (WL + WR)

    def grow(idx, depth, parent, is_left, n_constant):
        node = len(nodes)
        W = u_all[idx].sum()
        node_impurity = D(idx)
        nodes.append(dict(left=-1, right=-1, feature=-2, threshold=-2.0,
                          value=_value(criterion, y[idx], w_all[idx], n_classes,
                                       None if h_all is None else h_all[idx],
                                       l2_regularization),
                          impurity=node_impurity, n=idx.size, weight=w_all[idx].sum()))
        if parent >= 0:
            nodes[parent]["left" if is_left else "right"] = node
        leaf = (depth >= max_depth or idx.size < min_samples_split
                or idx.size < 2 * min_samples_leaf or W < 2 * min_weight_leaf
                or (criterion != "newton" and node_impurity <= EPSILON))
        if leaf:
            return depth

        def is_constant(f):
            v = X[idx, f]
            return v.max() <= np.float32(v.min() + FEATURE_THRESHOLD)

        features, n_constant = draws.draw(is_constant, n_constant, max_features)
        best = None
        for f in features:
            order = idx[np.argsort(X[idx, f], kind="stable")]
            v = X[order, f]
            for k in range(1, idx.size):
                if v[k] <= np.float32(v[k - 1] + FEATURE_THRESHOLD):
                    continue                       # not between two distinct values
                left, right = order[:k], order[k:]
                if left.size < min_samples_leaf or right.size < min_samples_leaf:
                    continue
                if u_all[left].sum() < min_weight_leaf or u_all[right].sum() < min_weight_leaf:
                    continue
                score = objective(left, right)
                if best is None or score < best[0] - TIE_TOLERANCE * (abs(best[0]) + 1e-300):
                    best = (score, f, float(v[k - 1]) / 2 + float(v[k]) / 2, left, right)
        if best is None:
            return depth
        _, f, threshold, left, right = best
        WL, WR = u_all[left].sum(), u_all[right].sum()
        improvement = W / W_root * (node_impurity - WR / W * D(right) - WL / W * D(left))
        if improvement + EPSILON < min_impurity_decrease:
            return depth
        nodes[node].update(feature=f, threshold=threshold)
        deepest = grow(np.sort(left), depth + 1, node, True, n_constant)
        return max(deepest, grow(np.sort(right), depth + 1, node, False, n_constant))

    deepest = grow(np.flatnonzero(w_all > 0), 0, -1, False, 0)
    return dict(
        children_left=np.array([n["left"] for n in nodes], dtype=np.int32),
        children_right=np.array([n["right"] for n in nodes], dtype=np.int32),
        feature=np.array([n["feature"] for n in nodes], dtype=np.int32),
        threshold=np.array([n["threshold"] for n in nodes]),
        value=np.array([n["value"] for n in nodes]),
        impurity=np.array([n["impurity"] for n in nodes]),
        n_node_samples=np.array([n["n"] for n in nodes], dtype=np.int32),
        weighted_n_node_samples=np.array([n["weight"] for n in nodes]),
        max_depth=deepest,
    )
