# Progress of long nogil passes. A pass that reports runs in chunks; after each one, outside any
# parallel region, the calling thread (the one that released the GIL) takes the GIL back and
# calls a Python callable `progress(stage, done, total)`. What the callable raises stays set, as
# a signal handler's exception does (_interrupt.pxd): the pass stops and returns INTERRUPTED, and
# its def wrapper's raise_pending() propagates the exception. Without a callable (NULL) a pass
# runs in one chunk, as if it had no progress at all.

from cpython.ref cimport PyObject

cdef extern from "Python.h":
    # declared without `except`: the exception it may set is left for raise_pending()
    PyObject *PyObject_CallFunction(PyObject *callable, const char *format, ...) noexcept
    void Py_DecRef(PyObject *obj) noexcept

cdef enum:
    # chunks of a pass that reports: a report every 5 % of its work at most, each chunk long
    # enough that the wait for its slowest thread costs nothing measurable
    PROGRESS_CHUNKS = 20


cdef inline Py_ssize_t progress_chunk(void *progress, Py_ssize_t total,
                                      Py_ssize_t smallest) noexcept nogil:
    """Items per chunk of a pass over ``total`` items: all of them without ``progress``, else a
    ``PROGRESS_CHUNKS``-th of them (at least ``smallest``, at least 1)."""
    cdef Py_ssize_t chunk = total
    if progress != NULL:
        chunk = (total + PROGRESS_CHUNKS - 1) // PROGRESS_CHUNKS
        if chunk < smallest:
            chunk = smallest
    return chunk if chunk > 0 else 1


cdef inline bint report_progress(void *progress, int stage, Py_ssize_t done,
                                 Py_ssize_t total) noexcept nogil:
    """Call ``progress(stage, done, total)`` with the GIL unless ``progress`` is NULL; True
    when it raised (the exception stays set for ``raise_pending``)."""
    cdef PyObject *result
    if progress == NULL:
        return False
    with gil:
        result = PyObject_CallFunction(<PyObject*>progress, "inn", stage, done, total)
        if result == NULL:
            return True
        Py_DecRef(result)
    return False
