"""The command line's help texts: docstrings' reST and TeX as plain text, wrapped paragraphs,
two-column listings, and the one-line summaries of a package's modules."""

import ast
import importlib.util
import pkgutil
import re
import textwrap

PROG = "kernelkit"  # the same name however it is started (script, python -m, a test runner)
EPILOG_INDENT = "  "
WIDTH = 90


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
