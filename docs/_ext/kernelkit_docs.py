"""Local Sphinx extension: read kernelkit's docstrings as they are written.

kernelkit's docstrings are plain numpydoc, meant first for ``help()`` and the terminal: they name
attributes in prose (``n_iter_``), write absolute values and sizes with bars (``O(|x| |y|)``) and
list symbols (``B, Z, X, *``). In reST these are a hyperlink reference, substitution references
and an unclosed emphasis, which would stop a ``-W`` build. Before numpydoc reads a docstring,
this extension quotes such words as literals in prose lines, leaving alone literals, roles,
doctests, literal blocks and directive bodies, and the ``name : type`` lines numpydoc parses.

It also keeps scikit-learn's own machinery (metadata routing, ``set_output``) out of the API
pages: those methods come from scikit-learn's base classes, and their docstrings point into
scikit-learn's documentation.
"""

import re

# roles and interpreted text (single backticks): left as they are
_ROLE = re.compile(r"(:[\w:.-]+:`[^`]*`|`[^`]*`_{0,2})")
# an attribute named in prose, e.g. n_iter_ (reST: a reference to a target "n_iter")
_TRAILING_UNDERSCORE = re.compile(r"(?<![\w`*\\])([A-Za-z]\w*_)(?![\w`*])")
# |x|, |A|^k: substitution references in reST
_BAR = re.compile(r"(?<!\\)\|")
# a lone star, e.g. "X, *)": an emphasis start-string without its end
_LONE_STAR = re.compile(r"(?<=[\s(,])\*(?=[\s),.;:]|$)")
# lines numpydoc parses itself: "name : type", "name_a, name_b", a bare attribute name
_PARAMETER_HEAD = re.compile(r"^\s*\**[\w*]+(\s*,\s*\**[\w*]+)*\s*(:.*)?$")

# scikit-learn's machinery, not kernelkit's API
_SKLEARN_MACHINERY = re.compile(r"^(get_metadata_routing|set_output|set_\w+_request)$")


def _escape_prose(text, in_literal=False):
    """Escape ``text`` outside inline literals, roles and interpreted text. An inline literal
    may run over several lines: ``in_literal`` says whether ``text`` starts inside one; the
    state at its end is returned with the escaped text."""
    pieces = text.split("``")
    for i, piece in enumerate(pieces):
        if (i % 2 == 1) != in_literal:  # inside a literal
            continue
        parts = _ROLE.split(piece)
        for j in range(0, len(parts), 2):  # even parts are outside roles
            part = _TRAILING_UNDERSCORE.sub(r"``\1``", parts[j])
            part = _BAR.sub(r"\\|", part)
            parts[j] = _LONE_STAR.sub(r"\\*", part)
        pieces[i] = "".join(parts)
    return "``".join(pieces), in_literal != (len(pieces) % 2 == 0)


def _indent(line):
    return len(line) - len(line.lstrip())


def escape_docstring_lines(lines):
    """Return ``lines`` with prose made safe for reST (see the module docstring)."""
    out = []
    block_indent = None  # inside a literal block or directive body indented beyond this
    in_doctest = False
    in_literal = False  # inside an inline literal that started on an earlier line
    for line in lines:
        stripped = line.strip()
        if block_indent is not None:
            if not stripped or _indent(line) > block_indent:
                out.append(line)
                continue
            block_indent = None
        if in_doctest:
            if stripped:
                out.append(line)
                continue
            in_doctest = False
        if stripped.startswith(">>>"):
            in_doctest = True
            out.append(line)
            continue
        if stripped.endswith("::") or (stripped.startswith(".. ") and "::" in stripped):
            # a literal block or a directive: its own line is prose up to the "::"
            block_indent = _indent(line)
            head, sep, tail = line.partition("::")
            if not stripped.startswith(".."):
                head, in_literal = _escape_prose(head, in_literal)
            out.append(head + sep + tail)
            continue
        if _PARAMETER_HEAD.match(line) and " : " in line:
            names, sep, types = line.partition(" : ")  # numpydoc prints the type as reST
            out.append(names + sep + _escape_prose(types)[0])
            continue
        if not stripped:
            in_literal = False  # a literal never spans paragraphs
        if (not stripped or _PARAMETER_HEAD.match(line) or set(stripped) <= set("-=~^")
                or stripped[0] in "|+"):
            out.append(line)
            continue
        escaped, in_literal = _escape_prose(line, in_literal)
        out.append(escaped)
    return out


def _process_docstring(app, what, name, obj, options, lines):
    lines[:] = escape_docstring_lines(lines)


def _skip_member(app, what, name, obj, skip, options):
    if _SKLEARN_MACHINERY.match(name):
        return True
    return None


def setup(app):
    # before numpydoc (priority 500), which parses the sections of the escaped text
    app.connect("autodoc-process-docstring", _process_docstring, priority=400)
    app.connect("autodoc-skip-member", _skip_member)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
