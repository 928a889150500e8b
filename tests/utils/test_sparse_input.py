"""check_sparse_input: the structural check and normal form of every sparse input."""

import numpy as np
import pytest
import scipy.sparse as sp

from kernelkit.utils._validation import (block_diagonal_csr_arrays, check_sparse_input,
                                         checked_csr_arrays)


def _clean(seed=0, shape=(6, 5)):
    X = sp.random(*shape, density=0.5, format="csr", random_state=seed)
    X.data += 1.0   # no stored value equal to 0
    return X


def _arrays(X):
    return [np.array(a, copy=True) for a in (X.data, X.indices, X.indptr)]


def test_malformed_matrices_are_refused_naming_the_parameter_and_the_fault(sparse_inputs):
    for case, X, error, fragment in sparse_inputs.malformed(_clean()):
        before = _arrays(X) if X.format == "csr" else None
        with pytest.raises(error) as raised:
            check_sparse_input(X, "features")
        message = str(raised.value)
        assert "features" in message and fragment in message, (case, message)
        if before is not None:   # the caller's matrix is left as it was
            for old, new in zip(before, (X.data, X.indices, X.indptr)):
                np.testing.assert_array_equal(old, new)


@pytest.mark.parametrize("kind", ["matrix", "array"])
@pytest.mark.parametrize("layout", ["csr", "csc", "coo", "bsr", "lil", "dok", "dia"])
def test_every_format_becomes_the_same_csr(layout, kind):
    X = _clean()
    given = getattr(sp, f"{layout}_{kind}")(X)
    out = check_sparse_input(given)
    assert out.format == "csr" and isinstance(out, sp.sparray) == (kind == "array")
    np.testing.assert_array_equal(out.toarray(), X.toarray())


@pytest.mark.parametrize("format_", ["csc", "bsr"])
def test_compressed_formats_are_checked_before_conversion(format_):
    X = sp.csc_matrix(_clean()) if format_ == "csc" else sp.bsr_matrix(_clean(shape=(6, 4)),
                                                                        blocksize=(2, 2))
    X.indices = X.indices.copy()
    X.indices[0] = 2**30
    axis = "row" if format_ == "csc" else "block column"
    with pytest.raises(ValueError, match=f"is not a {axis} index"):
        check_sparse_input(X)


def test_equivalent_layouts_give_the_normal_form(sparse_inputs):
    X = _clean()
    for case, given in sparse_inputs.equivalent(X):
        out = check_sparse_input(given)
        np.testing.assert_array_equal(out.toarray(), X.toarray(), err_msg=case)
        assert out.indices.dtype == out.indptr.dtype == np.int32, case
        assert out.indices.size == out.data.size == out.indptr[-1], case
        assert out.data.flags.c_contiguous and out.indices.flags.c_contiguous, case


def test_a_clean_csr_is_returned_as_it_is():
    X = _clean()
    assert check_sparse_input(X) is X
    assert check_sparse_input(X, canonical=True) is X
    array = sp.csr_array(X)
    assert check_sparse_input(array) is array


def test_non_sparse_inputs_pass_through():
    X = np.arange(6.0).reshape(2, 3)
    assert check_sparse_input(X) is X
    assert check_sparse_input([[1, 2]]) == [[1, 2]]


def test_indices_of_large_matrices_stay_int64():
    """int32 cannot address 2**31 columns: the indices are int64, as scipy builds them."""
    X = sp.csr_matrix((np.ones(2), np.array([0, 2**31 + 5], dtype=np.uint64),
                       np.array([0, 1, 2], dtype=np.uint64)), shape=(2, 2**31 + 6))
    out = check_sparse_input(X)
    assert out.indices.dtype == out.indptr.dtype == np.int64
    assert out.indices.tolist() == [0, 2**31 + 5]


def test_uint64_index_beyond_int64_is_refused():
    X = _clean()
    X.indices = X.indices.astype(np.uint64)
    X.indices[0] = np.iinfo(np.uint64).max
    with pytest.raises(ValueError, match=f"indices\\[0\\] = {np.iinfo(np.uint64).max} is not"):
        check_sparse_input(X)


def test_canonical_sums_repeated_entries_on_a_copy():
    X = sp.csr_matrix((np.array([1.0, 2.0, 4.0]), np.array([1, 1, 0]), np.array([0, 3, 3])),
                      shape=(2, 2))
    out = check_sparse_input(X, canonical=True)
    assert out.has_canonical_format
    np.testing.assert_array_equal(out.toarray(), [[4.0, 3.0], [0.0, 0.0]])
    assert X.nnz == 3 and X.indices.tolist() == [1, 1, 0]


