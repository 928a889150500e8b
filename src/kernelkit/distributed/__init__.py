"""Gram matrices of string and graph kernels on a Dask cluster (optional extra ``distributed``).

``import kernelkit`` never imports Dask; importing this module needs
``pip install "kernelkit[distributed]"`` (dask[array], distributed, zarr).
"""

try:
    import dask  # noqa: F401
    import dask.array  # noqa: F401
    import distributed  # noqa: F401
    import zarr  # noqa: F401
except ImportError as exc:  # pragma: no cover - tested by hiding the modules
    raise ImportError(
        f"kernelkit.distributed needs Dask and Zarr ({exc}); install the optional extra with "
        'pip install "kernelkit[distributed]".'
    ) from exc

from kernelkit.distributed._gram import gram, plan_tile

# the packed inputs live in (and are documented with) kernelkit.kernels; importable here too
from kernelkit.kernels import PackedGraphs, PackedSequences  # noqa: F401

__all__ = ["gram", "plan_tile"]
