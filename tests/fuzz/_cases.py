"""Generated bad and extreme inputs for every public estimator, kernel, function and loader.

A *group* is one estimator class (all its ``INSTANCES`` variants from ``tests/test_common.py``),
``"functions"`` (the public functions of the subpackages) or ``"loaders"``.
``cases(group, scale, tmp)`` returns ``(kind, name, thunk)`` triples: ``kind`` is the class of
misuse (``_stress.CLASSES``: bad inputs here, the others in ``_stress.py``), a thunk runs one case
and returns what it computed (checked for NaN/inf by the worker). Everything is seeded, so case
``i`` of a group is the same on every run and can be resumed by index after a crash.
"""

import inspect
import itertools
import math
import numbers
import pathlib
import sys

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.utils import get_tags

TESTS = pathlib.Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from test_common import (  # noqa: E402  (the shared tables)
    INSTANCES,
    NOT_ESTIMATOR_PACKAGES,
    public_estimators,
)

import _stress  # noqa: E402
from _sparse_inputs import malformed  # noqa: E402

# Extreme values tried for every numeric hyper-parameter (and the parameter's type is kept, so
# an int parameter is tried with ints only: float values are a validation case of their own).
FLOAT_EXTREMES = (0.0, -1.0, 1e-300, 1e300, math.inf, math.nan)
INT_EXTREMES = (0, -1, 2**63)
COUNT_WORDS = ("iter", "n_init", "estimators", "restarts", "max_", "n_neighbors")


def groups():
    """Group names: every public estimator class, then the functions and the loaders."""
    return [cls.__name__ for cls in public_estimators()] + ["functions", "loaders"]


def public_functions():
    """Every public function: the plain functions in the subpackages' ``__all__``."""
    import importlib
    import pkgutil

    import kernelkit

    found = []
    for module in pkgutil.iter_modules(kernelkit.__path__):
        if module.name.startswith("_") or module.name in NOT_ESTIMATOR_PACKAGES:
            continue
        package = importlib.import_module(f"kernelkit.{module.name}")
        found += [getattr(package, name) for name in getattr(package, "__all__", [])
                  if inspect.isfunction(getattr(package, name))]
    return sorted(found, key=lambda f: (f.__module__, f.__name__))


def _instances(cls):
    make = INSTANCES.get(cls.__name__)
    return make(cls) if make is not None else [cls()]


def _output(est, X):
    """What a fitted estimator gives back on X: its predictions, transform or labels."""
    for method in ("predict", "transform"):
        if hasattr(est, method):
            return getattr(est, method)(X)
    for attr in ("labels_", "embedding_"):
        if hasattr(est, attr):
            return getattr(est, attr)
    return None


def _fit_output(est, X, y=None, **fit_params):
    est.fit(X, y, **fit_params)
    return _output(est, X)


def _accepts_weights(est):
    return "sample_weight" in inspect.signature(est.fit).parameters


def _target(est, n, rng):
    if is_classifier(est):
        return np.arange(n) % 2
    if is_regressor(est):
        return rng.normal(size=n)
    return None


# ---------------------------------------------------------------------------------------------
# 2-d array estimators

def _array_data(est, rng, n=20, d=3):
    """``n`` normal samples of ``d`` features, or their Gram or distance matrix for an estimator
    that takes a precomputed one."""
    X = rng.normal(size=(n, d))
    if get_tags(est).input_tags.pairwise:       # precomputed Gram or distances
        X = X @ X.T if getattr(est, "metric", None) != "precomputed" else \
            np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    return X


def _needs_y(est):
    return get_tags(est).target_tags.required or is_classifier(est) or is_regressor(est)


