"""kernelkit's command line: demonstrations on shipped data, benchmarks against peer libraries,
Gram matrices of string and graph kernels computed from files, and what this installation runs
on. Run "kernelkit COMMAND --help" for the names and options of each command."""

import argparse
import ast
import contextlib
import importlib
import importlib.util
import inspect
import numbers
import os
import pkgutil
import re
import sys
import tempfile
import textwrap

from kernelkit import __version__

PROG = "kernelkit"  # the same name however it is started (script, python -m, a test runner)
EPILOG_INDENT = "  "
WIDTH = 90


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block) and exit with status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _plain(text):
    """reST markup out: ``code``, **bold** and :role:`target` become plain words, and
    :math:`...` plain text (:func:`_tex_as_text`)."""
    text = re.sub(r":math:`([^`]*)`", lambda match: _tex_as_text(match.group(1)), text)
    text = re.sub(r":[a-z]+:`~?([^`]*)`", r"\1", text)
    return " ".join(text.replace("``", "").replace("**", "").split())


# TeX commands of the docstrings' formulas, as the characters a terminal shows
_TEX_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "varepsilon": "ε", "epsilon": "ε",
    "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "psi": "ψ",
    "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ",
    "Psi": "Ψ", "Omega": "Ω", "ell": "ℓ", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "ne": "≠", "approx": "≈", "sim": "~", "propto": "∝", "ll": "≪", "gg": "≫", "in": "∈",
    "cdot": "·", "times": "×", "otimes": "⊗", "oplus": "⊕", "bigoplus": "⊕", "circ": "∘",
    "pm": "±", "sum": "Σ", "prod": "Π", "int": "∫", "partial": "∂", "nabla": "∇",
    "infty": "∞", "sqrt": "√", "to": "→", "mapsto": "↦", "leftarrow": "←",
    "Rightarrow": "⇒", "cup": "∪", "langle": "⟨", "rangle": "⟩", "mid": "|", "top": "ᵀ",
    "dots": "…", "ldots": "…", "cdots": "⋯", "|": "‖", "#": "#",
    "_": "_", ",": " ", ";": " ", "!": "", "quad": " ", "qquad": " ",
}
# commands whose argument is shown as it is (fonts, text, operator names, accents)
_TEX_ARGUMENT_ONLY = ("mathrm", "mathbf", "mathcal", "mathbb", "mathit", "text",
                      "operatorname", "hat", "bar", "tilde")
# an argument: {...} (one level of nested braces), \command or one character
_TEX_GROUP = r"(\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|[^\s{}\\])"


def _tex_as_text(tex):
    """A TeX formula in plain text: ``\\lambda^\\mathrm{length}`` -> ``λ^length``,
    ``\\sqrt{K(x, x)}`` -> ``√(K(x, x))``, ``\\frac1\\beta`` -> ``1/β``; function names
    (``\\exp``, ``\\min``) lose their backslash."""
    def group(text):
        return text[1:-1] if text.startswith("{") else text

    # escaped braces are characters: kept apart from the grouping ones until the end
    text = " ".join(tex.split()).replace("\\{", "\0").replace("\\}", "\1")
    text = re.sub(r"\\(?:" + "|".join(_TEX_ARGUMENT_ONLY) + r")\s*" + _TEX_GROUP,
                  lambda match: group(match.group(1)), text)
    text = re.sub(r"\\t?frac\s*" + _TEX_GROUP + r"\s*" + _TEX_GROUP,
                  lambda match: "/".join(_parenthesised(group(g)) for g in match.groups()), text)
    text = re.sub(r"\\binom\s*" + _TEX_GROUP + r"\s*" + _TEX_GROUP,
                  lambda match: "C({}, {})".format(*map(group, match.groups())), text)
    text = re.sub(r"\\sqrt\s*\{((?:[^{}]|\{[^{}]*\})*)\}", r"√(\1)", text)
    text = re.sub(r"\\([A-Za-z]+|[|#_,;!])",
                  lambda match: _TEX_SYMBOLS.get(match.group(1), match.group(1)), text)
    # a group after ^ or _ keeps its extent in parentheses; other braces only group
    text = re.sub(r"([_^])\{([^{}]*)\}",
                  lambda match: match.group(1) + _parenthesised(match.group(2)), text)
    text = text.replace("{", "").replace("}", "").replace("^ᵀ", "ᵀ")
    return text.replace("\0", "{").replace("\1", "}")


