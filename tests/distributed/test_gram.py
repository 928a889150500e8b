"""kernelkit.distributed on a 2-worker LocalCluster (processes, loopback, no dashboard): tiled
Gram matrices equal the in-process ones bit for bit, also when a worker dies mid-run; Zarr stores
resume; joblib's Dask backend runs a grid search of a string-kernel pipeline."""

import faulthandler
import importlib
import os
import pickle
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

NEEDS_EXTRA = 'needs the distributed extra: pip install "kernelkit[distributed]"'
pytest.importorskip("distributed", reason=NEEDS_EXTRA)
pytest.importorskip("zarr", reason=NEEDS_EXTRA)

import dask  # noqa: E402
import zarr  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402
from sklearn.base import clone  # noqa: E402

from kernelkit.datasets import load_mutag, load_secreted_proteins  # noqa: E402
from kernelkit.distributed import gram, plan_tile  # noqa: E402
from kernelkit.kernels import (  # noqa: E402
    GeometricWalkKernel,
    GraphletKernel,
    LocalAlignmentKernel,
    MismatchKernel,
    PackedGraphs,
    PackedSequences,
    RandomWalkKernel,
    ShortestPathKernel,
    SpectrumKernel,
    SubstringKernel,
    SubtreeKernel,
    WalkKernel,
    WeisfeilerLehmanKernel,
)
from kernelkit.kernels._base import pairwise_structured_kernel  # noqa: E402
from kernelkit.utils._threads import effective_n_threads  # noqa: E402

pytestmark = pytest.mark.distributed

# No test of this module may hang CI: past this, the stacks are dumped and the run stops.
TEST_SECONDS = 60


