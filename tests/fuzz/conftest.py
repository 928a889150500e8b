"""The fuzz suite's table of cases and findings by class, printed at the end of the run."""

import pytest

TALLIES = pytest.StashKey[dict]()


@pytest.fixture
def fuzz_tallies(request):
    """``{group: {class: Counter}}`` of this run, filled by each group's test."""
    return request.config.stash.setdefault(TALLIES, {})


def pytest_terminal_summary(terminalreporter, config):
    tallies = config.stash.get(TALLIES, None)
    if tallies:
        from test_fuzz import summary_table

        terminalreporter.section("fuzz cases and findings by class")
        terminalreporter.write_line(summary_table(tallies))