def _parenthesised(text):
    """``text`` in parentheses unless it is one symbol or a number."""
    return text if re.fullmatch(r"\w|\d+|\\?[A-Za-z]+", text) else f"({text})"


def _first_paragraph(docstring):
    return _plain((docstring or "").strip().split("\n\n")[0])


def _first_sentence(text):
    # a sentence ends at "." or ";" before a capital letter, but not at "e.g." or "i.e."
    return re.split(r"(?<!\be\.g)(?<!\bi\.e)[.;]\s+(?=[A-Z])", text,
                    maxsplit=1)[0].rstrip(".;")


def _wrap(*paragraphs):
    return "\n\n".join(textwrap.fill(p, WIDTH) for p in paragraphs)


def _parameter_docs(cls):
    """``{name: first sentence of its description}`` from a numpydoc Parameters section."""
    doc = inspect.getdoc(cls) or ""
    match = re.search(r"^Parameters\n-+\n(.*?)(?:\n\n[A-Z][A-Za-z ]*\n-+\n|\Z)", doc,
                      re.S | re.M)
    docs, names = {}, []
    for line in (match.group(1) if match else "").splitlines():
        if line[:1].strip():  # unindented: "name : type" or "name_a, name_b"
            names = [name.strip() for name in line.split(" : ")[0].split(",")]
            docs.update((name, []) for name in names)
        elif line.strip():
            for name in names:
                docs[name].append(line.strip())
    return {name: _first_sentence(_plain(" ".join(lines))) for name, lines in docs.items()}


def _module_summaries(package):
    """``{name: first paragraph of its docstring}`` for the public modules of ``package``,
    read from the source without importing them (a demo or a suite imports its peers)."""
    spec = importlib.util.find_spec(package)
    summaries = {}
    for module in pkgutil.iter_modules(spec.submodule_search_locations):
        if module.name.startswith("_"):
            continue
        origin = importlib.util.find_spec(f"{package}.{module.name}").origin
        with open(origin, encoding="utf-8") as f:
            docstring = ast.get_docstring(ast.parse(f.read()))
        summaries[module.name] = _first_paragraph(docstring)
    return dict(sorted(summaries.items()))


def _listing(title, summaries):
    """A titled two-column list, the text wrapped under its own column; a list of texts is one
    line each."""
    width = max(map(len, summaries), default=0)
    indent = EPILOG_INDENT + " " * (width + 2)
    lines = []
    for name, texts in summaries.items():
        for i, text in enumerate([texts] if isinstance(texts, str) else texts):
            first = f"{EPILOG_INDENT}{name:<{width}}  " if i == 0 else indent
            lines.append(textwrap.fill(text, WIDTH, initial_indent=first,
                                       subsequent_indent=indent, break_on_hyphens=False,
                                       break_long_words=False))  # file paths stay whole
    return f"{title}:\n" + "\n".join(lines)


def _check_names(parser, kind, names, available):
    unknown = [name for name in names if name not in available]
    if unknown:
        parser.error(f"unknown {kind} {', '.join(map(repr, unknown))}; available: "
                     f"{', '.join(available)}")


