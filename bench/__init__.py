"""Side-by-side benchmarks: kernelkit's compiled cores vs their pure-Python references vs peers.

Run ``kernelkit bench [--quick] [SUITE ...]``. Each suite is a module in
``kernelkit.bench.suites`` that defines ``SUITE`` (a :class:`Suite`); the same classes time any
code of your own: declare a :class:`Suite` of :class:`Contender` objects, then
:func:`run_suite` and :func:`format_table`.
"""

from kernelkit.bench._harness import (
    Contender,
    Suite,
    available_suites,
    busy_core,
    case_summaries,
    format_table,
    load_suite,
    machine_description,
    run_suite,
)

__all__ = ["Contender", "Suite", "available_suites", "busy_core", "case_summaries",
           "format_table", "load_suite", "machine_description", "run_suite"]
