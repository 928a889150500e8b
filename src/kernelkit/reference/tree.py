"""CART as the course writes it, for reading (Sangnier, §1.6.2 and §1.6.4).

Twin of the trees that :class:`kernelkit.tree.DecisionTreeClassifier`,
:class:`kernelkit.tree.DecisionTreeRegressor` and the ensembles of :mod:`kernelkit.ensemble`
grow and walk, compared through their ``tree_`` arrays and ``predict`` (``tests/tree/``). It takes
the method's arguments (X, y, weights, the seed of the feature draws and the stopping rules), not
the compiled builder's.

Growth (:func:`cart_tree`). Every node evaluates the candidate splits of its drawn features and
keeps the one of smallest seed objective ``|L|/|A| D(L) + |R|/|A| D(R)`` (weights instead of
counts), computed for each candidate from its children's samples (no incremental sums). It
maximises ``−(W_L D(L) + W_R D(R))`` in scikit-learn's expressions of the children's sums
(``S_L²/W_L + S_R²/W_R`` for the squared error, ...): where the sums are exact (class labels or
integer targets, integer weights) every implementation then compares the same floating-point
numbers, and mathematically tied candidates are ordered by the same rounding. Candidates:

- ``splitter="best"``: every midpoint between consecutive distinct values of the node's samples
  along the feature;
- ``splitter="hist"``: the features are first cut into at most ``max_bins`` quantile bins
  (:func:`histogram_bins`, on all training samples); a candidate lies between two bins holding
  samples of the node, its threshold the midpoint between the largest training value of the last
  left bin and the smallest of the first right bin.

Depth-first growth (no ``max_leaf_nodes``) recurses, left child first; best-first growth
(:func:`grow_best_first`) splits the frontier node of largest impurity decrease until
``max_leaf_nodes`` leaves, ties to the node created first. Conventions shared with the compiled
core, so that both grow the same tree:

- X is read as float32; values closer than 1e-7 (float32 arithmetic) are one value; a
  threshold is ``v_k/2 + v_{k+1}/2``;
- the features examined at a node are drawn with scikit-learn's xorshift generator and
  Fisher–Yates scheme (:class:`FeatureDraws`), at the node's creation; best-first growth does not
  carry the features found constant from a node to its children;
- the first strict maximum wins: features in draw order, then thresholds in increasing order;
  in best-first growth, the largest decrease ``W_A/W (D(A) − W_L/W_A D(L) − W_R/W_A D(R))``,
  equal ones to the older node;
- entropy is in bits; the weighted median of an even split is the midpoint of the middle pair.

Prediction (:func:`tree_apply`, :func:`tree_predict`): walk from the root, left when
``x[feature] <= threshold`` (x read as float32), until a node without children.
"""

import math

import numpy as np

__all__ = ["FeatureDraws", "cart_tree", "grow_best_first", "histogram_bins", "impurity",
           "tree_apply", "tree_predict"]

FEATURE_THRESHOLD = np.float32(1e-7)
EPSILON = np.finfo(np.float64).eps
RAND_R_MAX = 2**31 - 1
# Largest number of bins per feature (the compiled splitter stores bins as bytes).
MAX_BINS = 255
TREE_LEAF = -1
TREE_UNDEFINED = -2


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


def _distinct_runs(sorted_values):
    """Start of every run of a sorted float32 column whose consecutive gaps are at most
    ``FEATURE_THRESHOLD`` (one value, as the splitters see it)."""
    starts = [0]
    for k in range(1, sorted_values.size):
        if sorted_values[k] > np.float32(sorted_values[k - 1] + FEATURE_THRESHOLD):
            starts.append(k)
    return starts


