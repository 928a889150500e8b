"""What every string kernel must do: the transformer API, input checks, threads, normalisation."""


import numpy as np
import pytest
from sklearn.base import clone

from kernelkit.kernels import (
    LocalAlignmentKernel,
    MismatchKernel,
    SpectrumKernel,
    SubstringKernel,
    is_positive_definite,
)
from kernelkit.utils import _progress

KERNELS = [
    SpectrumKernel(k=3),
    MismatchKernel(k=3, m=1, alphabet="protein"),
    SubstringKernel(k=2, lambda_=0.6),
    LocalAlignmentKernel(beta=0.5),
]
IDS = [type(k).__name__ for k in KERNELS]

@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_normalized_kernel_has_unit_diagonal_and_cosine_values(kernel, make_strings):
    X = make_strings(12, 4, 50)
    raw = clone(kernel).set_params(normalize=False)
    if isinstance(kernel, LocalAlignmentKernel):
        raw.set_params(log=True)      # (1/β) log K, the unnormalised values may overflow
    K = clone(kernel).set_params(normalize=True).fit_transform(X)
    np.testing.assert_allclose(np.diag(K), 1.0, rtol=1e-12)
    R = raw.fit_transform(X)
    if isinstance(kernel, LocalAlignmentKernel):
        d = np.diag(R)
        expected = np.exp(kernel.beta * (R - 0.5 * d[:, None] - 0.5 * d[None, :]))
    else:
        d = np.sqrt(np.diag(R))
        expected = R / np.outer(d, d)
    np.testing.assert_allclose(K, expected, rtol=1e-10)


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_gram_is_psd_on_real_proteins(kernel, secreted_proteins):
    sequences, _ = secreted_proteins
    # short proteins keep the O(|x||y|) kernels within the test budget
    X = [s for s in sequences if len(s) <= 150][:40]
    K = clone(kernel).set_params(normalize=True).fit_transform(X)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K)[0] >= -1e-8 * np.trace(K)
    assert is_positive_definite(K)


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_verbose_reports_progress_and_changes_nothing(kernel, make_strings, capsys,
                                                      check_fast_gram_verbose, monkeypatch):
    X = make_strings(30, 5, 30)
    quiet = check_fast_gram_verbose(kernel, X)
    # a slow one (no delay): progress lines over blocks of rows, then the same line
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "INTERVAL", 0.0)
    slow = clone(kernel).set_params(verbose=1).fit_transform(X)
    np.testing.assert_array_equal(quiet, slow)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) > 2 and lines[-1].startswith(f"[{type(kernel).__name__}] Gram matrix")
    assert lines[-2].startswith(f"[{type(kernel).__name__}] 30/30 rows, ")


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_bytes_and_str_give_the_same_kernel(kernel, make_strings):
    X = make_strings(8, 5, 30)
    K_str = clone(kernel).fit_transform(X)
    K_bytes = clone(kernel).fit_transform([s.encode("ascii") for s in X])
    np.testing.assert_array_equal(K_str, K_bytes)
    K_array = clone(kernel).fit_transform(np.array(X, dtype=object))
    np.testing.assert_array_equal(K_str, K_array)


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
@pytest.mark.parametrize(
    "X, error, match",
    [
        ("ACDEF", TypeError, "not a single string"),
        ([], ValueError, "empty"),
        (["ACD", ""], ValueError, "X\\[1\\] is an empty string"),
        (["ACD", 3], TypeError, "X\\[1\\] is of type int"),
        (["ACD", None], TypeError, "X\\[1\\] is of type NoneType"),
        (np.array([["AC"], ["DE"]]), ValueError, "1-d sequence"),
        (12, TypeError, "sequence of str or bytes"),
    ],
    ids=["single-string", "empty-X", "empty-string", "int-item", "None-item", "2d-array",
         "not-a-sequence"],
)
def test_bad_input_raises_clear_errors(kernel, X, error, match):
    with pytest.raises(error, match=match):
        clone(kernel).fit(X)


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_unknown_letter_error_and_skip(kernel):
    X = ["ACDEFGHIK", "KLMNPQRST", "VWYACDEFG"]
    est = clone(kernel).fit(X)
    with pytest.raises(ValueError, match="letter 'U'.*not in the alphabet"):
        est.transform(["ACDUEF"])
    skipping = clone(kernel).set_params(unknown="skip").fit(X)
    np.testing.assert_array_equal(skipping.transform(["ACDUEF"]), skipping.transform(["ACDEF"]))


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_bad_parameters_raise(kernel):
    for params in ({"normalize": "yes"}, {"unknown": "ignore"}, {"n_jobs": 1.5}):
        with pytest.raises(ValueError, match=list(params)[0]):
            clone(kernel).set_params(**params).fit(["ACDEF", "GHIKL"])


@pytest.mark.parametrize("cls", [SpectrumKernel, MismatchKernel, SubstringKernel])
def test_k_must_be_positive_and_fit_some_sequence(cls):
    with pytest.raises(ValueError, match="'k' parameter"):
        cls(k=0).fit(["ACDEF"])
    params = {"m": 0} if cls is MismatchKernel else {}
    with pytest.raises(ValueError, match="k=6 is longer than every training sequence"):
        cls(k=6, **params).fit(["ACDEF", "GHI"])


def test_alphabet_names_and_letters():
    X = ["ACGTTGCA", "TTTTACGA"]
    by_name = SpectrumKernel(k=2, alphabet="dna").fit(X)
    assert by_name.alphabet_ == "ACGT"
    assert SpectrumKernel(k=2).fit(X).alphabet_ == "ACGT"
    assert SpectrumKernel(k=2, alphabet="TGCA").fit(X).alphabet_ == "TGCA"
    np.testing.assert_array_equal(by_name.transform(X),
                                  SpectrumKernel(k=2, alphabet="TGCA").fit(X).transform(X))
    with pytest.raises(ValueError, match="repeats letters"):
        SpectrumKernel(alphabet="AAC").fit(X)
    with pytest.raises(ValueError, match="alphabet must be"):
        SpectrumKernel(alphabet="").fit(X)


def test_pipeline_with_svc_cross_validation_and_grid_search(secreted_proteins):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC

    sequences, labels = secreted_proteins
    pipe = make_pipeline(SpectrumKernel(k=3, normalize=True), SVC(kernel="precomputed"))
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    scores = cross_val_score(pipe, sequences, labels, cv=cv)
    assert scores.shape == (3,)
    # better than always predicting the majority class (480 / 655 = 0.733)
    assert scores.mean() > 0.75
    search = GridSearchCV(pipe, {"spectrumkernel__k": [1, 2, 3]}, cv=cv).fit(sequences, labels)
    assert search.best_params_["spectrumkernel__k"] in (1, 2, 3)
    assert search.predict(sequences[:5]).shape == (5,)


@pytest.mark.parametrize("kernel", [SpectrumKernel(k=3), MismatchKernel(k=3, m=1)],
                         ids=lambda k: type(k).__name__)
def test_absurd_n_jobs_uses_the_usable_cpus(kernel):
    # n_jobs beyond the CPUs is clamped (10**5 threads would exhaust the process limit)
    sequences = ["ACDEFGHIK", "CDEFGHIKL", "ACACACAC"]
    expected = clone(kernel).set_params(n_jobs=1).fit_transform(sequences)
    got = clone(kernel).set_params(n_jobs=10**5).fit_transform(sequences)
    np.testing.assert_array_equal(got, expected)
