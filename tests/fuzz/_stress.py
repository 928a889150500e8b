"""Cases of misuse beyond bad input: thread counts, parameter interplay, call sequences, absurd
sizes, wide data, ill-behaved callable kernels, and a fit in a fork child after a fit on threads.

Every generator takes an estimator (or a public function) and a ``Base``: good data of the
estimator's input type and ``run(est)``, which fits a clone on it and returns the output (or, for
``fork``, such a ``run`` on data large enough for the cores to start threads). The
parameters each class applies to are found from the estimator itself (``get_params``, the
``_parameter_constraints`` of scikit-learn's validation, the methods it has), so a new estimator
is covered without being listed. Generators return ``(name, thunk)`` pairs; ``scale`` (1, or 10
under ``--fuzz-long``) adds seeded random draws.
"""

import inspect
import math
import multiprocessing
import numbers
import os
import pickle
import signal
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import scipy.sparse as sp
from kernelkit._core._gram import VECTOR_KERNELS
from sklearn.base import clone, is_classifier, is_regressor

from kernelkit.utils._sklearn_compat import InvalidParameterError, validate_parameter_constraints

# Public names of the defect classes, in the order of the summary table ("inputs" are the cases
# of ``_cases.py``: bad and extreme data and single hyper-parameters; "properties" too: what the
# kernels on strings and graphs must satisfy on generated objects).
CLASSES = ("inputs", "threads", "interplay", "sequences", "sizes", "wide", "kernels",
           "properties", "fork")

# Repetition counts: a huge value legitimately runs for ever, so they are not sizes.
# Repetition counts: the work grows linearly with them, every repetition answers Ctrl-C, and a
# large value legitimately runs for ever (sampled graphlets included: one sample is O(k²)).
# The subtree kernel's ``depth`` is one too: its levels can grow without bound but only
# polynomially (a single product edge with lambda_=1 counts h at level h), so neither an
# overflow nor a fixed point ends them early.
REPEAT_WORDS = ("iter", "n_init", "estimators", "restarts", "repeats", "epochs",
                "graphlet_samples")
REPEAT_NAMES = ("depth",)


def is_repetition(name):
    """Whether parameter ``name`` counts repetitions of the same work (see ``REPEAT_WORDS``)."""
    return name in REPEAT_NAMES or any(word in name for word in REPEAT_WORDS)
SIZE_VALUES = (10**9, 10**12)
# Prediction methods called after a fit (``predict_log_proba`` is left out: the log of a zero
# probability, as a pure leaf gives, is -inf by definition, not a silent overflow).
METHODS = ("predict", "predict_proba", "decision_function", "transform", "inverse_transform",
           "score_samples", "score")
WIDE_FEATURES = 5000


@dataclass
class Base:
    """Good data of one estimator's input type: ``run(est)`` fits ``est`` on ``X`` (and ``y``)
    and returns the output; ``vectors`` says whether ``X`` is an array of feature vectors (not
    a Gram matrix, strings or graphs), which may be widened."""

    X: Any
    y: Any
    run: Callable
    vectors: bool


def thread_params(est):
    """Names of the parameters that set a number of threads."""
    return [name for name in est.get_params(deep=False)
            if name in ("n_jobs", "n_workers") or "thread" in name]


def thread_cases(est, run, rng, scale):
    """Every thread-count parameter at 0, negative, absurd and numpy-integer values. The worker
    counts the process's threads after each case, so an unclamped request is seen without
    letting it spawn: ``OMP_THREAD_LIMIT`` and the address-space limit bound what it can start."""
    values = [0, -1, -2, -10**6, 10**6, np.int64(10**6), np.int32(-1), np.int64(2),
              np.uint8(2), 2.0, "2", True]
    values += [int(v) for v in rng.integers(-10**7, 10**7, size=scale - 1)]
    return [(f"{name}={value!r} ({type(value).__name__})",
             lambda name=name, value=value: run(clone(est).set_params(**{name: value})))
            for name in thread_params(est) for value in values]


# Extreme values tried together: one alone is an ``inputs`` case.
INTERPLAY_VALUES = {
    "gamma": (1e3, 1e150, 1e-300, 1e300),
    "coef0": (-1e150, 1e150, 1e300, -5.0),
    "degree": (2.5, 0.5, 1e6, 60),
    "C": (1e300, 1e-300),
    "alpha": (1e-300, 1e300),
}


