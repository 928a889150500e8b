"""Malformed and unusually laid out scipy.sparse matrices, shared by the families' tests of
sparse input and by the fuzz (``tests/fuzz/_cases.py``).

``malformed(X)`` corrupts copies of a clean CSR matrix the ways hand-built arrays go wrong;
``equivalent(X)`` lays the same matrix out in ways scipy allows but a compiled core may not
read; ``assert_refused(setup, calls)`` runs calls on every malformed copy in a child process,
where an out-of-bounds read or write kills the child instead of pytest.
"""

import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import scipy.sparse as sp

HERE = pathlib.Path(__file__).resolve().parent
# far enough out of bounds that reading there faults instead of finding other valid memory
FAR = 2**30


def _csr(data, indices, indptr, shape):
    """A CSR matrix holding these arrays as they are: scipy's constructor would refuse some and
    convert the dtypes of others."""
    X = sp.csr_matrix(shape)
    X.data, X.indices, X.indptr = data, indices, indptr
    return X


def malformed(X):
    """``[(case, matrix, error, fragment)]``: copies of the CSR matrix ``X`` (at least two rows,
    three stored entries, the first row not empty), each broken one way; a check must raise
    ``error`` with a message that contains ``fragment``."""
    X = sp.csr_matrix(X)
    assert X.shape[0] >= 2 and X.nnz >= 3 and X.indptr[1] > 0, "a larger matrix is needed"
    n_rows, n_columns = X.shape
    data, indices, indptr = X.data, X.indices, X.indptr

    def changed(array, position, value):
        array = array.copy()
        array[position] = value
        return array

    cases = [
        ("column index = n_columns", changed(indices, 0, n_columns), "column index"),
        ("column index far beyond n_columns", changed(indices, 0, FAR), "column index"),
        ("column index -1", changed(indices, 0, -1), "column index"),
        ("column index far below 0", changed(indices, 0, -FAR), "column index"),
    ]
    found = [(case, _csr(data, bad, indptr, X.shape), ValueError, fragment)
             for case, bad, fragment in cases]
    decreasing = changed(indptr, 1, indptr[2] + 1)
    found += [(case, _csr(data, indices, bad, X.shape), ValueError, fragment) for case, bad,
              fragment in [("indptr decreasing", decreasing, "indptr decreases"),
                           ("indptr too short", indptr[:-1], "indptr has"),
                           ("indptr too long", np.r_[indptr, indptr[-1]], "indptr has"),
                           ("indptr[0] = 1", changed(indptr, 0, 1), "indptr[0]"),
                           ("indptr[-1] beyond the stored entries",
                            changed(indptr, -1, indptr[-1] + FAR), "exceeds")]]
    # no stored entry, yet a row claims some: scipy's check_format looks no further than nnz
    empty = np.zeros(n_rows + 1, dtype=indptr.dtype)
    found += [
        ("indptr decreasing with nnz 0",
         _csr(data[:0], indices[:0], changed(empty, 1, FAR), X.shape), ValueError,
         "indptr decreases"),
        ("data shorter than indices", _csr(data[:-1], indices, indptr, X.shape), ValueError,
         "same length"),
        ("float indices", _csr(data, indices.astype(np.float64), indptr, X.shape), TypeError,
         "integers"),
    ]
    csc = X.tocsc()
    csc.indices = changed(csc.indices, 0, n_rows)
    coo = X.tocoo()
    coo.col = changed(coo.col, 0, FAR)
    array = sp.csr_array(X)
    array.indices = changed(array.indices, 0, FAR)
    found += [("CSC: row index = n_rows", csc, ValueError, "row index"),
              ("COO: column index far beyond n_columns", coo, ValueError, "column index"),
              ("csr_array: column index far beyond n_columns", array, ValueError,
               "column index")]
    return found


def equivalent(X):
    """``[(case, matrix)]``: the matrix ``X`` laid out in the ways scipy allows, each of which an
    estimator must read as ``X`` itself."""
    X = sp.csr_matrix(X)
    data, indices, indptr = X.data, X.indices, X.indptr
    # each entry split in two halves at its own position
    halves = _csr(np.repeat(data / 2, 2), np.repeat(indices, 2), 2 * indptr, X.shape)
    # storage beyond indptr[-1] is unused (scipy drops it): junk there must not be read
    padded = _csr(np.r_[data, 1e300], np.r_[indices, FAR].astype(indices.dtype), indptr,
                  X.shape)
    return [
        ("non-contiguous data and indices",
         _csr(np.repeat(data, 2)[::2], np.repeat(indices, 2)[::2], indptr, X.shape)),
        ("uint32 indices and indptr",
         _csr(data, indices.astype(np.uint32), indptr.astype(np.uint32), X.shape)),
        ("int64 indices and indptr",
         _csr(data, indices.astype(np.int64), indptr.astype(np.int64), X.shape)),
        ("int64 indptr, int32 indices",
         _csr(data, indices.astype(np.int32), indptr.astype(np.int64), X.shape)),
        ("repeated entries", halves),
        ("unused storage beyond indptr[-1]", padded),
        ("CSC", X.tocsc()),
        ("COO", X.tocoo()),
        ("csr_array", sp.csr_array(X)),
    ]


_CHILD = """
import sys
sys.path.insert(0, {here!r})
import numpy as np
import scipy.sparse as sp
from _sparse_inputs import malformed

{setup}

for case, X, error, fragment in malformed(make()):
    for call in {calls!r}:
        print("start", case, call, sep="\t", flush=True)
        try:
            exec(call)
        except (ValueError, TypeError) as raised:
            outcome = (type(raised) is error and fragment in str(raised)
                       and {name!r} in str(raised))
            print("refused" if outcome else "unclear", case, call,
                  type(raised).__name__ + ": " + " ".join(str(raised).split()), sep="\t",
                  flush=True)
        else:
            print("accepted", case, call, "", sep="\t", flush=True)
"""


# set-up of assert_refused for the estimators that take a precomputed affinity: make() gives the
# symmetric 4-nearest-neighbour graph of 20 points
KNN_AFFINITY = textwrap.dedent("""
    from sklearn.neighbors import kneighbors_graph
    Z = np.random.default_rng(0).normal(size=(20, 2))
    def make():
        A = kneighbors_graph(Z, 4)
        return sp.csr_matrix(A.maximum(A.T))
    """)


def assert_refused(setup, calls, name="X"):
    """Run each of ``calls`` (Python statements on ``X``) on every malformed copy of ``make()``
    in a child process; assert that the child lived and that every call raised the case's
    error with a message naming ``name`` and the fault. ``setup`` defines ``make()``, returning
    a clean CSR matrix, and whatever the calls use (data, a fitted model)."""
    code = _CHILD.format(here=str(HERE), setup=textwrap.dedent(setup), calls=list(calls),
                         name=name)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=600)
    records = [line.split("\t") for line in proc.stdout.splitlines()]
    started = [record[1:3] for record in records if record[0] == "start"]
    assert proc.returncode == 0, (
        f"the child died (return code {proc.returncode}) in {started[-1:]}:\n"
        f"{proc.stderr[-2000:]}")
    outcomes = [record for record in records if record[0] in ("refused", "unclear", "accepted")]
    assert outcomes and len(outcomes) == len(started)
    wrong = [record for record in outcomes if record[0] != "refused"]
    assert not wrong, "\n".join("\t".join(record) for record in wrong)
