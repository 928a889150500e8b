"""``kernelkit gram KERNEL``: the Gram matrix of a string or graph kernel, one subcommand per
public kernel class, its options the class's parameters (:mod:`kernelkit.cli._options`)."""

import argparse
import inspect
import re

from kernelkit.cli._gram_files import _check_gram_output, _read_gram_input, _save_gram
from kernelkit.cli._options import _add_kernel_options, _as_flags
from kernelkit.cli._text import (
    EPILOG_INDENT,
    PROG,
    _first_paragraph,
    _first_sentence,
    _listing,
    _wrap,
)

SUMMARY = "Gram matrix of a string or graph kernel, from a file into .npy or .zarr"


def _kernel_classes():
    """``{command name: class}`` for the public string and graph kernel classes, named from the
    class (``SpectrumKernel`` -> ``spectrum``, ``WeisfeilerLehmanKernel`` ->
    ``weisfeiler-lehman``, an acronym one word: ``ODDSTKernel`` -> ``oddst``), each with its
    aliases (the initials of a multi-word name: ``wl``)."""
    import kernelkit.kernels as kernels

    classes = {}
    for name in kernels.__all__:
        cls = getattr(kernels, name)
        if not _is_kernel_class(cls) or _input_kind(cls) is None:
            continue
        # a run of capitals is one word (an acronym), less its last letter when that begins
        # a capitalised word
        words = re.findall(r"[A-Z]+(?![a-z])|[A-Z][a-z0-9]*", name.removesuffix("Kernel"))
        aliases = ["".join(w[0] for w in words).lower()] if len(words) > 1 else []
        classes["-".join(words).lower()] = (cls, aliases)
    return classes


def _is_kernel_class(obj):
    """Concrete estimator classes only: ``kernels.__all__`` also lists functions and the packed
    input containers (``PackedSequences``), which are not kernels."""
    return (inspect.isclass(obj) and not inspect.isabstract(obj)
            and hasattr(obj, "__sklearn_tags__"))


def _input_kind(cls):
    """``"fasta"`` for string kernels, ``"tu"`` for graph kernels, None otherwise (vectors)."""
    tags = cls().__sklearn_tags__().input_tags
    if tags.string:
        return "fasta"
    if not (tags.two_d_array or tags.sparse or tags.three_d_array):
        return "tu"
    return None


def fill_parser(parser):
    classes = _kernel_classes()
    summaries = {name: _first_sentence(_first_paragraph(cls.__doc__))
                 for name, (cls, _) in classes.items()}
    labels = {name: f"{name} ({', '.join(aliases)})" if aliases else name
              for name, (_, aliases) in classes.items()}
    parser.description = _wrap(
        "Compute the Gram matrix K(X, X) of a string kernel on the sequences of a FASTA file, "
        "or of a graph kernel on a graph set in the TU Dortmund format (a folder holding "
        "NAME_A.txt, NAME_graph_indicator.txt, NAME_graph_labels.txt and optionally "
        "NAME_node_labels.txt, NAME_edge_labels.txt), and save it as .npy (numpy.load reads "
        "it) or .zarr (only when the zarr package is importable). Rows and columns follow the "
        "order of the records in the input. A progress line goes to stderr unless --quiet.",
        f'Run "{PROG} gram KERNEL --help" for the options of a kernel (its parameters).')
    parser.epilog = (
        _listing("kernels (aliases in brackets)",
                 {labels[name]: text for name, text in summaries.items()})
        + "\n\nexamples:\n"
        f"{EPILOG_INDENT}{PROG} gram spectrum --k 5 proteins.fasta -o K.npy\n"
        f"{EPILOG_INDENT}{PROG} gram wl --n-iter 3 --normalize path/to/MUTAG -o K.npy")
    kernels = parser.add_subparsers(dest="kernel", metavar="KERNEL", required=True,
                                    help="kernel name (listed below)")
    for name, (cls, aliases) in classes.items():
        kind = _input_kind(cls)
        p_kernel = kernels.add_parser(
            name, aliases=aliases,  # no help=: listed once, in the epilog
            description=_wrap(_first_paragraph(cls.__doc__),
                              f"The options are the parameters of "
                              f"kernelkit.kernels.{cls.__name__}."),
            formatter_class=argparse.RawDescriptionHelpFormatter)
        if kind == "fasta":
            p_kernel.add_argument("input", metavar="FASTA", help="FASTA file of sequences")
        else:
            p_kernel.add_argument("input", metavar="FOLDER",
                                  help="folder of a graph set in the TU Dortmund format")
            p_kernel.add_argument("--name", default=None,
                                  help="prefix of the set's files (default: the folder's name)")
        p_kernel.add_argument("-o", "--output", required=True, metavar="OUT",
                              help="output file, ending in .npy or .zarr")
        p_kernel.add_argument("--quiet", action="store_true", help="no progress lines")
        options = _add_kernel_options(p_kernel, cls)
        p_kernel.set_defaults(func=run, kernel_class=cls, input_kind=kind, options=options,
                              parser=p_kernel)


def run(args):
    parser = args.parser
    _check_gram_output(parser, args.output)
    from kernelkit.utils._threads import ThreadStartError

    params = {name: getattr(args, name) for name in args.options}
    kernel = args.kernel_class(**params, verbose=0 if args.quiet else 1)
    try:
        X, what = _read_gram_input(parser, args)
        K = kernel.fit_transform(X)
    except (ValueError, OSError, OverflowError, ThreadStartError) as exc:
        # the file's or the kernel's complaint, on one line, in the command line's terms
        parser.exit(2, f"{PROG}: error: {_as_flags(' '.join(str(exc).split()), args.options)}\n")
    _save_gram(K, args.output)
    print(f"{args.kernel_class(**params)!r} on {what}: Gram matrix {K.shape[0]} x "
          f"{K.shape[1]} ({K.dtype}) written to {args.output}")
    return 0