def interplay_cases(est, run, rng, scale):
    """Every vector kernel name of the compiled core (where the estimator takes a ``kernel``
    name) with one or two of ``gamma``/``coef0``/``degree``/``C``/``alpha`` at extreme values:
    huge or tiny ``gamma``, huge ``coef0``, non-integer or huge ``degree``; without a kernel
    name, two such parameters together (one alone is an ``inputs`` case)."""
    params = est.get_params(deep=False)
    numeric = sorted(name for name in INTERPLAY_VALUES if name in params)
    kernels = sorted(VECTOR_KERNELS) if isinstance(params.get("kernel"), str) else [None]
    if not numeric or (kernels == [None] and len(numeric) < 2):
        return []
    settings = []
    for kernel in kernels:
        for _ in range(3 * scale):
            size = 2 if kernel is None else int(rng.integers(1, 3))
            chosen = rng.choice(numeric, min(size, len(numeric)), replace=False)
            setting = {} if kernel is None else {"kernel": kernel}
            for name in sorted(chosen):
                values = INTERPLAY_VALUES[name]
                setting[name] = values[int(rng.integers(len(values)))]
            settings.append(setting)
    return [(", ".join(f"{k}={v!r}" for k, v in setting.items()),
             lambda setting=setting: run(clone(est).set_params(**setting)))
            for setting in settings]


def _draws(rng, choices, n):
    """``n`` seeded draws of one value from each list (``[]`` when there is none)."""
    if not choices:
        return []
    return [tuple(c[int(rng.integers(len(c)))] for c in choices) for _ in range(n)]


def _alternatives(est, name, value):
    """Other values of parameter ``name`` that its constraints accept."""
    constraints = getattr(est, "_parameter_constraints", {}).get(name)
    if constraints is None or name in ("verbose", "random_state", "n_jobs"):
        return []
    candidates = []
    for constraint in constraints:
        candidates += sorted(getattr(constraint, "options", ()), key=str)
    if isinstance(value, bool):
        candidates.append(not value)
    elif isinstance(value, numbers.Integral):
        candidates += [value + 1, value * 2, max(1, value - 1)]
    elif isinstance(value, numbers.Real) and math.isfinite(value):
        candidates += [value * 2 or 1.0, value / 2]
    kept = []
    for candidate in candidates:
        if candidate is None or candidate is value or candidate == value:
            continue
        try:
            validate_parameter_constraints({name: constraints}, {name: candidate}, "fuzz")
        except (InvalidParameterError, TypeError, ValueError):
            continue
        kept.append(candidate)
    return kept


def _methods(est):
    return [m for m in METHODS if hasattr(est, m)]


def _call_all(model, X, y):
    """Every prediction method of a fitted ``model`` on ``X``."""
    out = []
    for method in _methods(model):
        if method == "score":
            out.append(model.score(X, y) if y is not None else model.score(X))
        elif method == "inverse_transform":
            out.append(model.inverse_transform(model.transform(X)))
        else:
            out.append(getattr(model, method)(X))
    return tuple(out)


def sequence_cases(est, base, rng, scale):
    """Calls out of the textbook order: each method before ``fit``; ``fit``, then
    ``set_params`` to another valid value, then every method without refitting; refits on
    data of another width or with another number of classes (``warm_start`` both ways);
    ``partial_fit`` sequences where it exists."""
    X, y = base.X, base.y
    cases = [(f"{method} before fit", lambda method=method: _call_all_unfitted(est, method, X, y))
             for method in _methods(est)]
    for name, value in sorted(est.get_params(deep=False).items()):
        alternatives = _alternatives(est, name, value)
        if len(alternatives) > scale:
            alternatives = [alternatives[i] for i in
                            sorted(rng.choice(len(alternatives), scale, replace=False))]
        for alt in alternatives:
            def case(name=name, alt=alt):
                model = clone(est).fit(X, y)
                model.set_params(**{name: alt})
                return _call_all(model, X, y)
            cases.append((f"fit, set_params({name}={alt!r}), predict/transform", case))
    if not base.vectors:
        return cases
    wider = np.hstack([X, rng.normal(size=(len(X), 2))])
    three = np.arange(len(X)) % 3 if is_classifier(est) else y
    refits = {"refit on a wider X": (wider, y), "refit on half the rows": (X[::2], _half(y)),
              "refit with three classes": (X, three)}
    warm = [False, True] if "warm_start" in est.get_params(deep=False) else [False]
    for warm_start in warm:
        for what, (X2, y2) in refits.items():
            def case(warm_start=warm_start, X2=X2, y2=y2):
                model = clone(est)
                if warm_start:
                    model.set_params(warm_start=True)
                model.fit(X, y)
                model.fit(X2, y2)
                return _call_all(model, X2, y2)
            cases.append((f"{what}{' (warm_start)' if warm_start else ''}", case))
        if warm_start:
            cases.append(("warm_start: predict with the first width after a wider refit",
                          lambda: _call_all(clone(est).set_params(warm_start=True).fit(X, y)
                                            .fit(wider, y), X, y)))
    if hasattr(est, "partial_fit"):
        classes = {"classes": np.unique(y)} if is_classifier(est) else {}
        cases += [
            ("partial_fit twice", lambda: _call_all(
                clone(est).partial_fit(X, y, **classes).partial_fit(X, y), X, y)),
            ("partial_fit, then a wider partial_fit", lambda: clone(est).partial_fit(
                X, y, **classes).partial_fit(wider, y)),
            ("fit, then partial_fit", lambda: _call_all(
                clone(est).fit(X, y).partial_fit(X, y), X, y)),
        ]
    return cases


