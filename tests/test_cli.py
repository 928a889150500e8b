"""The command line: help listings, one-line errors with status 2, nothing created on failure,
bench table names and machine description, and the gram subcommand."""

import numbers
import os
import shutil
import subprocess
import sys
import tempfile

import kernelkit.bench
import numpy as np
import pytest
from kernelkit.bench import Contender, Suite, available_suites

import kernelkit.datasets
from kernelkit.cli import build_parser, main
from kernelkit.kernels import SpectrumKernel, WeisfeilerLehmanKernel

MUTAG = os.path.join(os.path.dirname(kernelkit.datasets.__file__), "data", "MUTAG")


def _run(argv, capsys):
    """``main(argv)``'s exit status, stdout and stderr."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def fasta(tmp_path):
    path = tmp_path / "seqs.fasta"
    path.write_text(">a\nACGTACGT\n>b first\nACGG\nTTAC\n>c\nGGGGCA\n")
    return path


def test_version_and_bare_command(capsys):
    from kernelkit import __version__

    status, out, _ = _run(["--version"], capsys)
    assert (status, out) == (0, f"kernelkit {__version__}\n")
    status, out, _ = _run([], capsys)
    assert status == 0 and out == _run(["--help"], capsys)[1]


def test_help_lists_commands_demos_suites_and_kernels(capsys):
    status, out, _ = _run(["--help"], capsys)
    assert status == 0
    for command in ("demo", "bench", "gram", "info"):
        assert f"    {command} " in out
    status, out, _ = _run(["demo", "--help"], capsys)
    assert status == 0
    for name in ("graphs", "kmeans", "strings"):
        assert any(line.startswith(f"  {name}  ") for line in out.splitlines()), name
    status, out, _ = _run(["bench", "--help"], capsys)
    assert status == 0
    for name in available_suites():
        assert any(line.startswith(f"  {name} ") for line in out.splitlines()), name
    assert "SUITE-quick.md" in out
    status, out, _ = _run(["gram", "--help"], capsys)
    assert status == 0
    for name in ("spectrum", "local-alignment (la)", "weisfeiler-lehman (wl)"):
        assert f"  {name} " in out
    # built whole, every command's parser is filled in
    parser = build_parser()
    for argv in (["demo", "graphs"], ["bench", "--quick"], ["gram", "wl", "x", "-o", "K.npy"],
                 ["info"]):
        assert parser.parse_args(argv).command == argv[0]


@pytest.mark.parametrize("argv", [[], ["demo"], ["bench"], ["info"], ["gram"], ["gram", "spectrum"],
                                  ["gram", "wl"], ["gram", "la"], ["gram", "graphlet"]],
                         ids=" ".join)
def test_help_is_plain_text(argv, capsys):
    status, out, _ = _run(argv + ["--help"], capsys)
    assert status == 0
    assert out.startswith("usage:")
    assert "``" not in out and ":func:" not in out and "**" not in out


def test_gram_options_come_from_the_kernel_parameters(capsys):
    _, out, _ = _run(["gram", "wl", "--help"], capsys)
    assert "--n-iter N_ITER" in out and "relabelling iterations" in out
    assert "--normalize, --no-normalize" in out
    assert "--verbose" not in out  # the command line sets it (--quiet turns it off)
    _, out, _ = _run(["gram", "substring", "--help"], capsys)
    assert "--lambda LAMBDA" in out  # lambda_ without its underscore


@pytest.mark.parametrize("argv, message", [
    (["nope"], "invalid choice: 'nope'"),
    (["demo", "no-such-demo"], "unknown demo 'no-such-demo'; available: graphs"),
    (["bench", "no-such-suite", "--quick"], "unknown suite 'no-such-suite'; available:"),
    (["bench", "--quick", "--bogus"], "unrecognized arguments: --bogus"),
    (["gram", "no-such-kernel", "x", "-o", "K.npy"], "invalid choice: 'no-such-kernel'"),
    (["gram", "spectrum", "{fasta}"], "required: -o/--output"),
    (["gram", "spectrum", "--k", "x", "{fasta}", "-o", "K.npy"], "invalid int value: 'x'"),
    (["gram", "spectrum", "--k", "0", "{fasta}", "-o", "K.npy"],
     "argument --k: must be an integer ≥ 1, got 0"),
    (["gram", "spectrum", "--k", str(2**70), "{fasta}", "-o", "K.npy"],
     f"argument --k: must be an integer ≥ 1 and < {2**63 - 1}, got {2**70}"),
    (["gram", "substring", "--lambda", "1.5", "{fasta}", "-o", "K.npy"],
     "argument --lambda: must be a number > 0 and ≤ 1, got 1.5"),
    (["gram", "la", "--beta", "0", "{fasta}", "-o", "K.npy"],
     "argument --beta: must be a number > 0, got 0"),
    (["gram", "spectrum", "--n-jobs", "0", "{fasta}", "-o", "K.npy"],
     "argument --n-jobs: must be an integer ≤ -1 or an integer ≥ 1, got 0"),
    (["gram", "spectrum", "--alphabet", "dna", "{bad_fasta}", "-o", "K.npy"],
     "kernelkit: error: sequence 0 contains the letter 'U', which is not in the alphabet "
     "'ACGT'; pass --unknown skip to drop such letters"),
    (["gram", "spectrum", "{binary}", "-o", "K.npy"],
     "kernelkit: error: {binary}, line 2: byte 0x93 is not UTF-8 text"),
    (["gram", "wl", "{toy}", "-o", "K.npy"],
     "kernelkit: error: {toy}/TOY_A.txt, line 2: expected two integers separated by a comma, "
     "got 'foo'"),
    (["gram", "wl", "--name", "HUGE", "{toy}", "-o", "K.npy"],
     f"kernelkit: error: {{toy}}/HUGE_node_labels.txt, line 1: {2**70} is outside the range of "
     "64-bit integers"),
    (["gram", "spectrum", "{tmp}/missing.fasta", "-o", "K.npy"], "is not a file"),
    (["gram", "spectrum", "{tmp}", "-o", "K.npy"], "is not a file"),
    (["gram", "spectrum", "{not_fasta}", "-o", "K.npy"], "before the first '>'"),
    (["gram", "spectrum", "{fasta}", "-o", "K.txt"], "must end in .npy or .zarr"),
    (["gram", "spectrum", "{fasta}", "-o", "{tmp}/no/K.npy"], "does not exist"),
    (["gram", "wl", "{fasta}", "-o", "K.npy"], "is not a folder"),
    (["gram", "wl", "--name", "NOPE", "{mutag}", "-o", "K.npy"], "NOPE_A.txt does not exist"),
    (["gram", "wl", "--n-iter", "-1", "{mutag}", "-o", "K.npy"],
     "argument --n-iter: must be an integer ≥ 0, got -1"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_bad_arguments_give_one_line_and_status_2(argv, message, tmp_path, capsys,
                                                  monkeypatch):
    (tmp_path / "in").mkdir()
    fasta = tmp_path / "in" / "seqs.fasta"
    fasta.write_text(">a\nACGT\n>b\nAACC\n")
    bad = tmp_path / "in" / "bad.fasta"
    bad.write_text(">a\nACGU\n")
    not_fasta = tmp_path / "in" / "notes.txt"
    not_fasta.write_text("ACGT\n>a\nACGT\n")
    binary = tmp_path / "in" / "binary.fasta"
    binary.write_bytes(b">a\n\x93\x00\x01\n")
    toy = tmp_path / "in" / "TOY"
    toy.mkdir()
    for name, a_lines, node_labels in [("TOY", "1,2\nfoo\n", "0\n0\n"),
                                       ("HUGE", "1,2\n2,1\n", f"{2**70}\n0\n")]:
        (toy / f"{name}_A.txt").write_text(a_lines)
        (toy / f"{name}_graph_indicator.txt").write_text("1\n1\n")
        (toy / f"{name}_graph_labels.txt").write_text("1\n")
        (toy / f"{name}_node_labels.txt").write_text(node_labels)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    monkeypatch.chdir(out_dir)
    paths = dict(fasta=fasta, bad_fasta=bad, not_fasta=not_fasta, binary=binary, toy=toy,
                 tmp=tmp_path / "in", mutag=MUTAG)
    argv = [a.format(**paths) for a in argv]
    status, out, err = _run(argv, capsys)
    assert status == 2
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("kernelkit") and ": error: " in err
    assert message.format(**paths) in err
    assert os.listdir(out_dir) == []  # nothing created


def test_python_keyword_arguments_become_flags():
    from kernelkit.cli._options import _as_flags

    options = {"unknown": ("--unknown", False), "normalize": ("--normalize", True),
               "node_label": ("--node-label", False), "lambda_": ("--lambda", False),
               "k": ("--k", False)}
    assert _as_flags("pass unknown='skip' to drop them.", options) == \
        "pass --unknown skip to drop them."
    assert _as_flags('pass normalize=False, or normalize=True.', options) == \
        "pass --no-normalize, or --normalize."
    assert _as_flags("name it with node_label=..., or pass node_label=None.", options) == \
        "name it with --node-label NODE_LABEL, or pass --node-label none."
    assert _as_flags("lambda_=0.5 and k=3; other=1 stays", options) == \
        "--lambda 0.5 and --k 3; other=1 stays"
    assert _as_flags('unknown="two words"', options) == "--unknown 'two words'"
    assert _as_flags("The 'k' parameter of SpectrumKernel must be", options) == "--k must be"


def test_ranges_read_as_bounds():
    from kernelkit.cli._options import _describe_interval
    from kernelkit.utils._sklearn_compat import Interval

    def describe(*args, value=0, **kwargs):
        return _describe_interval(Interval(*args, **kwargs), value)

    assert describe(numbers.Integral, 1, 2**63 - 1, closed="left") == "an integer ≥ 1"
    assert describe(numbers.Real, 0, 1, closed="both") == "a number between 0 and 1"
    assert describe(numbers.Real, 0, 1, closed="right") == "a number > 0 and ≤ 1"
    assert describe(numbers.Real, 0.0, None, closed="neither") == "a number > 0"
    assert describe(numbers.Integral, None, -1, closed="right") == "an integer ≤ -1"


def test_help_texts_use_flags_not_python_keywords(capsys):
    import re

    from kernelkit.cli._gram import _kernel_classes

    for name in _kernel_classes():
        _, out, _ = _run(["gram", name, "--help"], capsys)
        options = re.findall(r"--([a-z][a-z-]*)", out)
        python_names = {option.replace("-", "_") for option in options}
        keywords = set(re.findall(r"\b([a-z][a-z_]*?)_?=", out))
        assert not keywords & python_names, (name, keywords & python_names)


def test_help_texts_show_formulas_as_text(capsys):
    from kernelkit.cli._gram import _kernel_classes

    _, out, _ = _run(["gram", "--help"], capsys)
    assert "weighted by λ^length" in out
    for name in ["--help"] + [[name, "--help"] for name in _kernel_classes()]:
        _, out, _ = _run(["gram"] + ([name] if isinstance(name, str) else name), capsys)
        assert "\\" not in out and "mathrm" not in out, name


@pytest.mark.parametrize("tex, text", [
    (r"\lambda^\mathrm{length}", "λ^length"),
    (r"\lambda^{-2k}", "λ^(-2k)"),
    (r"K(x, y) / \sqrt{K(x, x) K(y, y)}", "K(x, y) / √(K(x, x) K(y, y))"),
    (r"\frac1\beta \log K_{LA}", "1/β log K_LA"),
    (r"\tfrac12(a + b)", "1/2(a + b)"),
    (r"\Phi(G)_\ell = |\{v \in V(G) : \mathrm{label}(v) = \ell\}|",
     "Φ(G)_ℓ = |{v ∈ V(G) : label(v) = ℓ}|"),
    (r"w^\top x + \|w\|^2", "wᵀ x + ‖w‖^2"),
])
def test_tex_as_text(tex, text):
    from kernelkit.cli._text import _tex_as_text

    assert _tex_as_text(tex) == text


def test_kernel_names_keep_acronyms_whole():
    from kernelkit.cli._gram import _kernel_classes

    classes = _kernel_classes()
    assert "oddst" in classes and classes["oddst"][1] == []  # ODDSTKernel: one word, no alias
    assert classes["weisfeiler-lehman"][1] == ["wl"]
    assert classes["neighborhood-subgraph-pairwise-distance"][1] == ["nspd"]
    for name, (_, aliases) in classes.items():
        # a name of single letters joined by hyphens is an acronym cut apart
        assert not any(len(word) == 1 for word in name.split("-")[:2]), name
        assert all(len(alias) > 1 for alias in aliases), (name, aliases)


def test_info_reports_versions_runtimes_and_optional_packages(capsys, monkeypatch):
    import importlib.util

    import scipy
    import sklearn
    from kernelkit._core._local_alignment_dp import simd_path
    from kernelkit._core._openmp import openmp_library, openmp_version
    from threadpoolctl import threadpool_info

    from kernelkit import __version__
    from kernelkit.cli._info import OPENMP_VERSIONS

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "zarr" else real(name, *a))
    status, out, _ = _run(["info"], capsys)
    assert status == 0
    assert out.startswith(f"kernelkit {__version__} (")
    lines = out.splitlines()
    for name, version in [("numpy", np.__version__), ("scipy", scipy.__version__),
                          ("scikit-learn", sklearn.__version__)]:
        assert f"  {name} " in out and any(line.split() == [name, version] for line in lines)
    text = " ".join(out.split())  # unwrapped
    if openmp_version():
        assert f"(OpenMP {OPENMP_VERSIONS[openmp_version()]})" in text
        if openmp_library() is not None:
            assert os.path.realpath(openmp_library()) in text
    blas = [lib for lib in threadpool_info() if lib["user_api"] == "blas"]
    assert blas and all(f"{lib['internal_api']} {lib['version']}" in text for lib in blas)
    assert "(SciPy's, which the cores call)" in text
    assert f"local alignment {simd_path()}: " in text
    distributed = next(line for line in lines if line.startswith("  distributed"))
    assert distributed.rstrip().endswith("zarr") and "missing: " in distributed
    assert "grakel " in text  # a test dependency: installed, with its version


def test_simd_path_matches_the_cpu():
    from kernelkit._core._local_alignment_dp import simd_path

    path = simd_path()
    assert path in ("avx2", "default", "generic vectors", "scalar")
    if path in ("avx2", "default") and os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            has_avx2 = " avx2" in f.read()
        assert (path == "avx2") == has_avx2


def test_bench_out_folder_is_created_only_once_a_table_is_written(tmp_path, capsys,
                                                                  monkeypatch):
    def failing(data):
        raise RuntimeError("boom")

    toy = Suite(name="toy", description="A toy suite.", cases=lambda quick: [dict(n=3)],
                setup=lambda p: p["n"], repeats=2,
                contenders=[Contender("kernelkit", lambda n: {"value": n})])
    broken = Suite(name="broken", description="Fails.", cases=lambda quick: [dict(n=3)],
                   setup=lambda p: p["n"], contenders=[Contender("kernelkit", failing)])
    suites = {"toy": toy, "broken": broken}
    monkeypatch.setattr(kernelkit.bench, "available_suites", lambda: sorted(suites))
    monkeypatch.setattr(kernelkit.bench, "load_suite", suites.__getitem__)

    out = tmp_path / "results" / "quick"
    with pytest.raises(RuntimeError, match="boom"):
        main(["bench", "broken", "--out", str(out)])
    assert not (tmp_path / "results").exists()

    assert main(["bench", "toy", "--quick", "--out", str(out)]) == 0
    assert os.listdir(out) == ["toy-quick.md"]
    assert main(["bench", "toy", "--out", str(out)]) == 0
    assert sorted(os.listdir(out)) == ["toy-quick.md", "toy.md"]
    table = (out / "toy-quick.md").read_text()
    assert "(quick profile)" in table and "| n=3 | kernelkit |" in table
    assert "Machine: " in table and "logical CPUs" in table and "load average" in table
    assert "written to" in capsys.readouterr().out


def test_bench_refuses_an_out_that_is_a_file(tmp_path, capsys):
    path = tmp_path / "taken"
    path.write_text("")
    status, _, err = _run(["bench", "kmeans", "--out", str(path)], capsys)
    assert status == 2 and "is not a folder" in err


def test_gram_spectrum_from_fasta(fasta, tmp_path, capsys):
    out = tmp_path / "K.npy"
    status, stdout, err = _run(["gram", "spectrum", "--k", "2", "--normalize", str(fasta),
                                "-o", str(out)], capsys)
    assert status == 0
    sequences = ["ACGTACGT", "ACGGTTAC", "GGGGCA"]
    expected = SpectrumKernel(k=2, normalize=True).fit_transform(sequences)
    np.testing.assert_allclose(np.load(out), expected)
    assert "3 x 3" in stdout and str(out) in stdout
    assert "[SpectrumKernel]" in err and "\r" not in err  # progress, one line per update
    assert sorted(os.listdir(tmp_path)) == ["K.npy", "seqs.fasta"]  # no temporary left


def test_gram_wl_from_tu_folder(tmp_path, capsys):
    out = tmp_path / "K.npy"
    status, _, _ = _run(["gram", "wl", "--n-iter", "2", "--quiet", str(MUTAG), "-o", str(out)],
                        capsys)
    assert status == 0
    from kernelkit.datasets import load_mutag

    expected = WeisfeilerLehmanKernel(n_iter=2).fit_transform(load_mutag().graphs)
    np.testing.assert_array_equal(np.load(out), expected)
    assert capsys.readouterr().err == ""  # --quiet


def test_gram_zarr_output(fasta, tmp_path, capsys, monkeypatch):
    out = tmp_path / "K.zarr"
    try:
        import zarr
    except ImportError:  # the .zarr output is optional; its refusal is tested below
        zarr = None
    if zarr is not None:
        assert main(["gram", "spectrum", "--quiet", str(fasta), "-o", str(out)]) == 0
        np.testing.assert_array_equal(zarr.open_array(str(out), mode="r")[:],
                                      SpectrumKernel().fit_transform(
                                          ["ACGTACGT", "ACGGTTAC", "GGGGCA"]))
        status, _, err = _run(["gram", "spectrum", str(fasta), "-o", str(out)], capsys)
        assert status == 2 and "already exists" in err
    # without zarr: a one-line error that does not suggest an install command
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "zarr" else real(name, *a))
    status, _, err = _run(["gram", "spectrum", str(fasta), "-o", str(tmp_path / "L.zarr")],
                          capsys)
    assert status == 2 and "zarr package" in err and "pip install" not in err
    assert not (tmp_path / "L.zarr").exists()


@pytest.mark.parametrize("argv", [["--help"], ["--version"], [], ["demo", "--help"],
                                  ["bench", "--help"]], ids=" ".join)
def test_help_and_version_import_nothing_heavy(argv):
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "kernelkit", *argv],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    imported = {line.split("|")[-1].strip().split(".")[0]
                for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "kernelkit" in imported
    assert not imported & {"numpy", "scipy", "sklearn", "networkx", "joblib"}


def test_help_lists_every_command():
    """``kernelkit --help`` (the script and ``python -m kernelkit``) lists every command module of
    ``kernelkit.cli`` (one with a ``run``) with its summary: a command cannot be left out."""
    import importlib
    import pkgutil

    import kernelkit.cli

    commands = {}
    for info in pkgutil.iter_modules(kernelkit.cli.__path__):
        module = importlib.import_module(f"kernelkit.cli.{info.name}")
        if callable(getattr(module, "run", None)):
            commands[info.name.lstrip("_")] = module.SUMMARY
    assert set(commands) == {"demo", "bench", "gram", "info"}
    script = os.path.join(os.path.dirname(sys.executable), "kernelkit")
    starts = [[sys.executable, "-m", "kernelkit"]] + ([[script]] if os.path.isfile(script) else [])
    outputs = []
    for start in starts:
        result = subprocess.run([*start, "--help"], capture_output=True, text=True)
        assert (result.returncode, result.stderr) == (0, "")
        outputs.append(result.stdout)
    assert all(out == outputs[0] for out in outputs)
    listed = " ".join(outputs[0].split())
    for name, summary in commands.items():
        assert f" {name} {' '.join(summary.split())}" in listed, name


def test_console_script_has_the_same_name():
    script = os.path.join(os.path.dirname(sys.executable), "kernelkit")
    if not os.path.isfile(script):
        pytest.skip("the kernelkit script is not installed beside this Python")
    from kernelkit import __version__

    result = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (0, f"kernelkit {__version__}\n")


def test_entry_point_runs_as_a_module():
    result = subprocess.run([sys.executable, "-m", "kernelkit", "gram", "nope"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("kernelkit gram: error: ")


def test_listing_keeps_long_paths_whole():
    from kernelkit.cli._text import _listing

    path = "/a/very/long/site-packages/kernelkit.libs/" + "x" * 120 + "-f9a9ad78.so.1.0.0"
    out = _listing("compiled cores", {"OpenMP": f"libgomp, 2 threads; {path} (loaded)"})
    assert path in out.split()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's RLIMIT_NPROC")
@pytest.mark.skipif(os.cpu_count() < 2, reason="one CPU: n_jobs=2 runs one thread")
def test_gram_names_threads_the_system_refuses(tmp_path):
    # libgomp ended the process with status 1 and no message of ours when it could not create
    # its threads; the command line now says which option to lower, with status 2. The child
    # counts as one process of its user, so a limit of 1 refuses every thread (root is exempt:
    # a root child first becomes user "nobody", writing to a folder of its own).
    # a copy of the data that user "nobody" can read (the installed package may sit in a
    # folder private to root, as a CI venv in a private temporary folder does)
    public = tempfile.mkdtemp()
    os.chmod(public, 0o755)
    data = shutil.copytree(MUTAG, os.path.join(public, "MUTAG"))
    script = f"""
import os, resource, sys, tempfile
from kernelkit.cli import main
argv = ["gram", "wl", "--quiet", {data!r}, "-o"]
assert main(argv + [{str(tmp_path / "K.npy")!r}, "--n-jobs", "1"]) == 0   # imports done
os.geteuid() == 0 and os.setuid(65534)
resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
folder = tempfile.mkdtemp()
try:
    status = main(argv + [os.path.join(folder, "K.npy"), "--n-jobs", "2"])
except SystemExit as exc:
    status = exc.code
assert not os.listdir(folder)                        # nothing written
os.rmdir(folder)
sys.exit(status)
"""
    try:
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                env={**os.environ, "OMP_NUM_THREADS": "2"}, timeout=300)
    finally:
        shutil.rmtree(public)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("kernelkit: error: cannot start 2 OpenMP threads")
    assert "--n-jobs 1" in result.stderr and "Thread creation failed" not in result.stderr
