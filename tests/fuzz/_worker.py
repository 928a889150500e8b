"""Run the fuzz cases of one group, from a given index, recording each outcome.

``python _worker.py GROUP SCALE START PROGRESS TMP`` appends to PROGRESS one line per case:
``start\\t<i>\\t<kind>\\t<name>`` before it runs (so a crash or hang names the case: the last
start without an end), then ``end\\t<i>\\t<outcome>\\t<detail>`` with an outcome of ``OUTCOMES``.
The parent (``test_fuzz.py``) restarts the worker after the culprit when it dies, and after a
case that left too many threads behind (exit status ``RESTART``), so that the next case starts
with a fresh thread pool.

The worker runs under an address-space limit (``KERNELKIT_FUZZ_MEMORY_GIB``, 4 GiB by default):
an absurd allocation becomes a ``MemoryError`` (an unclear exception) instead of swapping the
machine. Its OpenMP runtime is capped by ``OMP_THREAD_LIMIT`` (set by the parent), so a thread
count that is not clamped shows as more threads than CPUs without starting a million of them.
"""

import os
import resource
import sys
import warnings

import numpy as np
import scipy.sparse as sp

# Exceptions that are a clear refusal of bad input. numpy's LinAlgError subclasses ValueError but
# says nothing about the input, so it is not one; nor are these messages of numpy/scipy internals.
UNHELPFUL_MESSAGES = ("cannot convert float nan to integer", "exceeds matrix dimension",
                      "index out of bounds", "is out of bounds for axis", "division by zero",
                      "math domain error", "unhashable type", "could not be broadcast",
                      "setting an array element with a sequence", "must not contain infs or nans",
                      "inhomogeneous shape", "zero-size array to reduction operation",
                      "negative dimensions are not allowed", "maximum supported dimension",
                      "array is too big", "all input arrays must have the same shape")

# Outcomes of a case: "pass" is no finding; "crash" and "hang" are found by the parent (a
# "hang" also by a case that bounds its own wait: a fork child).
OUTCOMES = ("pass", "nonfinite", "unclear", "threads", "crash", "hang")
RESTART = 75
# Outputs of N(0, 1) data beyond this, without a warning, are an overflow in disguise (checked in
# the ``interplay`` cases only: elsewhere the inputs themselves may be that large).
HUGE = 1e100
MEMORY_GIB = float(os.environ.get("KERNELKIT_FUZZ_MEMORY_GIB", "4"))


def _nonfinite(value, bound=np.inf, depth=0):
    """Whether an output holds NaN/inf, or values beyond ``bound`` in magnitude (arrays, sparse
    matrices, tuples of them)."""
    if depth > 3:
        return False
    if sp.issparse(value):
        value = value.data
    if isinstance(value, (tuple, list)) and len(value) < 50:
        return any(_nonfinite(v, bound, depth + 1) for v in value)
    if isinstance(value, (float, np.floating, np.complexfloating)):
        value = np.asarray(value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            return not np.all(np.isfinite(value) & (np.abs(value) <= bound))
    return False


def n_threads():
    """Threads of this process now (from ``/proc``; 1 where there is none)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def judge(thunk, kind="inputs", announce=None):
    """``(outcome, detail)`` of one case: ``"pass"`` for a finite result, a warning, or a clear
    ValueError/TypeError; ``"unclear"`` for any other exception (LinAlgError, MemoryError,
    IndexError, a message of numpy/scipy internals); ``"nonfinite"`` for NaN/inf (or, in
    ``interplay`` cases, values beyond ``HUGE``) without a warning; ``"hang"`` for a
    TimeoutError (a case that bounds its own wait). ``announce(text)`` is called
    at once for each warning, so that a case that warns and then runs long is known to have
    warned before it was stopped."""
    from numpy.linalg import LinAlgError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if announce is not None:
            def showwarning(message, category, filename, lineno, file=None, line=None):
                caught.append(warnings.WarningMessage(message, category, filename, lineno,
                                                      file, line))
                announce(f"{category.__name__}: {message}")
            warnings.showwarning = showwarning     # restored by catch_warnings
        np.seterr(all="ignore")
        try:
            result = thunk()
        except (ValueError, TypeError) as exc:
            message = str(exc)
            name = type(exc).__name__
            if isinstance(exc, LinAlgError):
                return "unclear", f"LinAlgError: {message}"
            if not message.strip():
                return "unclear", f"{name} without a message"
            if any(bad in message.lower() for bad in UNHELPFUL_MESSAGES):
                return "unclear", f"{name} from the internals: {message}"
            return "pass", f"{name}: {message[:200]}"
        except TimeoutError as exc:
            # a case that bounds a wait itself (a fork child) and reports a hang
            return "hang", str(exc)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
            # loaders: a missing file is refused by the OS error that names the path
            return "pass", f"{type(exc).__name__}: {exc}"[:200]
        except ZeroDivisionError as exc:
            if _raised_by_the_fuzz(exc):
                return "pass", "the callable's own ZeroDivisionError, passed on unchanged"
            return "unclear", f"ZeroDivisionError: {exc}"
        except Exception as exc:  # noqa: BLE001 - every other exception is a finding
            return "unclear", f"{type(exc).__module__}.{type(exc).__name__}: {exc}"[:400]
    warned = [w for w in caught if not issubclass(w.category, (DeprecationWarning,
                                                                PendingDeprecationWarning))]
    if warned:
        return "pass", f"warning {warned[0].category.__name__}: {str(warned[0].message)[:160]}"
    if _nonfinite(result):
        return "nonfinite", "NaN/inf in the output without a warning"
    if kind == "interplay" and _nonfinite(result, HUGE):
        return "nonfinite", f"values beyond {HUGE:g} in the output without a warning"
    return "pass", "finite result"


def _raised_by_the_fuzz(exc):
    """Whether ``exc`` was raised in the fuzz's own code (a callable kernel that divides by 0):
    a user's exception passed on unchanged is not a finding."""
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return os.path.basename(tb.tb_frame.f_code.co_filename) == "_stress.py"


def limit_memory(gib):
    """Cap this process's address space at ``gib`` GiB, where the platform allows it."""
    limit = int(gib * 2**30)
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        pass


def main():
    group, scale, start, progress, tmp = sys.argv[1:6]
    tests = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, tests)
    limit_memory(MEMORY_GIB)
    from _cases import cases

    from kernelkit.utils._threads import effective_n_threads

    found = cases(group, int(scale), tmp)
    # threads a clamped request may leave behind: an OpenMP team of at most one per CPU, and
    # as many Python worker threads
    allowed = n_threads() + 2 * effective_n_threads(-1)
    with open(progress, "a", buffering=1, encoding="utf-8") as out:
        if int(start) == 0:
            out.write(f"count\t{len(found)}\n")
        for i in range(int(start), len(found)):
            kind, name, thunk = found[i]
            out.write(f"start\t{i}\t{kind}\t{name}\n")
            out.flush()
            os.fsync(out.fileno())
            outcome, detail = judge(thunk, kind, announce=lambda text, i=i: out.write(
                "warned\t{}\t{}\n".format(i, " ".join(text.split())[:300])))
            excess = n_threads() > allowed
            if outcome == "pass" and excess:
                outcome, detail = "threads", (f"{n_threads()} threads after the case, more "
                                              f"than {allowed}: the thread count is not clamped")
            detail = detail.replace("\n", " ").replace("\t", " ")
            out.write(f"end\t{i}\t{outcome}\t{detail}\n")
            if excess:      # the extra threads would be blamed on the next cases
                sys.exit(RESTART)


if __name__ == "__main__":
    main()
