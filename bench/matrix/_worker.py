"""One row of the speed matrix in a fresh process, for ``kernelkit bench matrix --baseline``.

``python _worker.py ROW SIZE REPEATS`` builds the row's data, runs kernelkit's contender once
untimed, then ``REPEATS`` times on 2 threads, and prints ``{"wall": s, "cpu": s}`` (medians) as
the last line. With ``KERNELKIT_MATRIX_PATH`` set, kernelkit is imported from that folder (an
unpacked older wheel) instead of the installed one. The matrix's own modules are loaded from
this file's folder (the data lookup, ``_shared_data``, from the folder above), so that an older
kernelkit without them can be timed.
"""

import importlib.util
import json
import os
import pathlib
import statistics
import sys
import types


def _use_kernelkit_from(path):
    """Import kernelkit from ``path``: put it first on ``sys.path`` and drop the import hooks of
    an editable install, which would otherwise answer ``import kernelkit`` first."""
    sys.meta_path[:] = [finder for finder in sys.meta_path
                        if "editable" not in type(finder).__module__]
    sys.path.insert(0, path)


def _load_matrix_modules():
    """``kernelkit.bench.matrix._data`` and ``._rows`` from this folder, and the data lookup
    ``kernelkit.bench._shared_data`` from the folder above, whatever kernelkit."""
    import kernelkit.bench

    folder = pathlib.Path(__file__).resolve().parent
    package = types.ModuleType("kernelkit.bench.matrix")
    package.__path__ = [str(folder)]
    sys.modules["kernelkit.bench.matrix"] = package
    kernelkit.bench.matrix = package
    for name, path in [("kernelkit.bench._shared_data", folder.parent / "_shared_data.py"),
                       ("kernelkit.bench.matrix._data", folder / "_data.py"),
                       ("kernelkit.bench.matrix._rows", folder / "_rows.py")]:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        parent, _, attribute = name.rpartition(".")
        setattr(sys.modules[parent], attribute, module)
    return package._rows


def main(row_name, size, repeats):
    if os.environ.get("KERNELKIT_MATRIX_PATH"):
        _use_kernelkit_from(os.environ["KERNELKIT_MATRIX_PATH"])
    rows = _load_matrix_modules()
    from threadpoolctl import threadpool_limits
    import time

    row = next(r for r in rows.all_rows() if r.name == row_name)
    data = row.setup(row.sizes[rows.SIZES.index(size)])
    walls, cpus = [], []
    with threadpool_limits(limits=2):
        row.kernelkit(data)
        for _ in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            row.kernelkit(data)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
    import kernelkit

    print(json.dumps(dict(wall=statistics.median(walls), cpu=statistics.median(cpus),
                          kernelkit=kernelkit.__file__)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
