"""The rows of the speed matrix: every public estimator and kernel at its defaults, and the
public compiled functions, each with its peer and how their results are compared.

A row names what kernelkit runs, the data it runs on at three sizes, its peer (scikit-learn's
estimator of the same name, else GraKeL's kernel, libsvm or a SciPy formulation; rows without a
peer time kernelkit alone, its pure-Python twins are timed by the suites) and the engines of the
``bench`` extra that implement the same thing. Rows use kernelkit's public API only, so that
they run unchanged against an older wheel (``--baseline``).

Sizes: ``small`` is what one fit on a laptop sees (about 1 000 rows, 100 graphs or sequences),
``medium`` about 100 000 rows or 2 000 graphs, ``large`` about 10⁶ rows or 20 000 graphs; a
method whose time grows faster than linearly gets smaller sizes (``cost`` 2 or 3 scales them),
and the runner drops a contender from a size its previous time says would pass the budget.
"""

import dataclasses
import importlib
from typing import Callable

import numpy as np

from kernelkit.bench.matrix import _data

SIZES = ("small", "medium", "large")
# rows (or graphs, sequences) at each size, by how the method's time grows with n
ROWS_BY_COST = {
    1: (1_000, 100_000, 1_000_000),
    2: (1_000, 10_000, 30_000),
    3: (500, 3_000, 8_000),
}
OBJECTS = (100, 2_000, 20_000)  # sequences and graphs of the structured kernels


@dataclasses.dataclass
class Contender:
    """One implementation of a row: ``run(data) -> output`` is timed, ``outcome(output, data)``
    (untimed) gives what the check compares."""

    name: str
    run: Callable
    requires: tuple = ()

    def missing(self):
        return [m for m in self.requires if importlib.util.find_spec(m) is None]


@dataclasses.dataclass
class Row:
    """One line of the matrix at each size.

    Parameters
    ----------
    name : str
        What is timed, e.g. ``"KMeans"``, ``"SpectrumKernel"``, ``"KMeans k=25, one iteration"``.
    family : str
        kernelkit's subpackage.
    sizes : tuple of int
        ``n`` at small, medium and large (None: not run at that size).
    setup : callable
        ``setup(n) -> data``, deterministic.
    kernelkit : callable
        ``run(data) -> output``.
    peers : list of Contender
        scikit-learn (or GraKeL, libsvm, the twin), then the engines of the bench extra.
    outcome : callable
        ``outcome(output, data) -> value`` compared between kernelkit and each peer.
    compare : callable
        ``compare(kernelkit_value, peer_value) -> (text, ok)``.
    cost : int
        Exponent of the time's growth with ``n`` (the runner's budget estimate).
    peer_max_n : int or None
        Largest ``n`` at which the first peer runs (None: every size).
    """

    name: str
    family: str
    sizes: tuple
    setup: Callable
    kernelkit: Callable
    peers: list
    outcome: Callable
    compare: Callable
    cost: int = 1
    peer_max_n: int = None


# ------------------------------------------------------------------------------------ checks


def _accuracy(model, data):
    return model.predict(data["X_test"])


def _compare_labels(a, b):
    agree = float(np.mean(np.asarray(a) == np.asarray(b)))
    return f"same prediction {agree:.1%}", agree >= 0.97


def _compare_regression(a, b):
    """Test-set predictions: relative RMS difference to the predictions' spread."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    diff = float(np.sqrt(np.mean((a - b) ** 2)) / (np.std(b) + 1e-300))
    return f"Δpred/σ {diff:.2g}", diff <= 0.1


def _compare_clusters(a, b):
    from sklearn.metrics import adjusted_rand_score

    ari = adjusted_rand_score(a, b)
    return f"ARI {ari:.3f}", ari >= 0.9


def _compare_embeddings(a, b):
    """Embeddings equal up to an orthogonal map: compare their Gram matrices ``Z Zᵀ``."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape:
        return f"shapes {a.shape} vs {b.shape}", False
    Ga, Gb = a @ a.T, b @ b.T
    diff = float(np.abs(Ga - Gb).max() / (np.abs(Gb).max() + 1e-300))
    return f"rel Δ(ZZᵀ) {diff:.1e}", diff <= 1e-6