def _half(y):
    return None if y is None else y[::2]


def _call_all_unfitted(est, method, X, y):
    model = clone(est)
    if method == "score":
        return model.score(X, y) if y is not None else model.score(X)
    return getattr(model, method)(X)


def size_params(est):
    """Parameters that size an allocation: integers (or ``None`` defaults named like counts)
    other than repetition counts."""
    found = []
    for name, value in sorted(est.get_params(deep=False).items()):
        if isinstance(value, bool) or is_repetition(name):
            continue
        if name in thread_params(est) or name in ("verbose", "random_state"):
            continue
        if isinstance(value, numbers.Integral) or (value is None and (
                name.startswith("n_") or name in ("k", "m", "n"))):
            found.append(name)
    return found


def size_cases(est, run, rng, scale, short_strings=None):
    """Every size parameter at 10**9 and 10**12 (more powers of ten under ``--fuzz-long``); with
    both ``k`` and ``m`` (mismatch balls), long k-mers with several mismatches on short
    sequences, whose neighbourhoods are astronomically large."""
    values = list(SIZE_VALUES) + [10**int(e) for e in rng.integers(6, 14, size=scale - 1)]
    cases = [(f"{name}={value:.0e}", lambda name=name, value=value: run(
                 clone(est).set_params(**{name: value})))
             for name in size_params(est) for value in values]
    params = est.get_params(deep=False)
    if "k" in params and "m" in params:
        pairs = [(12, 3), (16, 4)] + [(int(rng.integers(8, 31)), int(rng.integers(2, 7)))
                                      for _ in range(scale - 1)]
        for k, m in pairs:
            cases.append((f"k={k}, m={m}",
                          lambda k=k, m=m: run(clone(est).set_params(k=k, m=m))))
    return cases


def wide_cases(est, rng, scale):
    """``n_features`` far above ``n_samples`` (5 000 features, 20 samples), with each option of
    the solver-like parameters; the fit must finish or refuse, not spend minutes in LAPACK."""
    shapes = [(20, WIDE_FEATURES)] + [(int(rng.integers(10, 40)), int(rng.integers(2000, 8000)))
                                      for _ in range(scale - 1)]
    settings = [{}]
    for name, value in sorted(est.get_params(deep=False).items()):
        if name in ("solver", "algorithm", "svd_solver", "covariance_type", "method"):
            settings += [{name: alt} for alt in _alternatives(est, name, value)
                         if isinstance(alt, str)]
    cases = []
    for n, d in shapes:
        X = rng.normal(size=(n, d))
        y = (np.arange(n) % 2 if is_classifier(est)
             else rng.normal(size=n) if is_regressor(est) else None)
        for setting in settings:
            label = "".join(f", {k}={v!r}" for k, v in setting.items())

            def case(X=X, y=y, setting=setting):
                model = clone(est).set_params(**setting).fit(X, y)
                return _call_all(model, X, y)
            cases.append((f"{n}x{d}{label}", case))
    return cases