def _writable_folder(parser, path):
    """Refuse an --out that cannot become a folder, before any work is done; create nothing."""
    if os.path.exists(path):
        if not os.path.isdir(path):
            parser.error(f"--out {path!r} exists and is not a folder")
        probe = path
    else:
        probe = os.path.dirname(os.path.abspath(path))
        while not os.path.exists(probe):
            probe = os.path.dirname(probe)
        if not os.path.isdir(probe):
            parser.error(f"--out {path!r}: {probe!r} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        parser.error(f"--out {path!r}: {probe!r} is not writable")


# ---------------------------------------------------------------------------------------- demo


def _fill_demo(parser):
    parser.description = _wrap("Short demonstrations on the real data shipped with kernelkit "
                               "(about 15 s in all on 2 idle cores). Without names, every demo "
                               "runs.")
    parser.epilog = _listing("demos", _module_summaries("kernelkit.demos"))
    parser.add_argument("parts", nargs="*", metavar="DEMO", help="demo names (default: all)")
    parser.set_defaults(func=_demo, parser=parser)


def _demo(args):
    parser = args.parser
    available = list(_module_summaries("kernelkit.demos"))
    _check_names(parser, "demo", args.parts, available)
    for name in args.parts or available:
        module = importlib.import_module(f"kernelkit.demos.{name}")
        print(f"=== {name}: {_first_paragraph(module.__doc__)}")
        module.main()
        print()
    return 0


# --------------------------------------------------------------------------------------- bench


def _fill_bench(parser):
    parser.description = _wrap(
        "Time kernelkit against its pure-Python twins and peer libraries in one process, "
        "alternating runs. Each suite writes a Markdown table SUITE.md (SUITE-quick.md with "
        "--quick) into the --out folder, which is created when the first table is written; the "
        "table describes the machine it ran on (CPU, cores, load average before and after). "
        "Peers missing from this Python are reported as missing (the bench extra of kernelkit "
        "lists them). Without names, every suite runs. With --busy-core, another process "
        "spins on one CPU while the suites run (SUITE-busy.md, SUITE-quick-busy.md): how the "
        "speed holds when a core is taken.")
    parser.epilog = (_listing("suites", _module_summaries("kernelkit.bench.suites"))
                     + "\n\n" + _wrap("Also: kernelkit bench graph-accuracy [--datasets ...] "
                                       "[--kernels ...] [--data FOLDER] [--out FILE] [--quick], "
                                       "the table of graph classification accuracy of every "
                                       "graph kernel on the TU sets (see its --help). And: "
                                       "kernelkit bench matrix [--sizes ...] [--rows ...] "
                                       "[--baseline OLD.whl] [--busy-core], every estimator, "
                                       "kernel and compiled function at its defaults against "
                                       "its peer, on 2 threads and 1 (see its --help)."))
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="suite names (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="small profile (about a minute per suite)")
    parser.add_argument("--out", default=".", metavar="FOLDER",
                        help="folder for the Markdown tables (default: the current folder)")
    parser.add_argument("--busy-core", action="store_true",
                        help="keep one CPU busy with another process while the suites run")
    parser.set_defaults(func=_bench, parser=parser)


def _bench(args):
    from kernelkit.bench import available_suites, busy_core, format_table, load_suite, run_suite

    available = available_suites()
    _check_names(args.parser, "suite", args.suites, available)
    _writable_folder(args.parser, args.out)
    with busy_core() if args.busy_core else contextlib.nullcontext():
        for name in args.suites or available:
            suite = load_suite(name)
            rows = run_suite(suite, quick=args.quick)
            table = format_table(suite, rows, quick=args.quick, busy_core=args.busy_core)
            os.makedirs(args.out, exist_ok=True)
            path = os.path.join(args.out, _table_name(name, args.quick, args.busy_core))
            with open(path, "w", encoding="utf-8") as f:
                f.write(table)
            print(table)
            print(f"written to {path}")
    return 0


def _table_name(suite, quick, busy):
    return f"{suite}{'-quick' if quick else ''}{'-busy' if busy else ''}.md"


# ---------------------------------------------------------------------------------------- gram


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


def _none_or(convert):
    def parse(text):
        return None if text.lower() == "none" else convert(text)
    parse.__name__ = convert.__name__
    return parse


def _option_type(constraints, default):
    """The argparse ``type``/``choices`` of one parameter, from its scikit-learn constraints."""
    from kernelkit.utils._sklearn_compat import Interval, Options, StrOptions

    convert, choices = None, None
    intervals = [constraint for constraint in constraints if isinstance(constraint, Interval)]
    for constraint in constraints:
        if isinstance(constraint, StrOptions):
            choices = sorted(constraint.options)
            convert = str
        elif isinstance(constraint, Options):
            choices = sorted(constraint.options)
            convert = int if issubclass(constraint.type, numbers.Integral) else float
        elif isinstance(constraint, Interval):
            convert = int if issubclass(constraint.type, numbers.Integral) else float
        elif constraint == "random_state":
            convert = int
        elif constraint is str and convert is None:
            convert = str
        elif constraint in (numbers.Real,) and convert is None:
            convert = float
    if convert is None:
        convert = type(default) if default is not None else str
    if intervals and choices is None:
        convert = _within(convert, intervals)
    if None in constraints:
        convert = _none_or(convert)
    return convert, choices


def _within(convert, intervals):
    """``convert`` followed by a check against scikit-learn ``Interval`` constraints, whose
    failure reads "must be an integer ≥ 1" (not "in the range [1, 9223372036854775807)")."""
    def parse(text):
        value = convert(text)
        if not any(interval.is_satisfied_by(value) for interval in intervals):
            ranges = " or ".join(_describe_interval(interval, value) for interval in intervals)
            raise argparse.ArgumentTypeError(f"must be {ranges}, got {text}")
        return value
    parse.__name__ = convert.__name__  # argparse's "invalid int value" names the type
    return parse


def _describe_interval(interval, value):
    """``"an integer ≥ 1"``, ``"a number between 0 and 1"``, ``"a number > 0 and ≤ 1"``; an
    upper bound at the 64-bit limit is left out unless ``value`` is beyond it."""
    kind = "an integer" if issubclass(interval.type, numbers.Integral) else "a number"
    left, right = interval.left, interval.right
    if right is not None and right >= sys.maxsize and value <= right:
        right = None
    if left is not None and right is not None and interval.closed == "both":
        return f"{kind} between {_number(left)} and {_number(right)}"
    bounds = []
    if left is not None:
        bounds.append(("≥ " if interval.closed in ("left", "both") else "> ") + _number(left))
    if right is not None:
        bounds.append(("≤ " if interval.closed in ("right", "both") else "< ") + _number(right))
    return f"{kind} {' and '.join(bounds)}" if bounds else kind


def _number(value):
    return f"{value:g}" if isinstance(value, float) else str(value)


def _add_kernel_options(parser, cls):
    """One option per parameter of ``cls`` (``lambda_`` -> ``--lambda``), described by the first
    sentence of its docstring entry, with its default.

    Returns
    -------
    options : dict
        ``{parameter: (flag, is_boolean)}``, for :func:`_as_flags`.
    """
    constraints = cls._parameter_constraints
    docs = _parameter_docs(cls)
    options = {name: ("--" + name.rstrip("_").replace("_", "-"),
                      "boolean" in constraints.get(name, ()))
               for name, param in inspect.signature(cls).parameters.items()
               if name != "verbose" and param.default != "deprecated"}
    for name, (flag, boolean) in options.items():
        default = inspect.signature(cls).parameters[name].default
        shown = "none" if default is None else default
        text = _as_flags(f"{docs.get(name, '')} (default: {shown})".lstrip(), options)
        text = text.replace("%", "%%")
        if boolean:
            parser.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction,
                                default=default, help=text)
            continue
        convert, choices = _option_type(constraints.get(name, ()), default)
        parser.add_argument(flag, dest=name, type=convert, choices=choices, default=default,
                            metavar=None if choices else name.rstrip("_").upper(), help=text)
    return options