@pytest.fixture(autouse=True)
def _bounded_in_time():
    faulthandler.dump_traceback_later(TEST_SECONDS, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


SEQUENCES = [s[:60] for s in load_secreted_proteins()[0][:16]]
GRAPHS = load_mutag().graphs[:18]
STRING_KERNELS = [SpectrumKernel(k=3), MismatchKernel(k=3, m=1), SubstringKernel(k=2),
                  LocalAlignmentKernel()]
GRAPH_KERNELS = [WeisfeilerLehmanKernel(n_iter=2), ShortestPathKernel(), WalkKernel(n=3),
                 SubtreeKernel(depth=2), GraphletKernel(), GeometricWalkKernel(),
                 RandomWalkKernel()]


@pytest.mark.parametrize("kernel", STRING_KERNELS + GRAPH_KERNELS, ids=lambda k: type(k).__name__)
def test_tiles_equal_the_in_process_gram_bit_for_bit(kernel, client):
    data = SEQUENCES if kernel in STRING_KERNELS else GRAPHS
    X, Y = data[:7], data[7:]
    lazy = []
    expected = []
    for normalize in (False, True):
        k = clone(kernel).set_params(normalize=normalize)
        expected += [clone(k).fit_transform(data), pairwise_structured_kernel(clone(k), X, Y)]
        lazy += [gram(k, data, tile=5, client=client), gram(k, X, Y, tile=4, client=client)]
    assert lazy[0].chunks == ((5, 5, 5, len(data) - 15),) * 2
    for got, want in zip(dask.compute(*lazy), expected):
        np.testing.assert_array_equal(got, want)


def test_a_worker_killed_mid_run_gives_the_identical_matrix(client):
    sequences = load_secreted_proteins()[0][:160]
    kernel = LocalAlignmentKernel()
    expected = clone(kernel).fit_transform(sequences)
    future = client.compute(gram(kernel, sequences, tile=20, client=client))
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 30
    while not any(client.processing().values()):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    victim = next(worker for worker, tasks in client.processing().items() if tasks)
    assert not future.done()
    os.kill(pids[victim], signal.SIGKILL)
    np.testing.assert_array_equal(future.result(timeout=TEST_SECONDS), expected)
    # the nanny restarted the worker: the next tests have two again
    client.wait_for_workers(2, timeout=TEST_SECONDS)
    assert victim not in client.nthreads()


def test_inner_threads_are_the_threads_of_each_tile(client):
    kernel = WeisfeilerLehmanKernel(n_iter=2)
    expected = clone(kernel).fit_transform(GRAPHS)
    for inner_threads in (1, 2, 10**6):   # beyond the CPUs: as many threads as there are CPUs
        K = gram(kernel, GRAPHS, tile=6, client=client, inner_threads=inner_threads)
        # every tile task computes with the kernel as shipped, whose n_jobs sizes the OpenMP
        # team of its compiled core and the BLAS limit of the tile
        nodes = [getattr(v, "value", v) for v in dict(K.__dask_graph__()).values()]
        shipped = [v for v in nodes if isinstance(v, WeisfeilerLehmanKernel)]
        assert shipped and all(k.n_jobs == effective_n_threads(inner_threads) for k in shipped)
        assert all(k.n_jobs <= os.cpu_count() for k in shipped)
        np.testing.assert_array_equal(K.compute(), expected)
    with pytest.raises(ValueError, match="inner_threads"):
        gram(kernel, GRAPHS, inner_threads=0)


def test_zarr_store_resumes_only_missing_tiles(client, tmp_path):
    kernel = SpectrumKernel(k=3, normalize=True)
    expected = kernel.fit_transform(SEQUENCES)
    path = tmp_path / "gram.zarr"
    K = gram(kernel, SEQUENCES, tile=4, store=path, client=client)
    np.testing.assert_array_equal(K.compute(), expected)
    # an interrupted run: two tiles (one upper, its mirror) missing, a diagonal tile too
    array = zarr.open_array(path, mode="r+")
    array[0:4, 8:12] = np.nan
    array[8:12, 0:4] = np.nan
    array[4:8, 4:8] = np.nan
    marker = np.full((4, 4), -1.0)
    array[12:16, 12:16] = marker  # a finite tile is taken as done: not recomputed
    K = gram(kernel, SEQUENCES, tile=4, store=path, client=client).compute()
    np.testing.assert_array_equal(K[:12, :12], expected[:12, :12])
    np.testing.assert_array_equal(K[12:16, 12:16], marker)
    with pytest.raises(ValueError, match="holds a"):
        gram(kernel, SEQUENCES[:10], tile=4, store=path, client=client)


def test_packed_inputs_pickle_size_and_token():
    from dask.base import tokenize
    from dask.sizeof import sizeof

    packed = PackedSequences.from_sequences(SEQUENCES)
    again = pickle.loads(pickle.dumps(packed))
    assert list(again) == SEQUENCES and tokenize(again) == tokenize(packed)
    assert sizeof(packed) == packed.codes.nbytes + packed.offsets.nbytes + sys.getsizeof(
        packed.alphabet)
    graphs = PackedGraphs.from_graphs(GRAPHS)
    assert tokenize(pickle.loads(pickle.dumps(graphs))) == tokenize(graphs)
    assert tokenize(graphs[:5]) != tokenize(graphs[1:6])
    assert sizeof(graphs) >= graphs.indices.nbytes + graphs.node_labels.nbytes
    np.testing.assert_array_equal(WeisfeilerLehmanKernel().fit_transform(graphs[[3, 1, 4]]),
                                  WeisfeilerLehmanKernel().fit_transform(
                                      [GRAPHS[3], GRAPHS[1], GRAPHS[4]]))


def test_planner_limits():
    # 1 µs a pair, 10 s tiles → 3162² pairs, but 4 tiles a thread on 2 threads cap it
    assert plan_tile(10_000, 10_000, 1e-6, symmetric=False, n_threads=2) == 3162
    assert plan_tile(2_000, 2_000, 1e-6, symmetric=False, n_threads=2) == 707
    # 128 MiB tiles at most
    assert plan_tile(10**6, 10**6, 1e-12, symmetric=False, n_threads=1) == 4096
    # at most 1e5 tasks wins over the time target
    assert plan_tile(10**6, 10**6, 1e-3, symmetric=True, n_threads=64) == 2236


@pytest.mark.parametrize("bad", [dict(n_threads=0), dict(itemsize=0), dict(n_rows=-5),
                                 dict(target_seconds=-1.0), dict(target_seconds=float("nan")),
                                 dict(seconds_per_pair=-1e-6)], ids=str)
def test_planner_names_a_bad_argument(bad):
    arguments = dict(n_rows=100, n_cols=100, seconds_per_pair=1e-6, symmetric=True,
                     n_threads=2) | bad
    with pytest.raises(ValueError, match=next(iter(bad))):
        plan_tile(**arguments)


def test_bad_arguments():
    with pytest.raises(TypeError, match="string or graph kernel"):
        gram("rbf", SEQUENCES)
    with pytest.raises(ValueError, match="tile"):
        gram(SpectrumKernel(), SEQUENCES, tile=0)
    for seconds in (-1, 0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="target_seconds"):
            gram(SpectrumKernel(), SEQUENCES, target_seconds=seconds)
    with pytest.raises(ValueError, match="non-finite|overflow"):
        gram(WalkKernel(n=400), [GRAPHS[0]] * 3, tile=2).compute(scheduler="sync")


def test_a_tile_larger_than_memory_is_refused_and_one_larger_than_the_matrix_is_clamped(
        tmp_path, under_address_limit):
    # one 10⁴ × 10⁴ tile in float64 and its float32 copy: 1.12 GiB, refused under a 512 MiB
    # address-space headroom before any work (instead of a MemoryError or a kill)
    result = under_address_limit(
        "from kernelkit.distributed import gram\n"
        "from kernelkit.kernels import SpectrumKernel",
        "gram(SpectrumKernel(k=2), ['ACGT'] * 10_000, tile=10**9, dtype='float32')",
        headroom=512 << 20)
    assert result.returncode == 0, result.stderr
    assert "ValueError: gram(tile=1000000000) with tiles of side 10000 " in result.stdout
    assert "1.12 GiB of memory" in result.stdout and "smaller tile" in result.stdout
    # on a small matrix the same tile is the whole matrix, also as a Zarr chunk
    K = gram(SpectrumKernel(k=2), SEQUENCES[:5], tile=10**9, store=tmp_path / "gram.zarr")
    assert K.chunks == ((5,), (5,))
    np.testing.assert_array_equal(K.compute(scheduler="sync"),
                                  SpectrumKernel(k=2).fit_transform(SEQUENCES[:5]))


def test_grid_search_with_the_dask_joblib_backend(client):
    from joblib import parallel_config
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline

    from kernelkit.svm import SVC

    sequences, labels, _ = load_secreted_proteins()
    sequences, labels = sequences[::10], labels[::10]       # 66 proteins of both classes
    search = GridSearchCV(make_pipeline(SpectrumKernel(k=3, normalize=True),
                                        SVC(kernel="precomputed")),
                          {"svc__C": [0.1, 10.0]}, cv=2)
    with parallel_config(backend="dask"):
        search.fit(sequences, labels)
    local = clone(search).fit(sequences, labels)
    np.testing.assert_array_equal(search.cv_results_["mean_test_score"],
                                  local.cv_results_["mean_test_score"])


def test_import_kernelkit_does_not_import_dask_and_missing_extra_is_named():
    code = ("import sys, kernelkit, kernelkit.kernels, kernelkit.kernel_approximation; "
            "print(any(m == 'dask' or m.startswith('dask.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
    code = ("import sys; sys.modules['dask'] = None\n"
            "try:\n    import kernelkit.distributed\nexcept ImportError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert 'pip install "kernelkit[distributed]"' in out
    assert importlib.import_module("kernelkit.distributed").gram is gram


def test_nystroem_features_of_a_dask_array_are_lazy_and_equal(client):
    import dask.array as da

    from kernelkit.kernel_approximation import KernelNystroem
    from kernelkit.linear_model import Ridge

    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 6))
    nystroem = KernelNystroem(gamma=0.2, n_components=50, random_state=0).fit(X[:200])
    lazy = nystroem.transform(da.from_array(X, chunks=(120, 3)))
    assert isinstance(lazy, da.Array) and lazy.chunks[1] == (50,)
    F = lazy.compute()
    np.testing.assert_allclose(F, nystroem.transform(X), rtol=1e-12, atol=1e-12)
    # the features feed kernelkit's linear models as any matrix
    assert Ridge(alpha=1.0).fit(F, X[:, 0]).score(F, X[:, 0]) > 0.5