def _array_cases(est, rng, scale):
    needs_y = _needs_y(est)
    pairwise = get_tags(est).input_tags.pairwise

    def data(n=20, d=3):
        return _array_data(est, rng, n, d)

    def y_for(X):
        return _target(est, np.shape(X)[0] if np.ndim(X) else 1, rng) if needs_y else None

    def fit(X, y="auto", **kw):
        y = y_for(X if not sp.issparse(X) else X.toarray()) if isinstance(y, str) else y
        return lambda: _fit_output(clone(est), X, y, **kw)

    cases = []
    for rep in range(scale):
        tag = f"#{rep}" if scale > 1 else ""
        n = int(rng.integers(8, 30)) if rep else 20
        X = data(n)
        # sanity: the normal case must work
        cases.append((f"normal{tag}", fit(X)))
        for name, value in (("nan", np.nan), ("inf", np.inf), ("-inf", -np.inf)):
            Xb = X.copy()
            Xb[int(rng.integers(n)), -1] = value
            cases.append((f"X with {name}{tag}", fit(Xb)))
        for magnitude in (1e300, 1e-300, 1e154):
            cases.append((f"X*{magnitude:g}{tag}", fit(X * magnitude)))
        cases.append((f"X near float max{tag}", fit(np.sign(X) * 1.7e308)))
        cases.append((f"all points duplicated{tag}", fit(np.repeat(X[:1], n, axis=0))))
        cases.append((f"two distinct points{tag}", fit(np.repeat(X[:2], n // 2, axis=0))))
        if needs_y:
            cases.append((f"constant target{tag}", fit(X, np.zeros(n, dtype=y_for(X).dtype))))
            yb = y_for(X).astype(float)
            yb[0] = np.nan
            cases.append((f"NaN in target{tag}", fit(X, yb)))
            cases.append((f"target 1e300{tag}", fit(X, (y_for(X) * 1e300)
                                                    if is_regressor(est) else y_for(X))))
            cases.append((f"target of the wrong length{tag}", fit(X, y_for(X)[:-1])))
        if _accepts_weights(est):
            for name, w in (("zero", np.zeros(n)), ("negative", -np.ones(n)),
                            ("NaN", np.full(n, np.nan)), ("one nonzero", np.eye(n)[0]),
                            ("inf", np.r_[np.inf, np.ones(n - 1)]),
                            ("1e300", np.full(n, 1e300)), ("wrong length", np.ones(n + 1))):
                cases.append((f"{name} sample weights{tag}", fit(X, sample_weight=w)))
    X = data()
    n = len(X)
    cases += [
        ("empty X", fit(X[:0])),
        ("one sample", fit(X[:1])),
        ("two samples", fit(X[:2])),
        ("no features", fit(np.empty((n, 0)))),
        ("1-d X", fit(X[:, 0])),
        ("3-d X", fit(X[:, :, None])),
        ("object dtype", fit(X.astype(object))),
        ("strings in object X", fit(np.full(X.shape, "a", dtype=object))),
        ("complex dtype", fit(X + 1j)),
        ("bool dtype", fit(X > 0)),
        ("int dtype", fit((X * 3).astype(np.int64))),
        ("uint8 dtype", fit((np.abs(X) * 3).astype(np.uint8))),
        ("float32 dtype", fit(X.astype(np.float32))),
        ("float16 dtype", fit(X.astype(np.float16))),
        ("Fortran order", fit(np.asfortranarray(X))),
        ("non-contiguous", fit(np.repeat(X, 2, axis=1)[:, ::2]
                               if not pairwise else np.repeat(np.repeat(X, 2, 0), 2, 1)[::2, ::2])),
        ("read-only", fit(_read_only(X))),
        ("sparse CSR", fit(sp.csr_matrix(X))),
        ("sparse COO array", fit(sp.coo_array(X))),
        ("list of lists", fit(X.tolist())),
    ]
    # fitted on good data, then bad data at predict/transform
    def after_fit(Xt):
        def run():
            model = clone(est).fit(X, y_for(X))
            return _output(model, Xt)
        return run

    if get_tags(est).input_tags.sparse:
        cases += _malformed_sparse_cases(X, y_for(X), fit, after_fit)
    cases += [
        ("predict with NaN", after_fit(np.where(np.eye(*X.shape, dtype=bool), np.nan, X))),
        ("predict with 1e300", after_fit(X * 1e300)),
        ("predict on empty", after_fit(X[:0])),
        ("predict with other width", after_fit(X[:, :-1] if not pairwise else X[:, :-1])),
        ("predict on object", after_fit(X.astype(object))),
        ("predict unfitted", lambda: _output(clone(est), X)),
    ]
    y = y_for(X)
    cases += _param_cases(est, lambda e: _fit_output(e, X, y))
    return cases, _stress.Base(X, y, lambda e: _fit_output(e, X, y), vectors=not pairwise)


def _malformed_sparse_cases(X, y, fit, after_fit):
    """``X`` as a sparse matrix whose index arrays are inconsistent (an index beyond the shape,
    a decreasing ``indptr``, ...), at fit and after it: scipy and the cores read them unchecked."""
    cases = []
    for case, bad, _, _ in malformed(sp.csr_matrix(X)):
        cases += [(f"sparse X, {case}", fit(bad, y)),
                  (f"predict on sparse X, {case}", after_fit(bad))]
    return cases


def _read_only(X):
    X = X.copy()
    X.flags.writeable = False
    return X


def _param_cases(est, run):
    """Every numeric hyper-parameter at each extreme value, one at a time."""
    cases = []
    for name, value in sorted(est.get_params(deep=False).items()):
        if isinstance(value, bool) or name in ("verbose", "n_jobs"):
            continue
        if isinstance(value, numbers.Integral):
            # 2**63 overflows int64; as a count of repetitions it would just run forever
            extremes = INT_EXTREMES if not any(
                word in name for word in COUNT_WORDS) else INT_EXTREMES[:-1]
        elif isinstance(value, numbers.Real):
            extremes = FLOAT_EXTREMES
        else:
            continue
        for extreme in extremes:
            def case(name=name, extreme=extreme):
                return run(clone(est).set_params(**{name: extreme}))
            cases.append((f"{name}={extreme!r}", case))
    return cases


# ---------------------------------------------------------------------------------------------
# string kernels

def _fit_transform_case(est):
    """``fit(X)``: the case ``fit_transform`` of a fresh clone on ``X``."""
    return lambda X: (lambda: clone(est).fit_transform(X))


def _transform_case(est, base):
    """``after_fit(Xt)``: the case ``transform(Xt)`` of a fresh clone fitted on ``base``."""
    return lambda Xt: (lambda: clone(est).fit(base).transform(Xt))


def _proteins(rng, n=8, lo=5, hi=30):
    """``n`` random protein sequences of length ``lo`` to ``hi - 1``."""
    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    return ["".join(rng.choice(letters, int(rng.integers(lo, hi)))) for _ in range(n)]


def _string_cases(est, rng, scale):
    def strings(n=8, lo=5, hi=30):
        return _proteins(rng, n, lo, hi)

    fit = _fit_transform_case(est)

    cases = []
    for rep in range(scale):
        tag = f"#{rep}" if scale > 1 else ""
        cases += [
            (f"normal{tag}", fit(strings())),
            (f"one empty string{tag}", fit(strings(4) + [""])),
            (f"all empty{tag}", fit(["", ""])),
            (f"one letter strings{tag}", fit(list("ACDA"))),
            (f"unicode{tag}", fit(["ACDé∑🧬", "日本語ACD", "ACDEF"])),
            (f"unknown letters{tag}", fit(["XXBZJOU*-", "acdef", "ACD#@!", "ACDE"])),
            (f"duplicates{tag}", fit(strings(1) * 5)),
            (f"very different lengths{tag}", fit(strings(3, 1, 3) + strings(2, 200, 400))),
        ]
    base = strings()
    after_fit = _transform_case(est, base)
    cases += [
        ("very long", fit(strings(2, 3000, 3001))),
        ("empty list", fit([])),
        ("one string", fit(strings(1))),
        ("a single string, not a list", fit("ACDEFGH")),
        ("bytes", fit([b"ACDEF", b"ACD"])),
        ("ints in the list", fit([1, 2, 3])),
        ("None in the list", fit(["ACD", None])),
        ("numpy array of strings", fit(np.array(strings()))),
        ("2-d numeric array", fit(rng.normal(size=(4, 3)))),
        ("nested lists", fit([["A", "C"], ["D"]])),
        ("transform: unseen letters", after_fit(["ZZZZZZ", "BJOU"])),
        ("transform: empty strings", after_fit(["", ""])),
        ("transform: empty list", after_fit([])),
        ("transform: single string", after_fit("ACDEF")),
        ("transform unfitted", lambda: clone(est).transform(base)),
    ]
    cases += _param_cases(est, lambda e: e.fit_transform(base))
    return cases, _stress.Base(base, None, lambda e: e.fit_transform(base), vectors=False)


# ---------------------------------------------------------------------------------------------
# graph kernels

def _random_graph(rng, n, p=0.4, labels=3):
    """A random graph of ``n`` nodes with integer node and edge labels."""
    import networkx as nx

    g = nx.gnp_random_graph(n, p, seed=int(rng.integers(2**31)))
    nx.set_node_attributes(g, {v: int(rng.integers(labels)) for v in g}, "label")
    nx.set_edge_attributes(g, {e: int(rng.integers(2)) for e in g.edges}, "label")
    return g


def _graph_cases(est, rng, scale):
    import networkx as nx

    def graph(n, p=0.4, labels=3):
        return _random_graph(rng, n, p, labels)

    def labelled(g):
        nx.set_node_attributes(g, {v: 0 for v in g}, "label")
        nx.set_edge_attributes(g, {e: 0 for e in g.edges}, "label")
        return g

    fit = _fit_transform_case(est)

    cases = []
    for rep in range(scale):
        tag = f"#{rep}" if scale > 1 else ""
        normal = [graph(int(rng.integers(3, 9))) for _ in range(5)]
        self_loops = labelled(nx.cycle_graph(4))
        self_loops.add_edge(0, 0)
        self_loops.add_edge(2, 2)
        isolated = graph(5)
        isolated.add_node(99, label=1)
        cases += [
            (f"normal{tag}", fit(normal)),
            (f"graph with no nodes{tag}", fit([nx.Graph()] + normal[:2])),
            (f"only graphs with no nodes{tag}", fit([nx.Graph(), nx.Graph()])),
            (f"graph with no edges{tag}", fit([labelled(nx.empty_graph(4))] + normal[:2])),
            (f"single-node graphs{tag}", fit([labelled(nx.empty_graph(1))] * 3)),
            (f"self-loops{tag}", fit([self_loops] + normal[:2])),
            (f"isolated nodes{tag}", fit([isolated] + normal[:2])),
            (f"directed{tag}", fit([labelled(nx.DiGraph(nx.path_graph(4)))] + normal[:2])),
            (f"multigraph{tag}", fit([labelled(nx.MultiGraph([(0, 1), (0, 1), (1, 2)]))]
                                     + normal[:2])),
            (f"missing node labels{tag}", fit([nx.path_graph(4), nx.cycle_graph(5)])),
            (f"some labels missing{tag}", fit([_drop_label(graph(5))] + normal[:2])),
            (f"unhashable labels{tag}", fit([_set_labels(nx.path_graph(3), [[1], [2], [3]])])),
            (f"mixed label types{tag}", fit([_set_labels(nx.path_graph(3), [1, "a", 2.5])]
                                            + normal[:2])),
            (f"float and NaN labels{tag}",
             fit([_set_labels(nx.path_graph(3), [0.5, np.nan, 1.0])] + normal[:2])),
            (f"complete graph{tag}", fit([labelled(nx.complete_graph(12))] + normal[:2])),
            (f"duplicates{tag}", fit(normal[:1] * 4)),
        ]
    base = [graph(int(rng.integers(3, 9))) for _ in range(5)]
    after_fit = _transform_case(est, base)
    A = np.array([[0, 1], [1, 0]])
    cases += [
        ("empty list", fit([])),
        ("a single graph, not a list", fit(base[0])),
        ("a single tuple, not a list", fit((A, [0, 1]))),
        ("ints in the list", fit([1, 2])),
        ("None in the list", fit([base[0], None])),
        ("tuple: non-square adjacency", fit([(np.ones((2, 3)), [0, 1])])),
        ("tuple: labels of the wrong length", fit([(A, [0, 1, 2])])),
        ("tuple: NaN adjacency", fit([(np.array([[0, np.nan], [np.nan, 0]]), [0, 1])])),
        ("tuple: weighted adjacency", fit([(np.array([[0, 2.5], [2.5, 0]]), [0, 1])])),
        ("tuple: asymmetric adjacency", fit([(np.array([[0, 1], [0, 0]]), [0, 1])])),
        ("tuple: negative adjacency", fit([(-A, [0, 1])])),
        ("tuple: 3-d adjacency", fit([(np.ones((2, 2, 2)), [0, 1])])),
        ("tuple: empty adjacency", fit([(np.empty((0, 0)), [])])),
        ("tuple: one element", fit([(A,)])),
        ("numpy array of graphs", fit(np.array([None] * 2))),
        ("2-d numeric array", fit(rng.normal(size=(4, 3)))),
        ("transform: unseen labels", after_fit([_set_labels(nx.path_graph(3), [7, 8, 9])])),
        ("transform: graph with no nodes", after_fit([nx.Graph()])),
        ("transform: empty list", after_fit([])),
        ("transform: single graph", after_fit(base[0])),
        ("transform: large dense graph", after_fit([labelled(nx.complete_graph(25))])),
        ("transform unfitted", lambda: clone(est).transform(base)),
        # unlabelled graphs (the unlabeled_nodes rule) in every form, and mixed with labelled
        ("bare sparse adjacencies", fit([nx.to_scipy_sparse_array(g) for g in base])),
        ("bare dense adjacencies", fit([nx.to_numpy_array(g) for g in base])),
        ("labelled and unlabelled graphs", fit([base[0], nx.path_graph(4)])),
        ("transform: unlabelled graphs", after_fit([nx.path_graph(4)])),
    ]
    cycle = sp.csr_matrix(nx.to_scipy_sparse_array(nx.cycle_graph(4)))
    cases += [(f"tuple: sparse adjacency, {case}", fit([(bad, [0, 1, 0, 1])]))
              for case, bad, _, _ in malformed(cycle)]
    cases += _attribute_cases(est, rng)
    cases += _param_cases(est, lambda e: e.fit_transform(base))
    return cases, _stress.Base(base, None, lambda e: e.fit_transform(base), vectors=False)


def _attribute_cases(est, rng):
    """Continuous node attributes at extreme scales, for the kernels that take them (with each
    node kernel they offer): a finite Gram or a clear error, never inf or NaN."""
    if "node_attributes" not in est.get_params():
        return []
    options = [getattr(c, "options", None) for c in
               type(est)._parameter_constraints.get("kernel", [])]
    node_kernels = sorted(next((o for o in options if o), [None]))
    graphs = [_random_graph(rng, int(rng.integers(3, 9))) for _ in range(4)]
    attributes = [rng.normal(size=(len(g), 2)) for g in graphs]

    def attributed(scale):
        out = []
        for g, x in zip(graphs, attributes):
            g = g.copy()
            for v, row in zip(g.nodes, x * scale):
                g.nodes[v]["attributes"] = row
            out.append(g)
        return out

    cases = []
    # attributes alone, and times the node labels (the product node kernel)
    for node_kernel, node_label in itertools.product(node_kernels, (None, "label")):
        params = {"node_attributes": "attributes", "node_label": node_label}
        if node_kernel is not None:
            params["kernel"] = node_kernel
        model = clone(est).set_params(**params)
        for scale in (1.0, 1e-300, 1e154, 1e300):
            cases.append((f"attributes*{scale:g}, {params}",
                          lambda model=model, X=attributed(scale): clone(model).fit_transform(X)))
    return cases


def _drop_label(g):
    del g.nodes[next(iter(g.nodes))]["label"]
    return g


def _set_labels(g, labels):
    for v, label in zip(g.nodes, labels):
        g.nodes[v]["label"] = label
    return g


# ---------------------------------------------------------------------------------------------
# properties of the kernels on strings and graphs, on generated objects

def _assert_close(actual, expected, what):
    """An AssertionError (a finding) unless ``actual`` equals ``expected`` to 1e-10 of the
    largest entry."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    scale = max(float(np.abs(expected).max(initial=0.0)), np.finfo(float).tiny)
    if actual.shape != expected.shape or not np.allclose(actual, expected, rtol=1e-10,
                                                         atol=1e-10 * scale):
        gap = np.abs(actual - expected).max() if actual.shape == expected.shape else "shapes"
        raise AssertionError(f"{what} (largest difference {gap})")


def _features_case(est, fitted_objects, new_objects, normalize):
    """``Φ(Y) Φ(X)ᵀ = transform(Y)`` and ``Φ(X) Φ(X)ᵀ = fit_transform(X)``."""
    def case():
        # one kernel object throughout: what random_state=None draws at fit is kept
        fitted = clone(est).set_params(normalize=normalize)
        K = fitted.fit_transform(fitted_objects)
        phi_fit = fitted.transform_features(fitted_objects)
        phi_new = fitted.transform_features(new_objects)
        _assert_close((phi_new @ phi_fit.T).toarray(), fitted.transform(new_objects),
                      f"transform_features products differ from transform (normalize={normalize})")
        _assert_close((phi_fit @ phi_fit.T).toarray(), K,
                      f"transform_features products differ from fit_transform "
                      f"(normalize={normalize})")
        return phi_new
    return case


def _training_set_case(est, G, H, fit_sets, normalize):
    """``k(G, H)`` from ``transform([G])`` with H fitted among each set of ``fit_sets`` (H's
    position in each given), and from ``fit_transform`` with G appended: all equal."""
    kernel = clone(est).set_params(normalize=normalize)
    if "random_state" in kernel.get_params():
        kernel.set_params(random_state=0)       # None draws anew at every fit, by definition
    if kernel.get_params().get("alphabet", "given") is None:
        # documented: an inferred alphabet is part of the training set (the mismatch balls,
        # the letters skipped)
        kernel.set_params(alphabet="ACDEG")

    def case():
        values = []
        for fitted_objects, at_h in fit_sets:
            values.append(clone(kernel).fit(fitted_objects).transform([G])[0, at_h])
            K = clone(kernel).fit_transform(fitted_objects + [G])
            values.append(K[len(fitted_objects), at_h])
        _assert_close(values, np.full(len(values), values[0]),
                      f"k(G, H) changes with the other fitted objects (normalize={normalize}): "
                      f"{np.round(values, 6).tolist()}")
        return np.array(values)
    return case


def _fit_sets(H, others, rng):
    """H among none, some and all of ``others``, in shuffled orders: ``(objects, H's index)``."""
    sets = []
    for n_others in (0, len(others) // 2, len(others)):
        objects = [others[i] for i in rng.choice(len(others), n_others, replace=False)] + [H]
        order = rng.permutation(len(objects))
        sets.append(([objects[i] for i in order], int(np.argmax(order == n_others))))
    return sets


def _small_integer_settings(est):
    """The defaults, and each integer parameter at 3 where its default is None or larger: few
    hash bits, few samples, short walks (where collisions and draws depend most on coding)."""
    settings = [{}]
    for name, value in sorted(est.get_params(deep=False).items()):
        constraints = getattr(est, "_parameter_constraints", {}).get(name, [])
        takes_integers = any(getattr(c, "type", None) is numbers.Integral for c in constraints)
        small = value is None or (isinstance(value, numbers.Integral)
                                  and not isinstance(value, bool) and value > 3)
        if takes_integers and small and name not in ("n_jobs", "verbose"):
            settings.append({name: 3})
    return settings


def _property_cases(est, objects, G, H, others, rng):
    """The properties of a kernel on strings or graphs, on generated ``objects`` (fitted and
    new ones), and on G and H fitted among ``others``."""
    from kernelkit.kernels import StructuredKernel

    if not isinstance(est, StructuredKernel):
        return []
    cases = []
    fit_sets = _fit_sets(H, others, rng)
    for setting in _small_integer_settings(est):
        kernel = clone(est).set_params(**setting)
        where = "".join(f", {name}={value}" for name, value in setting.items())
        for normalize in (False, True):
            if hasattr(kernel, "transform_features"):
                half = len(objects) // 2
                cases.append((f"features: Φ Φᵀ is the Gram (normalize={normalize}{where})",
                              _features_case(kernel, objects[:half], objects[half:], normalize)))
            cases.append((f"training set: k(G, H) whatever else is fitted "
                          f"(normalize={normalize}{where})",
                          _training_set_case(kernel, G, H, fit_sets, normalize)))
    return cases


def _string_properties(est, rng):
    """Equal-length proteins over five letters (what every string kernel takes, the weighted
    degree kernel included, in a feature space small enough to build), the first holding every
    letter, some repeating one (few distinct k-mers) or sharing long stretches; G has a k-mer of
    H and letters of H only."""
    letters = np.array(list("ACDEG"))

    def protein(alphabet=letters, n=12):
        return "".join(rng.choice(alphabet, n))
    objects = ["ACDEGACDEGAC"] + [protein() for _ in range(5)] + ["A" * 12, "AC" * 6]
    objects += [objects[1][:6] + protein(n=6), protein(letters[:2])]
    H = protein()
    G = H[:5] + protein(np.array(sorted(set(H))), 7)
    return _property_cases(est, objects, G, H, [protein() for _ in range(6)], rng)


def _graph_properties(est, rng):
    """Small labelled graphs with attributes (single nodes, no edges, labels of several types);
    G has a label that no other graph has."""
    def graph(n, labels=("C", "N", "O", 1, 2.5)):
        upper = np.triu(rng.random((n, n)) < 0.4, 1)
        edge_labels = np.triu(rng.integers(1, 3, size=(n, n)), 1)
        node_labels = [labels[i] for i in rng.integers(len(labels), size=n)]
        return ((upper | upper.T).astype(int), node_labels, edge_labels + edge_labels.T,
                rng.normal(size=(n, 2)))
    objects = [graph(int(rng.integers(1, 8))) for _ in range(9)] + [graph(4, ("C",))]
    # six labels in all around G and H: fewer than 3-bit label hashes can tell apart
    G, H = graph(6), graph(5)
    G[1][0] = ("fresh", 7)
    return _property_cases(est, objects, G, H, [graph(int(rng.integers(1, 8)))
                                                for _ in range(6)], rng)


# ---------------------------------------------------------------------------------------------
# loaders

FASTA_FILES = {
    "empty file": b"",
    "only a header": b">a\n",
    "no header": b"ACDEF\n",
    "headers only": b">a\n>b\n>c\n",
    "windows line ends": b">a\r\nACD\r\nEF\r\n>b\r\nGH\r\n",
    "binary junk": bytes(range(256)),
    "invalid utf-8": b">a\n\xff\xfe\xfa\n",
    "unicode letters": ">é\nACDé∑🧬\n".encode(),
    "blank and comments": b"\n\n;c\n>a\n\n  AC D \n;x\n",
    "very long line": b">a\n" + b"ACDEFGHIKL" * 100_000 + b"\n",
    "nul bytes": b">a\nAC\x00DE\n",
    "no trailing newline": b">a\nACD",
}


def _tu_files(rng):
    """Malformed TU folders: name -> {suffix: text}."""
    good = {"A": "1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n", "graph_indicator": "1\n1\n1\n2\n2\n",
            "graph_labels": "1\n-1\n", "node_labels": "0\n1\n0\n2\n2\n"}

    def variant(**changes):
        files = dict(good)
        for key, value in changes.items():
            if value is None:
                files.pop(key)
            else:
                files[key] = value
        return files

    return {
        "well formed": variant(),
        "missing A": variant(A=None),
        "missing indicator": variant(graph_indicator=None),
        "missing graph labels": variant(graph_labels=None),
        "empty A": variant(A=""),
        "all files empty": {key: "" for key in good},
        "node id 0": variant(A="0, 1\n1, 0\n"),
        "node id beyond the indicator": variant(A="1, 10\n10, 1\n"),
        "negative node id": variant(A="-1, 2\n"),
        "edge across graphs": variant(A="3, 4\n4, 3\n"),
        "non-integer entries": variant(A="a, b\n"),
        "float entries": variant(A="1.5, 2\n"),
        "one column": variant(A="1\n2\n"),
        "three columns": variant(A="1, 2, 3\n"),
        "NaN node label": variant(node_labels="nan\n1\n0\n2\n2\n"),
        "too few node labels": variant(node_labels="0\n1\n"),
        "too many graph labels": variant(graph_labels="1\n1\n1\n"),
        "too few graph labels": variant(graph_labels="1\n"),
        "indicator not sorted": variant(graph_indicator="2\n1\n1\n2\n1\n"),
        "indicator with a gap": variant(graph_indicator="1\n1\n1\n3\n3\n"),
        "indicator from 0": variant(graph_indicator="0\n0\n0\n1\n1\n"),
        "huge node id": variant(A=f"1, {2**62}\n"),
        "node label beyond 64 bits": variant(node_labels=f"{2**70}\n1\n0\n2\n2\n"),
        "whitespace-only lines": variant(A="1, 2\n  \n2, 1\n"),
        "edge labels misaligned": variant(edge_labels="1\n"),
        "string graph labels": variant(graph_labels="active\ninactive\n"),
        "binary junk": variant(A=bytes(range(256)).decode("latin-1")),
    }


def _loader_cases(rng, scale, tmp):
    from kernelkit.datasets import fetch_tudataset, fetch_uci_splice, load_tudataset, read_fasta

    cases = []
    for name, content in FASTA_FILES.items():
        path = tmp / f"{len(cases)}.fasta"
        path.write_bytes(content)
        cases.append((f"read_fasta: {name}", lambda path=path: read_fasta(path)))
    cases.append(("read_fasta: missing file", lambda: read_fasta(tmp / "absent.fasta")))
    cases.append(("read_fasta: a directory", lambda: read_fasta(tmp)))
    for rep in range(scale):
        tag = f"#{rep}" if scale > 1 else ""
        letters = rng.choice(list(">ACD\n;\r é"), 400)
        path = tmp / f"random{rep}.fasta"
        path.write_text("".join(letters), encoding="utf-8")
        cases.append((f"read_fasta: random characters{tag}", lambda path=path: read_fasta(path)))
    for name, files in _tu_files(rng).items():
        folder = tmp / f"tu{len(cases)}"
        folder.mkdir()
        for suffix, text in files.items():
            (folder / f"T_{suffix}.txt").write_text(text, encoding="latin-1")
        for as_networkx in (True, False):
            cases.append((f"load_tudataset: {name} (as_networkx={as_networkx})",
                          lambda folder=folder, nx=as_networkx: _tu_output(
                              load_tudataset(folder, "T", as_networkx=nx))))
    cases.append(("load_tudataset: missing folder",
                  lambda: load_tudataset(tmp / "absent", "T")))
    return cases + _fetch_cases(fetch_tudataset, fetch_uci_splice, tmp)


def _fetch_cases(fetch_tudataset, fetch_uci_splice, tmp):
    """The fetchers' bad parameters, which must be refused before any download (the address,
    where one is needed, is a port of this machine where nothing listens)."""
    offline = "http://127.0.0.1:9"
    return [
        ("fetch_tudataset: name of 255 characters",
         lambda: fetch_tudataset("A" * 255, tmp, base_url=offline)),
        ("fetch_tudataset: data_home=''", lambda: fetch_tudataset("T", "", base_url=offline)),
        ("fetch_tudataset: base_url=5", lambda: fetch_tudataset("T", tmp, base_url=5)),
        ("fetch_uci_splice: data_home=''", lambda: fetch_uci_splice("", base_url=offline)),
        ("fetch_uci_splice: base_url=5", lambda: fetch_uci_splice(tmp, base_url=5)),
    ]


def _tu_output(data):
    """A loaded set is also used: a WL Gram of its graphs."""
    from kernelkit.kernels import WeisfeilerLehmanKernel

    return WeisfeilerLehmanKernel(n_iter=2).fit_transform(data.graphs), data.target


# ---------------------------------------------------------------------------------------------

def larger_run(est, rng):
    """``run(model)``: fits ``model`` (``est`` or a variant of it) on good data of ``est``'s input
    type, a few hundred objects (enough for the cores to start a team of threads: the fuzz's
    other data are too small for most), and returns its output."""
    tags = get_tags(est).input_tags
    if tags.string:
        strings = _proteins(rng, 40, 120, 121)    # one length: the weighted degree kernel's
        return lambda model: clone(model).fit_transform(strings)
    if not tags.two_d_array:
        graphs = [_random_graph(rng, int(rng.integers(8, 17)), p=0.12) for _ in range(60)]
        return lambda model: clone(model).fit_transform(graphs)
    X = _array_data(est, rng, 300, 5)
    if tags.positive_only:        # counts (a Poisson mixture)
        X = np.abs(X)
    y = _target(est, len(X), rng) if _needs_y(est) else None
    return lambda model: _fit_output(clone(model), X, y)


def _stress_cases(est, base, rng, scale):
    """``(kind, name, thunk)`` of the misuse classes of ``_stress.py`` that apply to ``est``."""
    found = [("threads", case) for case in _stress.thread_cases(est, base.run, rng, scale)]
    found += [("interplay", case) for case in _stress.interplay_cases(est, base.run, rng, scale)]
    found += [("sequences", case) for case in _stress.sequence_cases(est, base, rng, scale)]
    found += [("sizes", case) for case in _stress.size_cases(est, base.run, rng, scale)]
    if base.vectors:
        found += [("wide", case) for case in _stress.wide_cases(est, rng, scale)]
    found += [("kernels", case) for case in _stress.kernel_cases(est, base.run, rng, scale)]
    # data of its own seed: the draws of the other classes stay those they were without it
    found += [("fork", case) for case in _stress.fork_cases(
        est, larger_run(est, np.random.default_rng(0)))]
    return [(kind, name, thunk) for kind, (name, thunk) in found]


def _function_data(func, rng):
    """Good arguments for the required parameters of ``func``, chosen by parameter name (and,
    for ``X`` of a structured kernel's function form, by the input tags of its class); None
    when a required parameter has no generator."""
    from kernelkit import kernels

    n = 20
    X = rng.normal(size=(n, 3))
    K = X @ X.T
    twin = getattr(kernels, func.__name__.title().replace("_", ""), None)
    if twin is not None and get_tags(twin()).input_tags.string:
        X = _proteins(rng)
    elif twin is not None and not get_tags(twin()).input_tags.two_d_array:
        X = [_random_graph(rng, int(rng.integers(3, 9))) for _ in range(5)]
    known = {"X": X, "K": K, "Ks": [K, K + np.eye(n)],
             "dissimilarities": np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
             if isinstance(X, np.ndarray) else None,
             "labels": np.arange(n) % 3, "y": np.where(np.arange(n) % 2, 1.0, -1.0),
             "n_clusters": 3, "k_values": [1, 2, 3], "n_samples": 100, "n_features": 100,
             "n_nonzero": 5, "u": np.linspace(-3, 3, n), "eta": np.linspace(0, 1, n),
             "y_true": rng.normal(size=n), "y_pred": rng.normal(size=n)}
    data = {}
    for name, param in inspect.signature(func).parameters.items():
        if param.default is not inspect.Parameter.empty or param.kind in (
                param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        if known.get(name) is None:
            return None
        data[name] = known[name]
    return data


def _functions_cases(rng, scale):
    out = []
    for func in public_functions():
        data = _function_data(func, rng)
        if data is not None:
            out += [(kind, f"{func.__name__}: {name}", thunk)
                    for kind, name, thunk in _stress.function_cases(func, data, rng, scale)]
            if isinstance(data.get("X"), np.ndarray):
                # functions that take sparse X read its indices; the others must refuse it
                out += [("inputs", f"{func.__name__}: sparse X, {case}",
                         lambda func=func, data=data, bad=bad: func(**{**data, "X": bad}))
                        for case, bad, _, _ in malformed(sp.csr_matrix(data["X"]))]
        if data is not None and "Ks" in data:   # a stack of Gram matrices that do not stack
            K = data["Ks"][0]
            out.append(("inputs", f"{func.__name__}: Ks of different shapes",
                        lambda func=func, data=data, K=K: func(**{**data,
                                                                  "Ks": [K, K[:-1, :-1]]})))
    return out


def cases(group, scale, tmp):
    """The ``(kind, name, thunk)`` cases of one group, the same on every run."""
    rng = np.random.default_rng(abs(hash_name(group)))
    if group == "loaders":
        return [("inputs", name, thunk)
                for name, thunk in _loader_cases(rng, scale, pathlib.Path(tmp))]
    if group == "functions":
        return _functions_cases(rng, scale)
    cls = {c.__name__: c for c in public_estimators()}[group]
    out = []
    for i, est in enumerate(_instances(cls)):
        tags = get_tags(est).input_tags
        if tags.string:
            found, base = _string_cases(est, rng, scale)
        elif tags.two_d_array:
            found, base = _array_cases(est, rng, scale)
        else:
            found, base = _graph_cases(est, rng, scale)
        found = [("inputs", name, thunk) for name, thunk in found]
        found += _stress_cases(est, base, rng, scale)
        if not tags.two_d_array:
            properties = _string_properties if tags.string else _graph_properties
            found += [("properties", name, thunk) for name, thunk in properties(est, rng)]
        # one line: a long repr wraps, and the progress file has a line per record
        prefix = " ".join(repr(est).split()) + ": " if len(_instances(cls)) > 1 else ""
        out += [(kind, prefix + name, thunk) for kind, name, thunk in found]
    return out


def hash_name(name):
    """A stable seed from a name (``hash`` of a str changes between processes)."""
    return int.from_bytes(name.encode()[:8].ljust(8, b"\0"), "little") % 2**32