# ``name=value`` in Python syntax: a quoted string, ``...``, or a word or number (a sentence's
# final "." excluded)
_KEYWORD_ARGUMENT = re.compile(r"\b([A-Za-z_]\w*)=('[^']*'|\"[^\"]*\"|\.\.\.|[\w.+-]*\w)")
_SKLEARN_PARAMETER = re.compile(r"\bThe '(\w+)' parameter of \w+")


def _as_flags(text, options):
    """``text`` (a kernel's error message or docstring) with the Python spelling of the command's
    own options written as flags: ``unknown='skip'`` -> ``--unknown skip``, ``normalize=False``
    -> ``--no-normalize``, ``node_label=None`` -> ``--node-label none``, ``node_label=...`` ->
    ``--node-label NODE_LABEL``, scikit-learn's "The 'k' parameter of SpectrumKernel" ->
    ``--k``. Other names are left as they are."""
    import shlex

    def keyword(match):
        name, value = match.groups()
        if name not in options:
            return match.group(0)
        flag, boolean = options[name]
        if boolean and value in ("True", "False"):
            return flag if value == "True" else "--no-" + flag[2:]
        if value == "...":
            return f"{flag} {name.rstrip('_').upper()}"
        if value == "None":
            return f"{flag} none"
        return f"{flag} {shlex.quote(value.strip(chr(39) + chr(34)))}"

    def parameter(match):
        return options[match.group(1)][0] if match.group(1) in options else match.group(0)

    return _SKLEARN_PARAMETER.sub(parameter, _KEYWORD_ARGUMENT.sub(keyword, text))