def histogram_bins(X, max_bins=MAX_BINS):
    """Quantile bins of every feature, as ``splitter="hist"`` cuts them.

    A feature with at most ``max_bins`` distinct values gets one bin per value. Otherwise, for
    ``k = 1 … max_bins − 1``, a bin ends after the first distinct value at which the number of
    samples up to that value reaches ``k · n/max_bins``; the largest value ends the last bin.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Read as float32.
    max_bins : int, default=255

    Returns
    -------
    codes : ndarray of shape (n_samples, n_features), int
        Bin of every value.
    bin_lower, bin_upper : list of n_features ndarrays, float32
        Smallest and largest training value of every bin of each feature.
    """
    X = np.asarray(X, dtype=np.float32)
    n_samples, n_features = X.shape
    codes = np.empty((n_samples, n_features), dtype=np.intp)
    bin_lower, bin_upper = [], []
    for f in range(n_features):
        order = np.argsort(X[:, f], kind="stable")
        values = X[order, f]
        starts = _distinct_runs(values)
        n_distinct = len(starts)
        # samples with a value up to and including each distinct value
        count_through = starts[1:] + [n_samples]
        if n_distinct <= max_bins:
            last_of_bin = list(range(n_distinct))
        else:
            last_of_bin = set()
            for k in range(1, max_bins):
                target = k * (n_samples / max_bins)
                reached = next(i for i, c in enumerate(count_through) if c >= target)
                last_of_bin.add(min(reached, n_distinct - 1))
            last_of_bin = sorted(last_of_bin | {n_distinct - 1})
        lower, upper, first = [], [], 0
        for b, last in enumerate(last_of_bin):
            lower.append(values[starts[first]])
            upper.append(values[count_through[last] - 1])
            codes[order[starts[first]:count_through[last]], f] = b
            first = last + 1
        bin_lower.append(np.array(lower, dtype=np.float32))
        bin_upper.append(np.array(upper, dtype=np.float32))
    return codes, bin_lower, bin_upper


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
    """The course's distortion D of a cell: Gini ``1 − Σ_c p_c²``, entropy ``−Σ p log₂ p``, MSE
    ``(1/W) Σ w y² − ȳ²``, mean absolute deviation from the weighted median, or the Newton
    objective ``−G²/(H (H + λ))`` (G = Σ w g, H = Σ w h, for ``y`` the gradients)."""
    W = math.fsum(w)
    if criterion in ("gini", "entropy", "log_loss"):
        class_weights = np.bincount(y.astype(np.intp), weights=w, minlength=n_classes)
        if criterion == "gini":
            return 1.0 - math.fsum(class_weights ** 2) / (W * W)
        entropy = 0.0
        for W_c in class_weights:
            if W_c > 0:
                entropy -= W_c / W * (math.log(W_c / W) / math.log(2))
        return entropy
    if criterion in ("squared_error", "friedman_mse"):
        mean = math.fsum(w * y) / W
        return math.fsum(w * y * y) / W - mean * mean
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
              max_leaf_nodes=None, min_impurity_decrease=0.0, splitter="best",
              max_bins=MAX_BINS):
    """Grow a CART tree: depth-first (recursive, left child first) or, with
    ``max_leaf_nodes``, best-first.

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
max_leaf_nodes, min_impurity_decrease
        The stopping rules (see :class:`kernelkit.tree.DecisionTreeClassifier`).
    splitter : {"best", "hist"}, default="best"
        Candidate thresholds: between distinct values, or between quantile bins.
    max_bins : int, default=255
        Bins per feature of ``splitter="hist"``.

    Returns
    -------
    tree : dict
        ``children_left``, ``children_right``, ``feature``, ``threshold``, ``value``,
        ``impurity``, ``n_node_samples``, ``weighted_n_node_samples`` (arrays indexed by node
        id, as an estimator's ``tree_``) and ``max_depth``.
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
    if splitter == "hist":
        codes, bin_lower, bin_upper = histogram_bins(X, max_bins)

    def D(idx):
        return impurity(criterion, y[idx], w_all[idx], n_classes,
                        None if h_all is None else h_all[idx], l2_regularization)

    def proxy(left, right):
        """What the split search maximises: ``−(W_L D(L) + W_R D(R))`` up to a constant of
        the node (the parent's ``W D(A)``), in scikit-learn's expressions of the children's
        sums, so that exact sums give the same number in every implementation."""
        WL, WR = u_all[left].sum(), u_all[right].sum()
        if criterion in ("gini", "entropy", "log_loss", "absolute_error"):
            return -WR * D(right) - WL * D(left)
        SL, SR = w_all[left] @ y[left], w_all[right] @ y[right]
        if criterion == "friedman_mse":
            # W_L W_R/W (ȳ_L − ȳ_R)², the decrease of the squared error, times W: maximised
            return (WR * SL - WL * SR) ** 2 / (WL * WR)
        if criterion == "newton":
            # W_L, W_R: hessian sums; S_L, S_R: gradient sums
            return SL * SL / (WL + l2_regularization) + SR * SR / (WR + l2_regularization)
        # W·MSE = Σ w y² − S²/W
        return SL * SL / WL + SR * SR / WR

    def is_constant(idx, f):
        if splitter == "hist":
            return np.unique(codes[idx, f]).size == 1
        v = X[idx, f]
        return v.max() <= np.float32(v.min() + FEATURE_THRESHOLD)

    def candidates(idx, f):
        """``(threshold, left, right)`` of every cut of the node along ``f``, in increasing
        threshold."""
        if splitter == "hist":
            bins = np.unique(codes[idx, f])
            for last_left, first_right in zip(bins[:-1], bins[1:]):
                go_left = codes[idx, f] <= last_left
                threshold = (float(bin_upper[f][last_left]) / 2
                             + float(bin_lower[f][first_right]) / 2)
                yield threshold, idx[go_left], idx[~go_left]
            return
        order = idx[np.argsort(X[idx, f], kind="stable")]
        v = X[order, f]
        for k in range(1, idx.size):
            if v[k] <= np.float32(v[k - 1] + FEATURE_THRESHOLD):
                continue                       # not between two distinct values
            yield float(v[k - 1]) / 2 + float(v[k]) / 2, order[:k], order[k:]

    def evaluate(idx, depth, n_constant):
        """A new node: its statistics and, unless it is a leaf by the stopping rules, its best
        split, the impurity decrease of that split and the constants known to its children."""
        W = u_all[idx].sum()
        node = dict(left=TREE_LEAF, right=TREE_LEAF, feature=TREE_UNDEFINED,
                    threshold=float(TREE_UNDEFINED), impurity=D(idx), n=idx.size,
                    weight=w_all[idx].sum(), depth=depth, split=None,
                    value=_value(criterion, y[idx], w_all[idx], n_classes,
                                 None if h_all is None else h_all[idx], l2_regularization))
        if (depth >= max_depth or idx.size < min_samples_split
                or idx.size < 2 * min_samples_leaf or W < 2 * min_weight_leaf
                or (criterion != "newton" and node["impurity"] <= EPSILON)):
            return node, n_constant
        features, n_constant = draws.draw(lambda f: is_constant(idx, f), n_constant,
                                          max_features)
        best = None
        for f in features:
            for threshold, left, right in candidates(idx, f):
                if left.size < min_samples_leaf or right.size < min_samples_leaf:
                    continue
                WL, WR = u_all[left].sum(), u_all[right].sum()
                if WL < min_weight_leaf or WR < min_weight_leaf:
                    continue
                if WL + l2_regularization <= 0 or WR + l2_regularization <= 0:
                    continue           # Newton with no curvature on a side: no step
                score = proxy(left, right)
                if best is None or score > best[0]:
                    best = (score, f, threshold, left, right)
        if best is None:
            return node, n_constant
        _, f, threshold, left, right = best
        WL, WR = u_all[left].sum(), u_all[right].sum()
        improvement = W / W_root * (node["impurity"] - WR / W * D(right) - WL / W * D(left))
        if improvement + EPSILON >= min_impurity_decrease:
            node.update(split=(f, threshold, np.sort(left), np.sort(right)),
                        improvement=improvement)
        return node, n_constant

    root = np.flatnonzero(w_all > 0)
    if max_leaf_nodes is None:
        nodes = _grow_depth_first(evaluate, root)
    else:
        nodes = grow_best_first(lambda idx, depth: evaluate(idx, depth, 0)[0], root,
                                max_leaf_nodes)
    return dict(
        children_left=np.array([n["left"] for n in nodes], dtype=np.int32),
        children_right=np.array([n["right"] for n in nodes], dtype=np.int32),
        feature=np.array([n["feature"] for n in nodes], dtype=np.int32),
        threshold=np.array([n["threshold"] for n in nodes]),
        value=np.array([n["value"] for n in nodes]),
        impurity=np.array([n["impurity"] for n in nodes]),
        n_node_samples=np.array([n["n"] for n in nodes], dtype=np.int32),
        weighted_n_node_samples=np.array([n["weight"] for n in nodes]),
        max_depth=max(n["depth"] for n in nodes),
    )


def _split(nodes, parent, child_nodes):
    """Record the split of ``nodes[parent]`` into the nodes ``child_nodes`` (left, right)."""
    feature, threshold, _, _ = nodes[parent]["split"]
    nodes[parent].update(feature=feature, threshold=threshold, left=child_nodes[0],
                         right=child_nodes[1])


def _grow_depth_first(evaluate, root):
    """Nodes in preorder: a node, its left subtree, its right subtree."""
    nodes = []

    def grow(idx, depth, n_constant):
        node_id = len(nodes)
        node, n_constant = evaluate(idx, depth, n_constant)
        nodes.append(node)
        if node["split"] is None:
            return node_id
        _, _, left, right = node["split"]
        left_id = grow(left, depth + 1, n_constant)
        _split(nodes, node_id, (left_id, grow(right, depth + 1, n_constant)))
        return node_id

    grow(root, 0, 0)
    return nodes


def grow_best_first(evaluate, root, max_leaf_nodes):
    """Best-first growth (Friedman's ``max_leaf_nodes``): the frontier holds the nodes created
    but not split; the one of largest impurity decrease is split next (ties to the node
    created first, i.e. the smallest id) until the tree has ``max_leaf_nodes`` leaves or no
    frontier node has a split.

    Parameters
    ----------
    evaluate : callable ``(samples, depth) -> node``
        A new node as a dict with ``split`` (None, or ``(feature, threshold, left_samples,
        right_samples)``) and, with a split, its ``improvement``.
    root : ndarray
        Samples of the root.
    max_leaf_nodes : int

    Returns
    -------
    nodes : list of dict
        In order of creation (node ids), children set; nodes never split have ``split`` None.
    """
    nodes = [evaluate(root, 0)]
    frontier = [0] if nodes[0]["split"] is not None else []
    n_leaves = 1
    while frontier and n_leaves < max_leaf_nodes:
        best = max(frontier, key=lambda node_id: (nodes[node_id]["improvement"], -node_id))
        frontier.remove(best)
        _, _, left, right = nodes[best]["split"]
        children = []
        for samples in (left, right):
            children.append(len(nodes))
            nodes.append(evaluate(samples, nodes[best]["depth"] + 1))
            if nodes[-1]["split"] is not None:
                frontier.append(children[-1])
        _split(nodes, best, children)
        n_leaves += 1
    for node in nodes:
        if node["left"] == TREE_LEAF:
            node["split"] = None
    return nodes


def tree_apply(children_left, children_right, feature, threshold, X):
    """Leaf reached by every row of ``X``: from the root, go left when
    ``x[feature] <= threshold`` (x read as float32), until a node without children.

    Parameters
    ----------
    children_left, children_right : array-like of shape (n_nodes,)
        Child ids, -1 at a leaf.
    feature : array-like of shape (n_nodes,)
    threshold : array-like of shape (n_nodes,)
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    leaves : ndarray of shape (n_samples,), intp
    """
    X = np.asarray(X, dtype=np.float32)
    leaves = np.empty(X.shape[0], dtype=np.intp)
    for i, x in enumerate(X):
        node = 0
        while children_left[node] != TREE_LEAF:
            goes_left = float(x[feature[node]]) <= threshold[node]
            node = children_left[node] if goes_left else children_right[node]
        leaves[i] = node
    return leaves


def tree_predict(children_left, children_right, feature, threshold, value, X):
    """``value`` of the leaf of every row of ``X`` (see :func:`tree_apply`).

    Returns
    -------
    prediction : ndarray of shape (n_samples,) + value.shape[1:]
    """
    return np.asarray(value)[tree_apply(children_left, children_right, feature, threshold, X)]
