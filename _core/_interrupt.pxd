# Ctrl-C in long nogil loops. A loop calls `interrupted(&state)` between units of work (a pair,
# a tile, an iteration), and inside one long unit every `steps_per_check(work per step)` steps;
# about every CHECK_MILLISECONDS the team's first thread (the caller's thread, which alone may run
# Python's signal handlers) takes the GIL back and calls PyErr_CheckSignals. When a handler
# raised (KeyboardInterrupt), the exception stays set, every thread sees `stop` and leaves its
# loop, the nogil function returns INTERRUPTED and its `def` wrapper calls `raise_pending()`,
# which propagates the exception: status codes in nogil code, exceptions in the wrapper. Threads
# that take their items with `next_item` and end with `leave_team` keep the first thread looking
# at the signals while another one finishes a long item.

cdef extern from "Python.h":
    # declared without `except`: the exception it may set is left for raise_pending()
    int PyErr_CheckSignals() noexcept
    void *PyErr_Occurred() noexcept

cdef extern from "_interrupt.h" nogil:
    int kk_team_leader() noexcept
    int kk_team_size() noexcept
    double kk_seconds() noexcept
    Py_ssize_t kk_fetch_add(Py_ssize_t *counter, Py_ssize_t value) noexcept
    Py_ssize_t kk_load(Py_ssize_t *counter) noexcept
    void kk_pause_millisecond() noexcept

cdef enum:
    INTERRUPTED = -2            # status of a nogil function stopped by a signal
    CHECK_MILLISECONDS = 100    # between two looks at the signals
    # units of O(1) work (DP cells, multiply-adds) between two calls of `interrupted` inside one
    # long item: ~0.1 ms, so the clock read costs nothing measurable
    CHECK_WORK = 1 << 16

ctypedef struct InterruptState:
    double next_check
    volatile int stop
    # NULL, or a flag that another thread sets to stop the loop: a loop run from a Python
    # worker thread (a thread pool) never sees the signals, which only the main thread handles;
    # the main thread, on KeyboardInterrupt, sets the flag instead
    volatile char *cancel


cdef inline void interrupt_init(InterruptState *state) noexcept nogil:
    state.next_check = kk_seconds() + CHECK_MILLISECONDS * 1e-3
    state.stop = 0
    state.cancel = NULL


cdef inline bint interrupted(InterruptState *state) noexcept nogil:
    """Whether a signal handler raised; cheap (a clock read) between the checks."""
    if state.stop:
        return True
    if state.cancel != NULL and state.cancel[0]:
        state.stop = 1
        return True
    if not kk_team_leader():
        return False
    cdef double now = kk_seconds()
    if now < state.next_check:
        return False
    state.next_check = now + CHECK_MILLISECONDS * 1e-3
    with gil:
        if PyErr_CheckSignals() != 0:
            state.stop = 1
    return state.stop != 0


cdef inline Py_ssize_t steps_per_check(Py_ssize_t work_per_step) noexcept nogil:
    """Steps of ``work_per_step`` units each between two calls of `interrupted` (at least 1)."""
    if work_per_step >= CHECK_WORK:
        return 1
    return CHECK_WORK // (work_per_step if work_per_step > 0 else 1)


cdef inline Py_ssize_t next_item(Py_ssize_t *counter) noexcept nogil:
    """The next item for this thread of a team sharing ``counter`` (dynamic schedule by hand)."""
    return kk_fetch_add(counter, 1)


cdef inline void leave_team(InterruptState *state, Py_ssize_t *n_done) noexcept nogil:
    """Call in a ``with parallel()`` block after the thread's last item (``*n_done`` starts at 0).

    Only the team's first thread can handle signals: when it has no item left while the others
    still work (one huge graph taken by another thread), it keeps looking at the signals until
    they are done, instead of waiting at the barrier, so Ctrl-C still stops them.
    """
    kk_fetch_add(n_done, 1)
    if not kk_team_leader():
        return
    while kk_load(n_done) < kk_team_size() and not interrupted(state):
        kk_pause_millisecond()


cdef inline int raise_pending() except -1:
    """Propagate the exception left by a signal handler (call with the GIL, after INTERRUPTED),
    or raise KeyboardInterrupt when the ``cancel`` flag stopped the loop."""
    if PyErr_Occurred() == NULL:
        raise KeyboardInterrupt("cancelled: the main thread was interrupted")
    return -1
