"""Run the fuzz cases of one group, from a given index, recording each outcome.

``python _worker.py GROUP SCALE START PROGRESS TMP`` appends to PROGRESS one line per case:
``start\\t<i>\\t<name>`` before it runs (so a crash or hang names the case: the last start
without an end), then ``end\\t<i>\\t<ok|FAIL>\\t<detail>``. The parent (``test_fuzz.py``)
restarts the worker after the culprit when it dies.
"""

import os
import sys
import warnings

import numpy as np
import scipy.sparse as sp

# Exceptions that are a clear refusal of bad input. numpy's LinAlgError subclasses ValueError but
# says nothing about the input, so it is not one; nor are these messages of numpy/scipy internals.
UNHELPFUL_MESSAGES = ("cannot convert float nan to integer", "exceeds matrix dimension",
                      "index out of bounds", "is out of bounds for axis", "division by zero",
                      "math domain error", "unhashable type")


def _nonfinite(value, depth=0):
    """Whether an output holds NaN/inf (arrays, sparse matrices, tuples of them)."""
    if depth > 3:
        return False
    if sp.issparse(value):
        value = value.data
    if isinstance(value, (tuple, list)) and len(value) < 50:
        return any(_nonfinite(v, depth + 1) for v in value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
        return not np.all(np.isfinite(value))
    if isinstance(value, float):
        return not np.isfinite(value)
    return False


def judge(thunk):
    """``(ok, detail)`` of one case: a finite result, a warning, or a clear ValueError/TypeError."""
    from numpy.linalg import LinAlgError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.seterr(all="ignore")
        try:
            result = thunk()
        except (ValueError, TypeError) as exc:
            message = str(exc)
            kind = type(exc).__name__
            if isinstance(exc, LinAlgError):
                return False, f"LinAlgError: {message}"
            if not message.strip():
                return False, f"{kind} without a message"
            if any(bad in message.lower() for bad in UNHELPFUL_MESSAGES):
                return False, f"{kind} from the internals: {message}"
            return True, f"{kind}: {message[:200]}"
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
            # loaders: a missing file is refused by the OS error that names the path
            return True, f"{type(exc).__name__}: {exc}"[:200]
        except Exception as exc:  # noqa: BLE001 - every other exception is a finding
            return False, f"{type(exc).__module__}.{type(exc).__name__}: {exc}"[:400]
    warned = [w for w in caught if not issubclass(w.category, (DeprecationWarning,
                                                                PendingDeprecationWarning))]
    if _nonfinite(result) and not warned:
        return False, "NaN/inf in the output without a warning"
    if warned:
        return True, f"warning {warned[0].category.__name__}: {str(warned[0].message)[:160]}"
    return True, "finite result"


def main():
    group, scale, start, progress, tmp = sys.argv[1:6]
    tests = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, tests)
    from _cases import cases

    found = cases(group, int(scale), tmp)
    with open(progress, "a", buffering=1, encoding="utf-8") as out:
        if int(start) == 0:
            out.write(f"count\t{len(found)}\n")
        for i in range(int(start), len(found)):
            name, thunk = found[i]
            out.write(f"start\t{i}\t{name}\n")
            out.flush()
            os.fsync(out.fileno())
            ok, detail = judge(thunk)
            detail = detail.replace("\n", " ").replace("\t", " ")
            out.write(f"end\t{i}\t{'ok' if ok else 'FAIL'}\t{detail}\n")


if __name__ == "__main__":
    main()
