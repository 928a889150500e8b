"""Side-by-side benchmarks: kernelkit's compiled cores vs their pure-Python references vs peers.

Run ``python -m kernelkit bench [--quick] [SUITE ...]``. Each suite is a module in
``kernelkit.bench.suites`` that defines ``SUITE`` (a :class:`~kernelkit.bench._harness.Suite`).
"""