def _bad_kernels():
    """Callables standing in for ``kernel(X, Y)`` that return something a Gram matrix is not."""
    def linear(X, Y):
        return np.asarray(X, dtype=float) @ np.asarray(Y, dtype=float).T

    def one_inf(X, Y):
        K = linear(X, Y)
        K[0, 0] = np.inf
        return K

    def one_nan(X, Y):
        K = linear(X, Y)
        K[-1, 0] = np.nan
        return K

    return {
        "scipy.sparse CSR": lambda X, Y: sp.csr_matrix(linear(X, Y)),
        "scipy.sparse COO array": lambda X, Y: sp.coo_array(linear(X, Y)),
        "all inf": lambda X, Y: np.full((len(X), len(Y)), np.inf),
        "one inf": one_inf,
        "one NaN": one_nan,
        "1e300 * linear": lambda X, Y: 1e300 * linear(X, Y),
        "wrong shape": lambda X, Y: linear(X, X),
        "transposed": lambda X, Y: linear(Y, X),
        "list of lists": lambda X, Y: linear(X, Y).tolist(),
        "a scalar": lambda X, Y: 1.0,
        "None": lambda X, Y: None,
        "complex": lambda X, Y: linear(X, Y) + 1j,
        "object array": lambda X, Y: linear(X, Y).astype(object),
        "3-d": lambda X, Y: linear(X, Y)[:, :, None],
        "raises ZeroDivisionError": lambda X, Y: 1 / 0,
    }


def kernel_cases(est, run, rng, scale):
    """Callable ``kernel`` (and callables inside a ``kernels`` list) that return scipy.sparse
    matrices, inf, NaN, the wrong shape or no matrix at all. A callable's own exception is
    allowed to propagate unchanged."""
    params = est.get_params(deep=False)
    cases = []
    for what, kernel in _bad_kernels().items():
        if "kernel" in params and not _kernel_is_object(params["kernel"]):
            cases.append((f"kernel returning {what}", lambda kernel=kernel: run(
                clone(est).set_params(kernel=kernel))))
        if isinstance(params.get("kernels"), (list, tuple)):
            cases.append((f"kernels list with a callable returning {what}",
                          lambda kernel=kernel: run(clone(est).set_params(
                              kernels=[clone(params["kernels"][0]), kernel]))))
    return cases


def _kernel_is_object(kernel):
    return hasattr(kernel, "fit_transform")


# ---------------------------------------------------------------------------------------------
# fork

FORK_METHODS = ("os.fork", "multiprocessing fork")
# A fork child that has not finished this long (plus 20 times the parent's own fit) after it was
# started is hung: a fit of data that the parent fits in a fraction of a second.
FORK_CHILD_SECONDS = 20.0


class ForkChild:
    """``run()`` in a child of this process forked by ``how`` (``os.fork()`` or multiprocessing's
    ``fork`` context), started at once; ``result(deadline)`` waits for what it returned."""

    def __init__(self, run, how):
        self.how = how
        fd, self.path = tempfile.mkstemp(prefix="kernelkit-fork-")
        os.close(fd)
        if how == "os.fork":
            self.pid = os.fork()
            if self.pid == 0:
                try:
                    _leave_result(run, self.path)
                finally:        # never back into the parent's code
                    os._exit(0)
            self.status = None
        else:
            self.process = multiprocessing.get_context("fork").Process(
                target=_leave_result, args=(run, self.path))
            self.process.start()

    def _alive(self):
        if self.how != "os.fork":
            return self.process.is_alive()
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            self.status = status if pid else None
        return self.status is None

    def _kill(self):
        if self.how == "os.fork":
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        else:
            self.process.kill()
            self.process.join()

    def result(self, deadline):
        """What ``run()`` returned in the child; its exception raised again here; TimeoutError
        if it has not finished by ``deadline`` (``time.monotonic()``), then it is killed."""
        try:
            while self._alive():
                if time.monotonic() > deadline:
                    self._kill()
                    raise TimeoutError(f"the child forked with {self.how} did not finish in "
                                       "time (a team started on the OpenMP threads of its "
                                       "parent, which fork does not copy, waits for ever)")
                time.sleep(0.02)
            with open(self.path, "rb") as out:
                content = out.read()
        finally:
            os.unlink(self.path)
        if not content:
            raise RuntimeError(f"the child forked with {self.how} died without a result")
        failed, value = pickle.loads(content)
        if failed:
            raise value
        return value


def _leave_result(run, path):
    """In a fork child: ``run()``, and its output or exception pickled into ``path``."""
    try:
        result = (False, run())
    except Exception as exc:  # noqa: BLE001 - raised again in the parent
        result = (True, exc)
    try:
        content = pickle.dumps(result)
    except Exception as exc:  # noqa: BLE001 - an exception that does not pickle
        content = pickle.dumps((True, RuntimeError(f"{type(exc).__name__}: {exc}")))
    with open(path, "wb") as out:
        out.write(content)