def _fill_gram(parser):
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
        p_kernel.set_defaults(func=_gram, kernel_class=cls, input_kind=kind, options=options,
                              parser=p_kernel)


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


def _gram(args):
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


# ---------------------------------------------------------------------------------------- info

# (shown name, import name)
DEPENDENCIES = [("numpy", "numpy"), ("scipy", "scipy"), ("scikit-learn", "sklearn"),
                ("joblib", "joblib"), ("threadpoolctl", "threadpoolctl"),
                ("networkx", "networkx")]
# group: import names of the optional packages that kernelkit or its benchmarks use
OPTIONAL = {
    "distributed": ("dask", "distributed", "zarr"),
    "docs": ("sphinx", "numpydoc", "sphinx_gallery", "pydata_sphinx_theme", "matplotlib"),
    "bench peers": ("grakel", "strkernel", "MKLpy", "kmedoids", "sklearn_extra", "sklearnex",
                    "lightgbm", "xgboost", "faiss"),
    "progress bars": ("tqdm",),
}
# the _OPENMP date a compiler defines -> the OpenMP version (MSVC's /openmp is 2.0)
OPENMP_VERSIONS = {200203: "2.0", 200505: "2.5", 200805: "3.0", 201107: "3.1", 201307: "4.0",
                   201511: "4.5", 201811: "5.0", 202011: "5.1", 202111: "5.2", 202411: "6.0"}
SIMD_PATHS = {
    "avx2": "the AVX2 clone, picked at load time (this CPU has AVX2)",
    "default": "the baseline x86-64 clone, picked at load time (this CPU has no AVX2)",
    "generic vectors": "generic vectors for the compiler's default target (one build)",
    "scalar": "scalar code (this compiler has no generic vectors)",
}


def _fill_info(parser):
    parser.description = _wrap(
        "What this installation of kernelkit runs on: the versions of Python and of the "
        "dependencies, the OpenMP runtime the compiled cores call and its thread count, the "
        "BLAS libraries loaded (the cores call SciPy's), the SIMD variant the local alignment "
        "kernel runs on this CPU, and which optional packages are installed. Paste it into a "
        "bug report.")
    parser.set_defaults(func=_info, parser=parser)


def _info(args):
    import importlib.metadata
    import platform

    import scipy.linalg.cython_blas  # noqa: F401  (loads SciPy's BLAS, which the cores call)
    from threadpoolctl import threadpool_info

    from kernelkit._core._local_alignment_dp import simd_path
    from kernelkit._core._openmp import openmp_library, openmp_version
    from kernelkit.utils._threads import effective_n_threads, forked_after_openmp_team

    package = os.path.dirname(os.path.abspath(__file__))
    print(f"{PROG} {__version__} ({package})")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.system()} {platform.machine()}, {os.cpu_count()} logical CPUs")
    print()
    print(_listing("dependencies", {name: importlib.import_module(module).__version__
                                    for name, module in DEPENDENCIES}))
    print()
    libraries = threadpool_info()
    cores = {"OpenMP": _openmp_line(libraries, openmp_library(), openmp_version(),
                                    effective_n_threads(), forked_after_openmp_team())}
    cores["BLAS"] = [_blas_line(library) for library in libraries
                     if library["user_api"] == "blas"] or "none loaded"
    cores["local alignment"] = f"{simd_path()}: {SIMD_PATHS[simd_path()]}"
    print(_listing("compiled cores", cores))
    print()
    distributions = importlib.metadata.packages_distributions()
    print(_listing("optional packages", {group: _installed(modules, distributions)
                                         for group, modules in OPTIONAL.items()}))
    return 0