def test_explicit_shapes_without_entries():
    for shape in [(0, 0), (0, 3), (3, 0), (4, 4)]:
        X = sp.csr_matrix(shape)
        out = check_sparse_input(X)
        assert out.shape == shape and out.nnz == 0


def test_more_than_two_dimensions_is_refused():
    X = sp.coo_array(np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="X is a 3-d sparse array"):
        check_sparse_input(X)


def test_a_one_dimensional_csr_array_is_refused():
    X = sp.csr_array(np.array([1.0, 0.0, 2.0]))
    for check in (check_sparse_input, checked_csr_arrays):
        with pytest.raises(ValueError, match="X is a 1-d sparse array"):
            check(X)


def test_a_kernel_callable_returning_a_malformed_matrix_is_refused(sparse_inputs):
    """A callable's sparse Gram is densified by scipy, which reads its indices unchecked."""
    sparse_inputs.assert_refused("""
        from kernelkit.kernel_ridge import KernelRidge
        rng = np.random.default_rng(0)
        Z, y = rng.normal(size=(6, 2)), rng.normal(size=6)
        def make():
            X = sp.csr_matrix(np.exp(-((Z[:, None] - Z[None]) ** 2).sum(-1)))
            return X
        """, ["KernelRidge(kernel=lambda A, B: X).fit(Z, y)"],
        name="The kernel callable's output")


def _block_diagonal_one_by_one(matrices):
    """The block-diagonal CSR arrays of ``checked_csr_arrays`` of each matrix, joined here."""
    arrays = [checked_csr_arrays(X) for X in matrices]
    n_stored = np.cumsum([0] + [len(data) for data, _, _ in arrays])
    n_columns = np.cumsum([0] + [X.shape[1] for X in matrices])
    indptr = np.concatenate([[0]] + [indptr[1:] + n_stored[k]
                                     for k, (_, _, indptr) in enumerate(arrays)])
    indices = np.concatenate([indices.astype(np.int64) + n_columns[k]
                              for k, (_, indices, _) in enumerate(arrays)])
    data = np.concatenate([data for data, _, _ in arrays])
    return np.array([X.shape for X in matrices]), indptr, indices, data


def test_block_diagonal_of_every_layout_is_that_of_each_checked_matrix(sparse_inputs):
    """Unused storage, repeated entries, other formats and index dtypes among clean matrices
    (and empty ones): the blocks are those checked_csr_arrays gives, one by one."""
    layouts = [given for _, given in sparse_inputs.equivalent(_clean())]
    unsorted = sp.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([2, 0, 1]),
                              np.array([0, 3, 3])), shape=(2, 4))
    zeros = sp.csr_matrix((np.array([0.0, 5.0]), np.array([0, 1]), np.array([0, 2])),
                          shape=(1, 2))
    others = [unsorted, zeros, sp.csr_matrix((0, 3)), sp.csr_array((2, 0)),
              sp.csr_array(np.eye(3, dtype=bool)), _clean(1, (3, 7))]
    rng = np.random.default_rng(0)
    for trial in range(20):
        chosen = [_clean(trial)] + list(rng.permutation(np.array(layouts + others,
                                                                 dtype=object)))[:trial % 9 + 1]
        expected = _block_diagonal_one_by_one(chosen)
        found = block_diagonal_csr_arrays(chosen)
        for name, want, got in zip(("shapes", "indptr", "indices", "data"), expected, found):
            np.testing.assert_array_equal(got, want, err_msg=f"{trial} {name}")
            assert got.dtype == (want.dtype if name == "data" else np.int64), (trial, name)


def test_block_diagonal_of_a_malformed_matrix_is_none(sparse_inputs):
    """None whatever the fault and wherever the matrix is (each is then checked alone)."""
    for case, X, _, _ in sparse_inputs.malformed(_clean()):
        for position in range(3):
            matrices = [_clean(1), _clean(2)]
            matrices.insert(position, X)
            assert block_diagonal_csr_arrays(matrices) is None, (case, position)
    boolean = _clean()
    boolean.indices = boolean.indices.astype(bool)  # bool indices among integer ones
    one_d = sp.csr_array(np.array([1.0, 0.0, 2.0]))
    for X in (boolean, one_d):
        assert block_diagonal_csr_arrays([_clean(), X]) is None
    # blocks without row pointers: fewer pointers in all than blocks
    pointless = [_clean(), _clean()]
    for X in pointless:
        X.indptr = np.zeros(0, dtype=np.int32)
    assert block_diagonal_csr_arrays(pointless) is None
    assert block_diagonal_csr_arrays([_clean()] + pointless) is None