def run_then_fork(run, methods):
    """``run()`` here (a fit on threads starts a team in this process), then in a fork child by
    each of ``methods`` (of ``FORK_METHODS``), all at once. Returns ``(output, children,
    deadline)``: what ``run()`` gave here, the ``ForkChild``s, and when they are hung."""
    start = time.monotonic()
    expected = run()
    deadline = time.monotonic() + FORK_CHILD_SECONDS + 20 * (time.monotonic() - start)
    return expected, [ForkChild(run, how) for how in methods], deadline


def fit_in_fork_child(run, how):
    """``run()`` here, then in a fork child (``how``), which must finish and give the same
    output; returns it."""
    expected, [child], deadline = run_then_fork(run, [how])
    got = child.result(deadline)
    assert_same_output(got, expected)
    return got


def assert_same_output(got, expected):
    """The fork child's output is the parent's, to 1e-9: with ``random_state=None`` (KernelPCA
    in the common tests) ARPACK's start vector is drawn afresh, and BLAS on another number of
    threads may round otherwise."""
    if expected is None:
        assert got is None, "the fork child returned an output, the parent None"
        return
    if sp.issparse(expected):
        got, expected = got.toarray(), expected.toarray()
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12,
                               err_msg="the fork child's output differs from the parent's")


def with_threads(est):
    """``est`` with every thread-count parameter at 2."""
    return clone(est).set_params(**{name: 2 for name in thread_params(est)})


def fork_cases(est, larger_run):
    """A fit with two threads, then ``fork`` (``os.fork()``) and the same fit in the child, which
    must finish (a child that starts a team of the parent's OpenMP runtime waits for ever on its
    threads) with the parent's output. ``larger_run(model)`` fits a clone of ``model`` on data of
    a few hundred objects, enough for the cores to start a team."""
    model = with_threads(est)
    return [("fit on two threads, os.fork(), the same fit in the child",
             lambda: fit_in_fork_child(lambda: larger_run(model), "os.fork"))]


# ---------------------------------------------------------------------------------------------
# public functions

def function_cases(func, data, rng, scale):
    """The classes above applied to one public function: ``data`` holds good arguments for its
    required parameters (or is None when the function needs arguments no generator makes)."""
    signature = inspect.signature(func)
    params = signature.parameters
    run = (lambda **kw: func(**{**data, **kw}))
    cases = [("inputs", "normal call", lambda: run())]
    for name in params:
        if name in ("n_jobs",) or "thread" in name:
            for value in (0, -1, 10**6, np.int64(10**6), np.int64(2), 2.0):
                cases.append(("threads", f"{name}={value!r}",
                              lambda name=name, value=value: run(**{name: value})))
    numeric = [name for name in INTERPLAY_VALUES if name in params]
    if "metric" in params and numeric:
        for metric in sorted(VECTOR_KERNELS):
            for values in _draws(rng, [INTERPLAY_VALUES[n] for n in numeric], 2 * scale):
                setting = {"metric": metric, **dict(zip(numeric, values))}
                cases.append(("interplay", ", ".join(f"{k}={v!r}" for k, v in setting.items()),
                              lambda setting=setting: run(**setting)))
    elif len(numeric) > 1:
        for values in _draws(rng, [INTERPLAY_VALUES[n] for n in numeric], 4 * scale):
            setting = dict(zip(numeric, values))
            cases.append(("interplay", ", ".join(f"{k}={v!r}" for k, v in setting.items()),
                          lambda setting=setting: run(**setting)))
    for name, param in params.items():
        default = param.default
        sized = (name in data and isinstance(data[name], numbers.Integral)) or (
            isinstance(default, numbers.Integral) and not isinstance(default, bool)) or (
            default is None and (name.startswith("n_") or name in ("k", "m")))
        if (not sized or is_repetition(name)
                or name in ("n_jobs", "verbose", "random_state")):
            continue
        for value in SIZE_VALUES:
            cases.append(("sizes", f"{name}={value:.0e}",
                          lambda name=name, value=value: run(**{name: value})))
    if "k" in params and "m" in params:
        cases.append(("sizes", "k=12, m=3", lambda: run(k=12, m=3)))
    if "metric" in params and "kernel" in func.__name__:
        for what, kernel in _bad_kernels().items():
            cases.append(("kernels", f"metric returning {what}",
                          lambda kernel=kernel: run(metric=kernel)))
    first = next(iter(params))
    if isinstance(data.get(first), np.ndarray) and first == "X":
        wide = rng.normal(size=(20, WIDE_FEATURES))
        cases.append(("wide", f"20x{WIDE_FEATURES}", lambda: run(X=wide)))
    return cases
