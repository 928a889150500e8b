"""Progress of long computations and the ``verbose`` output of estimators, on stderr.

One place decides what every line looks like: ``[Label] message, 1.23 s`` — the estimator or
kernel, what was done, the time it took — printed on stderr and flushed at once. Lines never
use ``\\r``, so a log file gets one readable line per report; the one exception is a
:class:`Progress` over a known amount of work with no fixed step, drawn as a ``tqdm`` bar when
tqdm is installed and stderr is a terminal.

The levels of ``verbose``, as in scikit-learn: 0 silent; 1 a line per stage (an initialisation,
a solved subproblem, a block of trees) and progress lines during any computation that lasts
more than :data:`DELAY` seconds; 2 more detail (blocks of iterations).
"""

import contextlib
import math
import sys
import time

__all__ = ["DELAY", "INTERVAL", "Progress", "block_ends", "format_seconds",
           "in_blocks", "iteration_callback", "model_name", "report", "report_model",
           "report_points", "report_stage", "solver_progress", "stage", "stages_callback"]

# Seconds of work before the first progress line: a short computation prints none.
DELAY = 2.0
# Seconds between two progress lines of one computation.
INTERVAL = 2.0


def format_seconds(seconds):
    """``"0.42 s"``, ``"12.3 s"``: two decimals below ten seconds, one above."""
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def report(label, message, start=None):
    """Print ``[label] message`` on stderr, followed by the time since ``start`` (a
    ``time.perf_counter()`` value) when given."""
    if start is not None:
        message = f"{message}, {format_seconds(time.perf_counter() - start)}"
    print(f"[{label}] {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def stage(label, verbose, message):
    """Time the ``with`` block, then at ``verbose >= 1`` print ``[label] message, time``;
    ``message`` may be a callable, called after the block (to show what it computed).

    Examples
    --------
    >>> from kernelkit.utils._progress import stage
    >>> with stage("demo", 0, "a silent stage"):
    ...     pass
    """
    start = time.perf_counter()
    yield
    if verbose:
        report(label, message() if callable(message) else message, start)


def report_stage(label, verbose, message, start):
    """A line for a stage that began at ``start``: at ``verbose >= 2``, or at ``verbose == 1``
    when it lasted more than :data:`DELAY` seconds (a detail worth a line only when slow)."""
    if verbose >= 2 or (verbose and time.perf_counter() - start > DELAY):
        report(label, message, start)


def block_ends(total, n_blocks=10):
    """Ends of ``min(total, n_blocks)`` near-equal consecutive blocks of ``range(total)``: the
    points where work reported "every 10 %" prints a line.

    Examples
    --------
    >>> from kernelkit.utils._progress import block_ends
    >>> block_ends(25, 10)
    [3, 5, 8, 10, 13, 15, 18, 20, 23, 25]
    >>> block_ends(3, 10)
    [1, 2, 3]
    """
    n_blocks = max(1, min(int(total), n_blocks))
    return [math.ceil(total * (b + 1) / n_blocks) for b in range(n_blocks)]


def in_blocks(label, verbose, total, unit, *, n_blocks=10, paced=False):
    """``(first, stop)`` ranges covering ``range(total)`` for work done block by block: one
    block when ``verbose`` is 0, otherwise ``n_blocks`` (:func:`block_ends`) with a line
    ``[label] done/total unit, time`` after each. Use where the blocks give the same result as
    one (independent items: trees, estimators, queries).

    With ``paced``, the lines at ``verbose=1`` are paced by time instead (:class:`Progress`):
    for blocks that are not stages worth a line each, such as the queries of a prediction,
    which print nothing when they are quick.

    Examples
    --------
    >>> from kernelkit.utils._progress import in_blocks
    >>> list(in_blocks("demo", 0, 25, "trees"))
    [(0, 25)]
    >>> list(in_blocks("demo", 1, 25, "queries", n_blocks=2, paced=True))
    [(0, 13), (13, 25)]
    """
    every = None if paced and verbose == 1 else 1
    with Progress(label, verbose, total=total, unit=unit, every=every) as progress:
        first = 0
        for stop in block_ends(total, n_blocks) if verbose else [total]:
            yield first, stop
            progress.update(stop - first)
            first = stop


def report_points(verbose, total):
    """The stages ``1..total`` after which a line is printed: none at ``verbose=0``, every
    tenth of the work at 1 (:func:`block_ends`), every stage at 2 and more.

    Examples
    --------
    >>> from kernelkit.utils._progress import report_points
    >>> sorted(report_points(1, 20))
    [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
    """
    if not verbose:
        return frozenset()
    if verbose == 1:
        return frozenset(block_ends(total))
    return range(1, total + 1)


def _tqdm_available():
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return sys.stderr.isatty()


class Progress:
    """Progress lines of one long computation, printed when ``verbose`` is positive.

    With ``every`` None, lines are paced by time: none before :data:`DELAY` seconds, then at
    most one every :data:`INTERVAL` seconds, so a short computation prints nothing. With an
    integer ``every``, a line each time the work done crosses a multiple of ``every``
    (deterministic, for a fixed number of lines).

    Parameters
    ----------
    label : str
        Shown in front of each line (the estimator or kernel).
    verbose : int
        0: silent.
    total : int, default=None
        Units of work in all, when known.
    unit : str, default="iterations"
    every : int, default=None
        Units between two lines; None: paced by time.

    Examples
    --------
    >>> from kernelkit.utils._progress import Progress
    >>> with Progress("demo", verbose=0, total=10, unit="rows") as progress:
    ...     printed = progress.update(10)
    >>> progress.done
    10
    """

    def __init__(self, label, verbose, total=None, unit="iterations", *, every=None):
        self.label = label
        self.verbose = verbose
        self.total = None if total is None else int(total)
        self.unit = unit
        self.every = every
        self.done = 0
        self.n_lines = 0
        self.start = time.perf_counter()
        self._next_time = self.start + DELAY
        self._bar = None
        if verbose and every is None and total is not None and _tqdm_available():
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, desc=label, unit=unit, file=sys.stderr,
                             delay=DELAY)

    def _due(self, n):
        if self.every is not None:
            return (self.done // self.every) > ((self.done - n) // self.every)
        now = time.perf_counter()
        if now < self._next_time:
            return False
        self._next_time = now + INTERVAL
        return True

    def update(self, n=1, message=None):
        """Record ``n`` more units done; print a line if one is due.

        Parameters
        ----------
        n : int, default=1
        message : str or callable, default=None
            The line (a callable is called only when a line is printed); None:
            ``"{done}/{total} {unit}"``.

        Returns
        -------
        printed : bool
        """
        self.done += n
        if not self.verbose:
            return False
        if self._bar is not None:
            self._bar.update(n)
            return False
        if not self._due(n):
            return False
        if message is None:
            of = "" if self.total is None else f"/{self.total}"
            message = f"{self.done}{of} {self.unit}"
        elif callable(message):
            message = message()
        report(self.label, message, self.start)
        self.n_lines += 1
        return True

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def iteration_callback(label, verbose, every, describe, unit="iterations"):
    """Progress of an iterative solver, as a callback ``callback(n_iter, *state)`` to call
    after iteration ``n_iter`` (by a compiled solver, or a Python loop).

    Parameters
    ----------
    label : str
    verbose : int
        0: no callback (None is returned); 1: lines paced by time (none in the first
        :data:`DELAY` seconds); 2 and more: a line every ``every`` iterations.
    every : int
    describe : callable
        ``describe(n_iter, *state) -> str``, the line; called only when one is printed.
    unit : str, default="iterations"

    Returns
    -------
    callback : callable or None
    """
    if not verbose:
        return None
    lines = Progress(label, verbose, unit=unit, every=every if verbose >= 2 else None)

    def callback(n_iter, *state):
        lines.update(n_iter - lines.done, lambda: describe(n_iter, *state))
    return callback


def stages_callback(label, verbose, stages):
    """Progress of a computation in stages that reports between chunks of its work (a compiled
    core, with the GIL), as a callback ``callback(stage, done, total)``.

    Parameters
    ----------
    label : str
    verbose : int
        0: no callback (None is returned); 1: lines paced by time (none in the first
        :data:`DELAY` seconds); 2 and more: a line at every call.
    stages : sequence of (str, str)
        ``(what is done, unit)`` of each stage: the line reads
        ``[label] what is done: done/total unit, time``.

    Returns
    -------
    callback : callable or None

    Examples
    --------
    >>> from kernelkit.utils._progress import stages_callback
    >>> stages_callback("demo", 0, [("counting", "samples")]) is None
    True
    """
    if not verbose:
        return None
    lines = Progress(label, verbose, every=1 if verbose >= 2 else None)

    def callback(stage, done, total):
        what, unit = stages[stage]
        lines.update(1, lambda: f"{what}: {done}/{total} {unit}")
    return callback


def solver_progress(label, verbose):
    """The ``progress(n_iter, objective, max_gradient)`` callback of the smooth solvers (:mod:`kernelkit.utils._smooth_solvers`; None
    when ``verbose`` is 0): lines paced by time at 1, one per iteration at 2."""
    def describe(n_iter, value, max_gradient):
        gradient = "" if max_gradient is None else f", max |gradient| {max_gradient:.3g}"
        return f"iteration {n_iter}: objective {value:.10g}{gradient}"
    return iteration_callback(label, verbose, 1, describe)


def model_name(classes, k):
    """What the ``k``-th binary model of a classifier separates: its two classes, or one
    class from the rest."""
    return "binary model" if len(classes) == 2 else f"class {classes[k]} against the rest"


def report_model(estimator, name, fit, start):
    """At ``estimator.verbose >= 1``, the line of one fitted model ``fit = (theta, n_iter,
    converged, objective)`` solved by ``estimator.solver`` since ``start``."""
    if estimator.verbose:
        _, n_iter, converged, objective = fit
        report(type(estimator).__name__,
               f"{name}: {n_iter} {estimator.solver} iterations, objective {objective:.10g}"
               + ("" if converged else ", not converged"), start)