def _compare_grams(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape:
        return f"shapes {a.shape} vs {b.shape}", False
    diff = float(np.abs(a - b).max() / (np.abs(b).max() + 1e-300))
    return f"rel max ΔK {diff:.1e}", diff <= 1e-8


def _compare_scalars(a, b):
    diff = abs(float(a) - float(b)) / (abs(float(b)) + 1e-300)
    return f"rel Δ {diff:.1e}", diff <= 1e-6


def _not_compared(a, b):
    return "random: not compared", True


# ------------------------------------------------------------------------------ estimators


def _import(path):
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _fit(path, params, kind):
    def run(data):
        cls = _import(path)
        est = cls(**params)
        if kind in ("cluster",):
            return est.fit(data["X"])
        if kind == "transformer" and data.get("y") is None:
            return est.fit(data["X"])
        return est.fit(data["X"], data["y"])
    return run


def _kind_data(kind, cost):
    def setup(n):
        if kind == "regressor":
            X, y, X_test, y_test = _data.regression(n)
        elif kind == "cluster":
            return dict(X=_data.blobs(n))
        else:
            X, y, X_test, y_test = _data.classification(n)
        return dict(X=X, y=y if kind != "transformer" else None, X_test=X_test[:500],
                    y_test=y_test)
    return setup


_OUTCOMES = {
    "classifier": (_accuracy, _compare_labels),
    "regressor": (_accuracy, _compare_regression),
    "cluster": (lambda model, data: model.labels_, _compare_clusters),
    "transformer": (lambda model, data: model.transform(data["X_test"]), _compare_embeddings),
}

# sklearnex implements these (same names, same parameters)
_SKLEARNEX = {"KMeans", "DBSCAN", "PCA", "LogisticRegression", "LinearRegression", "Ridge", "SVC",
              "SVR", "KNeighborsClassifier", "KNeighborsRegressor", "RandomForestClassifier",
              "RandomForestRegressor"}


def _estimator_row(family, name, kind, sklearn_module=None, cost=1, params=None,
                   peer_params=None, outcome=None, sizes=None, extra_peers=()):
    """A row of a kernelkit estimator against scikit-learn's estimator of the same name."""
    params = dict(params or {})
    outcome_fn, compare = _OUTCOMES[kind]
    if outcome is not None:
        outcome_fn, compare = outcome
    peers = []
    if sklearn_module is not None:
        sk_params = dict(params if peer_params is None else peer_params)
        peers.append(Contender("scikit-learn", _fit(f"sklearn.{sklearn_module}.{name}",
                                                    sk_params, kind), ("sklearn",)))
        if name in _SKLEARNEX:
            peers.append(Contender("sklearnex", _fit(f"sklearnex.{sklearn_module}.{name}",
                                                     sk_params, kind), ("sklearnex",)))
    peers.extend(extra_peers)
    return Row(name=name, family=family, sizes=sizes or ROWS_BY_COST[cost],
               setup=_kind_data(kind, cost),
               kernelkit=_fit(f"kernelkit.{family}.{name}", params, kind), peers=peers,
               outcome=outcome_fn, compare=compare, cost=cost)


def _boosting_engines(kind):
    def lightgbm(data):
        import lightgbm

        cls = lightgbm.LGBMClassifier if kind == "classifier" else lightgbm.LGBMRegressor
        return cls(verbose=-1).fit(data["X"], data["y"])

    def xgboost(data):
        import xgboost

        cls = xgboost.XGBClassifier if kind == "classifier" else xgboost.XGBRegressor
        return cls(tree_method="hist", grow_policy="lossguide", max_leaves=31, max_depth=0,
                   n_estimators=100, learning_rate=0.1).fit(data["X"], data["y"])

    return [Contender("LightGBM", lightgbm, ("lightgbm",)),
            Contender("XGBoost", xgboost, ("xgboost",))]


def _estimator_rows():
    rs = dict(random_state=0)
    rows = [
        # clustering
        _estimator_row("cluster", "KMeans", "cluster", "cluster", params=rs),
        _estimator_row("cluster", "DBSCAN", "cluster", "cluster", params=dict(eps=3.0),
                       cost=2),
        _estimator_row("cluster", "AgglomerativeClustering", "cluster", "cluster", cost=2),
        _estimator_row("cluster", "KMedians", "cluster", params=rs),
        _estimator_row("cluster", "KMedoids", "cluster", params=rs, cost=2),
        _estimator_row("cluster", "SpectralClustering", "cluster", "cluster", params=rs, cost=2),
        # supervised, vector data
        _estimator_row("svm", "SVC", "classifier", "svm", cost=2),
        _estimator_row("svm", "SVR", "regressor", "svm", cost=2),
        _estimator_row("svm", "LinearSVC", "classifier", "svm", params=rs),
        _estimator_row("svm", "SquaredHingeSVC", "classifier", cost=2),
        _estimator_row("svm", "SquaredEpsilonSVR", "regressor", cost=2),
        _estimator_row("neighbors", "KNeighborsClassifier", "classifier", "neighbors",
                       sizes=(1_000, 100_000, 300_000)),
        _estimator_row("neighbors", "KNeighborsRegressor", "regressor", "neighbors",
                       sizes=(1_000, 100_000, 300_000)),
        _estimator_row("tree", "DecisionTreeClassifier", "classifier", "tree", params=rs),
        _estimator_row("tree", "DecisionTreeRegressor", "regressor", "tree", params=rs),
        _estimator_row("ensemble", "RandomForestClassifier", "classifier", "ensemble",
                       params=rs, sizes=(1_000, 100_000, 300_000)),
        _estimator_row("ensemble", "RandomForestRegressor", "regressor", "ensemble",
                       params=rs, sizes=(1_000, 30_000, 100_000)),
        _estimator_row("ensemble", "HistGradientBoostingClassifier", "classifier", "ensemble",
                       params=rs, extra_peers=_boosting_engines("classifier")),
        _estimator_row("ensemble", "HistGradientBoostingRegressor", "regressor", "ensemble",
                       params=rs, extra_peers=_boosting_engines("regressor")),
        _estimator_row("ensemble", "GradientBoostingClassifier", "classifier", "ensemble",
                       params=rs, sizes=(1_000, 30_000, 100_000)),
        _estimator_row("ensemble", "GradientBoostingRegressor", "regressor", "ensemble",
                       params=rs, sizes=(1_000, 30_000, 100_000)),
        _estimator_row("ensemble", "AdaBoostClassifier", "classifier", "ensemble", params=rs),
        _estimator_row("ensemble", "BaggingClassifier", "classifier", "ensemble", params=rs,
                       sizes=(1_000, 30_000, 100_000)),
        _estimator_row("ensemble", "BaggingRegressor", "regressor", "ensemble", params=rs,
                       sizes=(1_000, 30_000, 100_000)),
        _estimator_row("linear_model", "LinearRegression", "regressor", "linear_model"),
        _estimator_row("linear_model", "Ridge", "regressor", "linear_model"),
        _estimator_row("linear_model", "LogisticRegression", "classifier", "linear_model"),
        _estimator_row("linear_model", "NearestCentroid", "classifier", "neighbors"),
        # a linear program (HiGHS): its time grows faster than n, estimated as n²
        _estimator_row("linear_model", "LeastAbsoluteDeviation", "regressor", cost=2),
        _estimator_row("kernel_ridge", "KernelRidge", "regressor", "kernel_ridge", cost=3),
        _estimator_row("kernel_ridge", "KernelLogisticRegression", "classifier", cost=3),
        _estimator_row("discriminant_analysis", "LinearDiscriminantAnalysis", "classifier",
                       "discriminant_analysis"),
        _estimator_row("discriminant_analysis", "QuadraticDiscriminantAnalysis", "classifier",
                       "discriminant_analysis"),
        _estimator_row("discriminant_analysis", "FisherDiscriminantAnalysis", "classifier"),
        _estimator_row("discriminant_analysis", "KernelFisherDiscriminantAnalysis",
                       "classifier", cost=3),
        _estimator_row("discriminant_analysis", "MixedNaiveBayes", "classifier"),
        _estimator_row("mixture", "GaussianMixture", "cluster", "mixture",
                       params=dict(n_components=8, random_state=0),
                       outcome=(lambda m, d: m.predict(d["X"]), _compare_clusters)),
        # dimensionality reduction and embeddings
        _estimator_row("decomposition", "PCA", "transformer", "decomposition"),
        _estimator_row("decomposition", "KernelPCA", "transformer", "decomposition", cost=3),
        _estimator_row("decomposition", "GaussianRandomProjection", "transformer",
                       "random_projection", params=dict(n_components=10, random_state=0),
                       outcome=(lambda m, d: m.transform(d["X_test"]), _not_compared)),
        _estimator_row("decomposition", "SparseRandomProjection", "transformer",
                       "random_projection", params=dict(n_components=10, random_state=0),
                       outcome=(lambda m, d: m.transform(d["X_test"]), _not_compared)),
        _estimator_row("kernel_approximation", "KernelNystroem", "transformer", params=rs,
                       outcome=(lambda m, d: m.transform(d["X_test"]), _not_compared)),
        _estimator_row("kernel_approximation", "RandomFourierFeatures", "transformer",
                       params=rs, outcome=(lambda m, d: m.transform(d["X_test"]),
                                           _not_compared)),
        _estimator_row("manifold", "ClassicalMDS", "transformer", cost=2,
                       outcome=(lambda m, d: m.embedding_, _compare_embeddings)),
        _estimator_row("manifold", "MDS", "transformer", "manifold", params=rs, cost=2,
                       outcome=(lambda m, d: m.embedding_, _not_compared)),
        _estimator_row("manifold", "SammonMapping", "transformer", params=rs, cost=2,
                       outcome=(lambda m, d: m.embedding_, _not_compared)),
        _estimator_row("manifold", "SpectralEmbedding", "transformer", "manifold", params=rs,
                       cost=2, outcome=(lambda m, d: m.embedding_, _compare_embeddings)),
    ]
    return rows


def _mixture_rows():
    def poisson_data(n):
        rng = np.random.default_rng(_data.SEED)
        rates = rng.uniform(1, 20, size=(3, 5))
        z = rng.integers(0, 3, n)
        return dict(X=rng.poisson(rates[z]).astype(float))

    def mlr_data(n):
        rng = np.random.default_rng(_data.SEED)
        X = rng.normal(size=(n, 5))
        z = rng.integers(0, 2, n)
        coef = np.array([[1.0, -2, 0.5, 0, 3], [-1.0, 2, 0, 1, -3]])
        return dict(X=X, y=np.einsum("ij,ij->i", X, coef[z]) + 0.1 * rng.normal(size=n))

    def fit(name, with_y):
        def run(data):
            est = _import(f"kernelkit.mixture.{name}")(random_state=0)
            return est.fit(data["X"], data["y"]) if with_y else est.fit(data["X"])
        return run

    def log_likelihood(model, data):
        return model.lower_bound_ if hasattr(model, "lower_bound_") else np.nan

    return [Row("PoissonMixture", "mixture", ROWS_BY_COST[1], poisson_data,
                fit("PoissonMixture", False), [], log_likelihood, _compare_scalars),
            Row("MixtureOfLinearRegressions", "mixture", ROWS_BY_COST[1], mlr_data,
                fit("MixtureOfLinearRegressions", True), [], log_likelihood, _compare_scalars)]


def _mkl_rows():
    """Multiple kernel learning on three RBF widths of the vector data (no peer installed)."""
    def make(name, kind):
        def run(data):
            from kernelkit.kernels import VectorKernel

            kernels = [VectorKernel("rbf", gamma=g) for g in (0.01, 0.05, 0.25)]
            return _import(f"kernelkit.mkl.{name}")(kernels).fit(data["X"], data["y"])
        return Row(name, "mkl", ROWS_BY_COST[3], _kind_data(kind, 3), run, [],
                   *_OUTCOMES[kind], cost=3)

    def sum_kernel(data):
        from kernelkit.kernels import VectorKernel
        from kernelkit.mkl import SumKernel

        kernels = [VectorKernel("rbf", gamma=g) for g in (0.01, 0.05, 0.25)]
        return SumKernel(kernels).fit_transform(data["X"])

    return [make("SimpleMKL", "classifier"), make("SimpleMKLRegressor", "regressor"),
            make("GroupLassoMKL", "classifier"),
            Row("SumKernel", "mkl", ROWS_BY_COST[2], _kind_data("classifier", 2), sum_kernel,
                [], lambda K, data: K, _compare_grams, cost=2)]


# ------------------------------------------------------------------------ structured kernels


def _string_setup(n):
    return dict(X=_data.sequences(n))


def _window_setup(n):
    return dict(X=_data.windows(n))


def _graph_setup(n):
    return dict(X=[g[:2] for g in _data.graphs(n)], X_edges=_data.graphs(n),
                X_attr=_data.attributed_graphs(n))


def _gram(name, input_key="X", **params):
    def run(data):
        return _import(f"kernelkit.kernels.{name}")(**params).fit_transform(data[input_key])
    return run


def _spectrum_sparse_product(k):
    """The spectrum Gram as a SciPy sparse product of k-mer count vectors (the peer of the
    spectrum kernel: what a user writes without kernelkit)."""
    def run(data):
        import scipy.sparse as sp

        index, rows, cols = {}, [], []
        for i, s in enumerate(data["X"]):
            for j in range(len(s) - k + 1):
                rows.append(i)
                cols.append(index.setdefault(s[j:j + k], len(index)))
        counts = sp.csr_array((np.ones(len(rows)), (rows, cols)),
                              shape=(len(data["X"]), len(index)))
        return (counts @ counts.T).toarray()
    return Contender("scipy.sparse", run, ("scipy",))


def _grakel(make, input_key="grakel"):
    def run(data):
        if input_key not in data:
            from kernelkit.bench.suites.graphs import _grakel_format

            data[input_key] = _grakel_format(data["X"])
        return make().fit_transform(data[input_key])
    return Contender("GraKeL", run, ("grakel",))


def _grakel_kernel(name, **params):
    return lambda: _import(f"grakel.kernels.{name}")(**params)


def _grakel_wl():
    from grakel.kernels import VertexHistogram, WeisfeilerLehman

    return WeisfeilerLehman(n_iter=5, base_graph_kernel=VertexHistogram)


def _kernel_row(name, setup, peers=(), cost=2, outcome=_compare_grams, input_key="X",
                sizes=OBJECTS, peer_max_n=None, label=None, **params):
    return Row(name=label or name, family="kernels", sizes=sizes, setup=setup,
               kernelkit=_gram(name, input_key, **params), peers=list(peers),
               outcome=lambda K, data: K, compare=outcome, cost=cost, peer_max_n=peer_max_n)


def _structured_rows():
    return [
        _kernel_row("SpectrumKernel", _string_setup, [_spectrum_sparse_product(3)]),
        _kernel_row("MismatchKernel", _string_setup, sizes=(100, 500, 2_000)),
        _kernel_row("SubstringKernel", _string_setup, sizes=(100, 500, 2_000)),
        _kernel_row("LocalAlignmentKernel", _string_setup, sizes=(100, 300, 1_000)),
        _kernel_row("WeightedDegreeKernel", _window_setup),
        _kernel_row("GappyPairKernel", _string_setup),
        _kernel_row("WeisfeilerLehmanKernel", _graph_setup,
                    [_grakel(_grakel_wl)]),
        _kernel_row("VertexHistogramKernel", _graph_setup,
                    [_grakel(_grakel_kernel("VertexHistogram"))]),
        _kernel_row("EdgeHistogramKernel", _graph_setup, input_key="X_edges"),
        _kernel_row("ShortestPathKernel", _graph_setup,
                    [_grakel(_grakel_kernel("ShortestPath", with_labels=True))]),
        _kernel_row("NeighborhoodHashKernel", _graph_setup,
                    [_grakel(_grakel_kernel("NeighborhoodHash", random_state=0))]),
        _kernel_row("WeisfeilerLehmanOptimalAssignmentKernel", _graph_setup,
                    [_grakel(_grakel_kernel("WeisfeilerLehmanOptimalAssignment"))],
                    sizes=(100, 2_000, 5_000)),
        _kernel_row("PyramidMatchKernel", _graph_setup,
                    [_grakel(_grakel_kernel("PyramidMatch"))], sizes=(100, 1_000, 3_000)),
        _kernel_row("PropagationKernel", _graph_setup, input_key="X",
                    sizes=(100, 2_000, 5_000)),
        _kernel_row("NeighborhoodSubgraphPairwiseDistanceKernel", _graph_setup,
                    input_key="X_edges", sizes=(100, 1_000, 3_000)),
        _kernel_row("ODDSTKernel", _graph_setup, sizes=(100, 1_000, 3_000)),
        _kernel_row("GraphletKernel", _graph_setup, sizes=(100, 2_000, 5_000)),
        _kernel_row("PathKernel", _graph_setup, sizes=(100, 1_000, 3_000)),
        _kernel_row("MarginalizedKernel", _graph_setup, sizes=(100, 500, 1_000)),
        _kernel_row("TreeletKernel", _graph_setup, sizes=(100, 1_000, 3_000)),
        _kernel_row("GraphHopperKernel", _graph_setup, input_key="X_attr",
                    sizes=(100, 500, 2_000)),
        _kernel_row("WalkKernel", _graph_setup, sizes=(100, 500, 2_000)),
        _kernel_row("RandomWalkKernel", _graph_setup, sizes=(100, 500, 2_000)),
        _kernel_row("GeometricWalkKernel", _graph_setup, sizes=(100, 300, 1_000)),
        _kernel_row("SubtreeKernel", _graph_setup, sizes=(100, 500, 2_000)),
        Row("CoreFrameworkKernel", "kernels", (100, 500, 2_000), _graph_setup,
            _core_framework, [], lambda K, data: K, _compare_grams),
        _kernel_row("WassersteinWeisfeilerLehmanKernel", _graph_setup),
        _kernel_row("WassersteinWeisfeilerLehmanKernel", _graph_setup, input_key="X_attr",
                    sizes=(100, 300, 1_000), label="WassersteinWeisfeilerLehmanKernel attributes",
                    node_label=None, node_attributes="attributes"),
    ]


def _core_framework(data):
    from kernelkit.kernels import CoreFrameworkKernel, ShortestPathKernel

    return CoreFrameworkKernel(ShortestPathKernel()).fit_transform(data["X"])


# ------------------------------------------------------- the cases and public functions


def _kmeans_cases():
    """k-means with a handful of clusters (what most users fit), to convergence and one Lloyd
    iteration, 12 features, k = 25 and k = 64 (a GEMM block per chunk 2.5 times taller)."""
    rows = []
    for k in (25, 64):
        def setup(n, k=k):
            return dict(X=_data.blobs(n, centers=k), k=k)

        def kernelkit(data, iteration=False):
            from kernelkit.cluster import KMeans

            return KMeans(data["k"], random_state=0, **_one_iteration(iteration)).fit(data["X"])

        def sklearn(data, iteration=False):
            from sklearn.cluster import KMeans

            return KMeans(data["k"], random_state=0, **_one_iteration(iteration)).fit(data["X"])

        def sklearnex(data, iteration=False):
            from sklearnex.cluster import KMeans

            return KMeans(data["k"], random_state=0, **_one_iteration(iteration)).fit(data["X"])

        for iteration in (False, True):
            def bind(f, iteration=iteration):
                return lambda data: f(data, iteration)
            rows.append(Row(
                f"KMeans k={k}{' one Lloyd iteration' if iteration else ''}", "cluster",
                (1_000, 200_000, 1_000_000), setup, bind(kernelkit),
                [Contender("scikit-learn", bind(sklearn), ("sklearn",)),
                 Contender("sklearnex", bind(sklearnex), ("sklearnex",))],
                lambda model, data: model.labels_, _compare_clusters))
    return rows


def _one_iteration(iteration):
    return dict(max_iter=1, n_init=1, init="random", algorithm="lloyd") if iteration else {}


def _precomputed_svc_rows():
    """SVC on a precomputed RBF Gram, the string and graph kernel users' SVM, n = 150 … 5 000."""
    def setup(n):
        from sklearn.metrics.pairwise import rbf_kernel

        X, y, X_test, _ = _data.classification(n)
        gamma = 1.0 / (X.shape[1] * X.var())
        return dict(X=rbf_kernel(X, gamma=gamma), y=y, X_test=rbf_kernel(X_test[:500], X,
                                                                            gamma=gamma))

    def fit(module):
        def run(data):
            return _import(f"{module}.SVC")(kernel="precomputed").fit(data["X"], data["y"])
        return run

    return [Row(f"SVC precomputed n={n}", "svm", (n, None, None), setup, fit("kernelkit.svm"),
                [Contender("libsvm (scikit-learn)", fit("sklearn.svm"), ("sklearn",))],
                _accuracy, _compare_labels)
            for n in (150, 400, 1_000, 5_000)]


def _logistic_rows():
    """LogisticRegression at its defaults against scikit-learn's newton-cg and lbfgs (the same
    objective), 40 features."""
    def setup(n):
        X, y, X_test, y_test = _data.classification(n, d=40)
        return dict(X=X, y=y, X_test=X_test[:500])

    def sklearn(solver):
        def run(data):
            from sklearn.linear_model import LogisticRegression

            return LogisticRegression(solver=solver).fit(data["X"], data["y"])
        return Contender(f"scikit-learn {solver}", run, ("sklearn",))

    def kernelkit(data):
        from kernelkit.linear_model import LogisticRegression

        return LogisticRegression().fit(data["X"], data["y"])

    return [Row("LogisticRegression d=40", "linear_model", (1_000, 60_000, 600_000), setup,
                kernelkit, [sklearn("newton-cg"), sklearn("lbfgs")], _accuracy,
                _compare_labels)]


def _knn_rows():
    """k-NN classification in low dimension (12 features), float32 and float64: fit + predict
    of 10 000 queries."""
    rows = []
    for dtype in ("float32", "float64"):
        def setup(n, dtype=dtype):
            X, y, X_test, _ = _data.classification(n, d=12)
            return dict(X=X.astype(dtype), y=y, X_test=X_test.astype(dtype))

        def run(module):
            def fit_predict(data):
                model = _import(f"{module}.KNeighborsClassifier")().fit(data["X"], data["y"])
                return model.predict(data["X_test"])
            return fit_predict

        rows.append(Row(f"KNeighborsClassifier d=12 {dtype} fit+predict", "neighbors",
                        (1_000, 100_000, 1_000_000), setup, run("kernelkit.neighbors"),
                        [Contender("scikit-learn", run("sklearn.neighbors"), ("sklearn",)),
                         Contender("sklearnex", run("sklearnex.neighbors"), ("sklearnex",))],
                        lambda predictions, data: predictions, _compare_labels))
    return rows


def _spectrum_k5_row():
    return _kernel_row("SpectrumKernel", _string_setup, [_spectrum_sparse_product(5)], k=5,
                       label="SpectrumKernel k=5")


def _wl_study_row():
    """10-fold WL + SVC study on ENZYMES (C in 10⁻³ … 10³), kernelkit's SVC against libsvm's on
    the same Gram: what a graph-kernel paper runs."""
    def setup(n):
        from sklearn.model_selection import StratifiedKFold

        from kernelkit.datasets import load_tudataset
        from kernelkit.kernels import WeisfeilerLehmanKernel

        folder = _data.shared_data()
        if folder is None or not (folder / "ENZYMES").is_dir():
            raise LookupError("ENZYMES is not in the shared data folder")
        data = load_tudataset(folder / "ENZYMES", "ENZYMES")
        K = WeisfeilerLehmanKernel(n_iter=5, normalize=True).fit_transform(data.graphs)
        folds = list(StratifiedKFold(10, shuffle=True, random_state=0).split(K, data.target))
        return dict(K=K, y=data.target, folds=folds)

    def study(module):
        def run(data):
            SVC = _import(f"{module}.SVC")
            K, y = data["K"], data["y"]
            accuracy = []
            for train, test in data["folds"]:
                for C in np.logspace(-3, 3, 7):
                    model = SVC(kernel="precomputed", C=C).fit(K[np.ix_(train, train)], y[train])
                    accuracy.append(np.mean(model.predict(K[np.ix_(test, train)]) == y[test]))
            return np.array(accuracy)
        return run

    return Row("SVC 10-fold WL study ENZYMES", "svm", (600, None, None), setup,
               study("kernelkit.svm"), [Contender("libsvm (scikit-learn)", study("sklearn.svm"),
                                                  ("sklearn",))],
               lambda accuracy, data: accuracy,
               lambda a, b: (f"max |Δaccuracy| {np.abs(a - b).max():.3f}",
                             np.abs(a - b).max() <= 0.01))


def _function_rows():
    def setup(n):
        return dict(X=_data.blobs(n, d=20))

    def pairwise(module):
        return lambda data: _import(f"{module}.pairwise_kernels")(data["X"], metric="rbf")

    def silhouette(module):
        def run(data):
            labels = np.arange(len(data["X"])) % 8
            return _import(f"{module}.silhouette_score")(data["X"], labels)
        return run

    return [
        Row("pairwise_kernels(metric='rbf')", "kernels", (1_000, 10_000, 20_000), setup,
            pairwise("kernelkit.kernels"),
            [Contender("scikit-learn", pairwise("sklearn.metrics.pairwise"), ("sklearn",))],
            lambda K, data: K, _compare_grams, cost=2),
        Row("silhouette_score", "cluster", (1_000, 10_000, 30_000), setup,
            silhouette("kernelkit.cluster"),
            [Contender("scikit-learn", silhouette("sklearn.metrics"), ("sklearn",))],
            lambda value, data: value, _compare_scalars, cost=2),
    ]


def all_rows():
    """Every row of the matrix, in the order of the table."""
    return (_estimator_rows() + _mixture_rows() + _mkl_rows() + _kmeans_cases() + _precomputed_svc_rows()
            + _logistic_rows() + _knn_rows() + _structured_rows() + [_spectrum_k5_row()]
            + [_wl_study_row()] + _function_rows() + [_gapped_kmer_row()])


def _gapped_kmer_row():
    """LS-GKM's default kernel (l = 11, k = 7, d = 3) on random DNA of 300 bp."""
    def setup(n):
        rng = np.random.default_rng(_data.SEED)
        return dict(X=["".join(rng.choice(list("ACGT"), 300)) for _ in range(n)])
    return _kernel_row("GappedKmerKernel", setup, sizes=(100, 500, 2_000))
