"""The sign convention of the eigenvectors of kernel PCA, classical MDS and PCA."""

import numpy as np
import pytest

from kernelkit.utils._eigen import flip_signs, leading_eigenpairs


def _largest_entry_positive(vectors):
    # the definition: the first entry of largest magnitude of each column made positive
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1
    return vectors * signs


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("in_place", [False, True])
def test_flip_signs_makes_the_first_largest_entry_positive(rng, dtype, in_place):
    # integers: columns whose largest and smallest entries tie in magnitude, either first
    vectors = rng.integers(-3, 4, size=(7, 400)).astype(dtype)
    vectors[:, :3] = [[2, -2, 0], [-2, 2, 0], [1, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0],
                      [0, 0, 0]]
    expected = _largest_entry_positive(vectors)
    given = vectors.copy(order="F")
    flipped = flip_signs(given, in_place=in_place)
    np.testing.assert_array_equal(flipped, expected)
    assert flipped.dtype == dtype
    assert (flipped is given) == in_place
    if not in_place:
        np.testing.assert_array_equal(given, vectors)
    # ties: the first of 2 and -2 decides; a zero column is left as it is
    np.testing.assert_array_equal(flipped[:3, :3], [[2, 2, 0], [-2, -2, 0], [1, -1, 0]])


def _spied_eigh(monkeypatch):
    from kernelkit.utils import _eigen

    drivers, eigh = [], _eigen.eigh

    def spy(a, **kwargs):
        drivers.append("evd" if kwargs.get("driver") == "evd" else "evr")
        return eigh(a, **kwargs)
    monkeypatch.setattr(_eigen, "eigh", spy)
    return drivers


@pytest.mark.parametrize("n_components, memory, driver", [
    (40, 2**40, "evd"), (8, 2**40, "evd"), (7, 2**40, "evr"),
    # a workspace this small is taken whatever the memory limits say
    (40, 0, "evd"),
])
def test_many_eigenpairs_come_from_the_whole_spectrum(monkeypatch, rng, n_components, memory,
                                                      driver):
    from kernelkit.utils import _eigen

    monkeypatch.setattr(_eigen, "available_memory", lambda: (memory, "a test"))
    drivers = _spied_eigh(monkeypatch)
    A = rng.normal(size=(40, 40))
    K = A @ A.T
    values, vectors = leading_eigenpairs(K.copy(), n_components)
    assert drivers == [driver]
    expected = np.linalg.eigvalsh(K)[::-1][:n_components]
    np.testing.assert_allclose(values, expected, rtol=1e-10)
    np.testing.assert_allclose(K @ vectors, vectors * values, atol=1e-9 * values[0])
    np.testing.assert_allclose(vectors.T @ vectors, np.eye(n_components), atol=1e-12)


def test_the_whole_spectrum_needs_its_workspace_in_memory(monkeypatch):
    from kernelkit.utils import _eigen

    n = 3_000   # a workspace of 137 MiB: above SMALL_WORKSPACE
    monkeypatch.setattr(_eigen, "available_memory", lambda: (2**30, "a test"))
    assert _eigen._whole_spectrum_pays(n, n)
    monkeypatch.setattr(_eigen, "available_memory", lambda: (2**28, "a test"))
    assert not _eigen._whole_spectrum_pays(n, n)
    assert _eigen._whole_spectrum_pays(1_000, 1_000)   # small: memory not read


def test_linear_pairs_fall_back_to_the_qr_iteration(monkeypatch, rng):
    from kernelkit.utils import _eigen

    svd, drivers = _eigen.svd, []

    def divide_and_conquer_fails(a, **kwargs):
        drivers.append(kwargs.get("lapack_driver", "gesdd"))
        if drivers[-1] == "gesdd":
            raise np.linalg.LinAlgError("SVD did not converge")
        return svd(a, **kwargs)
    monkeypatch.setattr(_eigen, "svd", divide_and_conquer_fails)
    X = rng.normal(size=(30, 4))
    values, vectors = _eigen.linear_leading_eigenpairs(X, 3)
    assert drivers == ["gesdd", "gesvd"]
    Xc = X - X.mean(axis=0)
    np.testing.assert_allclose(values, np.linalg.eigvalsh(Xc @ Xc.T)[::-1][:3], rtol=1e-10)
    np.testing.assert_allclose(Xc @ Xc.T @ vectors, vectors * values, atol=1e-9)
