"""Benchmark suites, one module each, discovered by name (``SUITE`` attribute)."""