def _openmp_line(libraries, path, version, n_threads, forked):
    """The OpenMP runtime the cores call: threadpoolctl's entry for the file they resolve to;
    ``forked``: this process was forked after an OpenMP team, so its cores run on one thread."""
    if not version:
        return "none: the cores were built without OpenMP and run on one thread"
    compiled = f"OpenMP {OPENMP_VERSIONS.get(version, version)}"
    threads = (f"{n_threads} threads by default" if not forked else
               "1 thread (forked after an OpenMP team, whose threads fork does not copy)")
    runtimes = [library for library in libraries if library["user_api"] == "openmp"]
    ours = [library for library in runtimes
            if path and os.path.realpath(library["filepath"]) == os.path.realpath(path)]
    runtime = ours[0]["prefix"] if ours else "runtime"
    where = (os.path.realpath(path) if path
             else ", ".join(library["filepath"] for library in runtimes) or "file not found")
    return (f"{runtime} ({compiled}), {threads}; {where}"
            + (f" ({len(runtimes)} OpenMP runtimes loaded)" if len(runtimes) > 1 else ""))


def _blas_line(library):
    """One BLAS from threadpoolctl: implementation, version, architecture, threads, owner."""
    parts = os.path.normpath(library["filepath"]).split(os.sep)
    # wheels keep their libraries in <package>.libs (numpy.libs, scipy.libs, ...)
    owner = next((part[:-len(".libs")] for part in parts if part.endswith(".libs")), "system")
    note = {"scipy": "SciPy's, which the cores call"}.get(owner, f"{owner}'s")
    name = " ".join(filter(None, [library["internal_api"], library.get("version")]))
    details = filter(None, [name, library.get("architecture"),
                            f"{library['num_threads']} threads"])
    return f"{', '.join(details)} ({note})"


def _installed(modules, distributions):
    """``"grakel 0.1.10, tqdm 4.67.1; missing: zarr"`` without importing anything."""
    import importlib.metadata

    found, missing = [], []
    for module in modules:
        if importlib.util.find_spec(module) is None:
            missing.append(module)
            continue
        versions = {importlib.metadata.version(name)
                    for name in distributions.get(module, ())}
        found.append(f"{module} {', '.join(sorted(versions))}".rstrip())
    return "; ".join(filter(None, [", ".join(found),
                                   "missing: " + ", ".join(missing) if missing else ""]))


# ---------------------------------------------------------------------------------------- main


# name: (one line for the command list, the function that fills in the command's parser)
COMMANDS = {
    "demo": ("short demonstrations on shipped real data", _fill_demo),
    "bench": ("benchmark suites side by side with peer libraries", _fill_bench),
    "gram": ("Gram matrix of a string or graph kernel, from a file into .npy or .zarr",
             _fill_gram),
    "info": ("versions, OpenMP, BLAS and SIMD in use, optional packages (for bug reports)",
             _fill_info),
}


def build_parser(command=None):
    """The command-line parser.

    Parameters
    ----------
    command : str or None, default=None
        Fill in only this command's parser (its arguments and help); the others keep only their
        line in the command list. Filling in ``gram`` imports scikit-learn and the kernels
        (its options are their parameters), which ``--help``, ``--version`` and the other
        commands do not need. None fills in every command.

    Returns
    -------
    parser : argparse.ArgumentParser
    """
    parser = _Parser(prog=PROG, description=_wrap(__doc__),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (summary, fill) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=summary,
                                        formatter_class=argparse.RawDescriptionHelpFormatter)
        if command in (None, name):
            fill(command_parser)
    return parser


def main(argv=None):
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:2] == ["bench", "graph-accuracy"]:  # a command of its own, with its own options
        from kernelkit.bench.graph_accuracy import main as graph_accuracy

        return graph_accuracy(argv[2:])
    if argv[:2] == ["bench", "matrix"]:
        from kernelkit.bench.matrix import main as matrix

        return matrix(argv[2:])
    # the top-level options take no value: the first other word names the command
    command = next((word for word in argv if not word.startswith("-")), "")
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
