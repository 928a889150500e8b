"""Tiled Gram matrices on a 2-worker Dask LocalCluster against the in-process Gram."""

import atexit
import os
import pathlib
import shutil
import tempfile
import tracemalloc

import numpy as np

from kernelkit.bench._harness import Contender, Suite, shared_data

_CLUSTER = {}
PROTEIN_SETS = ("protein_secreted_pengaroo", "protein_thermophilic_profet", "peptide_amp_iamp2l")


def _client():
    """One LocalCluster for the whole run: 2 worker processes of 1 thread, loopback only."""
    if not _CLUSTER:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
        _CLUSTER.update(cluster=cluster, client=client)

        def close():
            client.close()
            cluster.close()
        atexit.register(close)
    return _CLUSTER["client"]


def _cases(quick):
    data = shared_data("NCI1")
    if data is None:
        return []
    if quick:
        return [dict(data="NCI1", kernel="wl", n=1000), dict(data="proteins", kernel="spectrum",
                                                            n=2000),
                dict(data="proteins", kernel="local_alignment", n=150)]
    return [dict(data="NCI1", kernel="wl", n=4110), dict(data="NCI1", kernel="sp", n=4110),
            dict(data="proteins", kernel="spectrum", n=None),
            dict(data="proteins", kernel="local_alignment", n=400)]


def _setup(params):
    from kernelkit.datasets import load_tudataset, read_fasta
    from kernelkit.kernels import (
        LocalAlignmentKernel,
        ShortestPathKernel,
        SpectrumKernel,
        WeisfeilerLehmanKernel,
    )

    root = shared_data("NCI1")
    if params["data"] == "NCI1":
        X = load_tudataset(root / "NCI1", "NCI1").graphs[:params["n"]]
    else:
        X = [s for name in PROTEIN_SETS for s in read_fasta(root / name / "seqs.fasta")[1]]
        # local alignment: the proteins of the first set, whole
        X = X[:params["n"]] if params["n"] else X
    kernel = {"wl": lambda: WeisfeilerLehmanKernel(n_iter=3, normalize=True),
              "sp": lambda: ShortestPathKernel(normalize=True),
              "spectrum": lambda: SpectrumKernel(k=3, normalize=True),
              "local_alignment": lambda: LocalAlignmentKernel(normalize=True)}[params["kernel"]]()
    return dict(kernel=kernel, X=X)


def _summary(K):
    return dict(n=len(K), checksum=float(np.round(np.asarray(K).sum(), 6)))


def _in_process(data):
    from sklearn.base import clone

    return _summary(clone(data["kernel"]).set_params(n_jobs=2).fit_transform(data["X"]))


def _cluster(data):
    from kernelkit.distributed import gram

    K = gram(data["kernel"], data["X"], client=_client(), inner_threads=1)
    values = _summary(K.compute())
    values["tiles"] = K.numblocks[0] * K.numblocks[1]
    return values


def _cluster_store(data):
    """Tiles written by the workers into a Zarr store: the client's peak Python/NumPy memory
    (tracemalloc) during the run, against the Gram's size."""
    from kernelkit.distributed import gram

    folder = tempfile.mkdtemp(prefix="kernelkit-bench-")
    try:
        tracemalloc.start()
        K = gram(data["kernel"], data["X"], client=_client(), inner_threads=1,
                 store=pathlib.Path(folder) / "gram.zarr")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        values = _summary(K.compute())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    n = values["n"]
    values.update(client_peak_MiB=round(peak / 2**20, 2), gram_MiB=round(8 * n * n / 2**20, 1))
    return values


SUITE = Suite(
    name="distributed",
    description=(
        "Gram matrices of string and graph kernels (normalised) computed in one process with 2 "
        "OpenMP threads ('in-process', fit_transform) and by kernelkit.distributed.gram on a "
        "Dask LocalCluster of 2 worker processes × 1 thread on the same machine (tile size by "
        "the pilot-tile planner, 10 s target; inner_threads=1), the result gathered on the "
        "client ('cluster') or written by the workers into a Zarr store ('cluster, Zarr "
        "store'; client_peak_MiB is the client's peak traced memory during the run, gram_MiB "
        "the Gram's size). Efficiency = in-process time / cluster time × in-process cores / "
        "cluster cores = 1 / ratio (as many worker threads as in-process threads). Data: the 4 110 NCI1 molecules "
        "(WL h=3, shortest path) and the 5 647 real protein and peptide sequences of the shared "
        "data sets (spectrum k=3; local alignment on the first 400, 'n' = how many). "
        f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}."
    ),
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("in-process", _in_process),
        Contender("cluster", _cluster, requires=("distributed", "zarr")),
        Contender("cluster, Zarr store", _cluster_store, requires=("distributed", "zarr")),
    ],
    repeats=lambda params, quick: 2 if quick else 3,
)
