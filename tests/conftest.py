"""Shared fixtures: seeds, hypothesis profile, and the optional large data sets in ../shared."""

import os
import pathlib

import numpy as np
import pytest
from hypothesis import settings

# Deterministic property tests (STYLE.md): same examples every run, no example database.
settings.register_profile("kernelkit", derandomize=True, database=None, max_examples=40,
                          deadline=None)
settings.load_profile("kernelkit")

REPO_ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(params=[0] if not os.environ.get("KERNELKIT_ALL_SEEDS") else range(100))
def random_seed(request):
    """A seed; tests using it must pass for every seed 0–99 (``KERNELKIT_ALL_SEEDS=1`` runs all)."""
    return request.param


@pytest.fixture
def rng(random_seed):
    return np.random.default_rng(random_seed)


@pytest.fixture(autouse=True)
def _progress_paced_by_time_off(monkeypatch):
    """Progress lines paced by time never come due, so the lines a test counts do not depend on
    the machine's speed; a test of those lines sets ``DELAY`` and ``INTERVAL`` to 0 itself."""
    from kernelkit.utils import _progress

    monkeypatch.setattr(_progress, "DELAY", float("inf"))


@pytest.fixture(scope="session")
def shared_data():
    """``../shared/data`` beside the checkout (benchmark-size sets); skips when absent."""
    path = pathlib.Path(os.environ.get("KERNELKIT_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))
    if not path.is_dir():
        pytest.skip("large data sets of ../shared/data are not available")
    return path


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="tests/fuzz: ten times more generated cases per estimator")


@pytest.fixture
def near_float_max():
    """``make(value=1e200)``: five normal samples and five at ``value`` in every feature, whose
    squared distances overflow float64."""

    def make(value=1e200):
        rng = np.random.default_rng(0)
        return np.vstack([rng.normal(size=(5, 3)), np.full((5, 3), value)])

    return make
