"""Progress of long computations and ``verbose`` messages, on stderr.

One helper for every Gram computation and long fit: a ``tqdm`` bar when ``tqdm`` is installed
and stderr is a terminal; otherwise one plain line per update (never ``\\r``, so a log file gets
one readable line each time).
"""

import sys
import time

__all__ = ["Progress", "report"]


def report(label, message):
    """Print ``[label] message`` on stderr (the ``verbose`` output of estimators)."""
    print(f"[{label}] {message}", file=sys.stderr, flush=True)


def _tqdm_available():
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return sys.stderr.isatty()


class Progress:
    """Progress over ``total`` units of work, reported when ``verbose`` is positive.

    Parameters
    ----------
    total : int
    label : str
        What is computed (shown in front of each line).
    verbose : int
        0: silent.
    unit : str, default="rows"

    Examples
    --------
    >>> from kernelkit.utils._progress import Progress
    >>> with Progress(10, "demo", verbose=0) as progress:
    ...     progress.update(10)
    """

    def __init__(self, total, label, verbose, unit="rows"):
        self.total = int(total)
        self.label = label
        self.verbose = verbose
        self.unit = unit
        self.done = 0
        self._start = time.perf_counter()
        self._bar = None
        if verbose and _tqdm_available():
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, desc=label, unit=unit, file=sys.stderr)

    def update(self, n):
        """Record ``n`` more units done."""
        self.done += n
        if not self.verbose:
            return
        if self._bar is not None:
            self._bar.update(n)
        else:
            report(self.label, f"{self.done}/{self.total} {self.unit}, "
                               f"{time.perf_counter() - self._start:.1f} s")

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
