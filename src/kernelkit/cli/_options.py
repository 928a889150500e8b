"""Command-line options from an estimator's parameters: one option per parameter, its type,
choices and range read from the scikit-learn ``_parameter_constraints``, its help from the first
sentence of the numpydoc entry; and the Python spelling of those parameters in messages
(``normalize=False``) rewritten as the flags (``--no-normalize``)."""

import argparse
import inspect
import numbers
import re
import sys

from kernelkit.cli._text import _first_sentence, _plain


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
