"""The files of ``kernelkit gram``: the FASTA file or TU-format folder read, the output checked
before any work is done, and the Gram matrix written as .npy or .zarr without leaving a partial
file behind."""

import importlib.util
import os
import tempfile


def _check_gram_output(parser, output):
    """Refuse an output that cannot be written, before the Gram is computed."""
    extension = os.path.splitext(output)[1].lower()
    if extension not in (".npy", ".zarr"):
        parser.error(f"-o {output!r}: the output must end in .npy or .zarr")
    if extension == ".zarr":
        if importlib.util.find_spec("zarr") is None:
            parser.error("-o: .zarr output needs the zarr package, which this Python cannot "
                         "import; write .npy instead")
        if os.path.exists(output):
            parser.error(f"-o {output!r} already exists; remove it or choose another name")
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        parser.error(f"-o {output!r}: the folder {folder!r} does not exist")
    if os.path.isdir(output) and extension == ".npy":
        parser.error(f"-o {output!r} is a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        parser.error(f"-o {output!r}: the folder {folder!r} is not writable")


def _read_gram_input(parser, args):
    from kernelkit.datasets import load_tudataset, read_fasta

    path = args.input
    if args.input_kind == "fasta":
        if not os.path.isfile(path):
            parser.error(f"{path!r} is not a file (a FASTA file is expected)")
        names, sequences = read_fasta(path)
        if not sequences:
            parser.error(f"{path!r} holds no FASTA record")
        return sequences, f"{len(sequences)} sequences"
    if not os.path.isdir(path):
        parser.error(f"{path!r} is not a folder (a TU-format graph set is expected)")
    name = args.name or os.path.basename(os.path.normpath(path))
    graphs = load_tudataset(path, name).graphs
    return graphs, f"{len(graphs)} graphs of {name}"


def _save_gram(K, output):
    """Write ``K`` under a temporary name beside ``output``, then rename it: a failed or
    interrupted write leaves nothing behind."""
    folder = os.path.dirname(os.path.abspath(output))
    umask = os.umask(0)
    os.umask(umask)
    if output.lower().endswith(".zarr"):
        import shutil

        import zarr

        tmp = tempfile.mkdtemp(dir=folder, prefix=".kernelkit-gram-", suffix=".zarr")
        try:
            os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes it private
            zarr.save_array(tmp, K)
            os.replace(tmp, output)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return
    import numpy as np

    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".kernelkit-gram-", suffix=".npy")
    try:
        with os.fdopen(fd, "wb") as f:
            np.save(f, K)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private
        os.replace(tmp, output)
    except BaseException:
        os.unlink(tmp)
        raise
