"""FASTA reader, shipped BLOSUM62 and secreted-protein data."""

import re

import numpy as np
import pytest

from kernelkit.datasets import load_blosum62, load_secreted_proteins, read_fasta


def test_read_fasta_joins_lines_and_keeps_headers(tmp_path):
    path = tmp_path / "x.fasta"
    path.write_text(">sp|P1| first protein\nACD\nEF G\n\n; a comment\n>second\nKLM")  # no final newline
    names, sequences = read_fasta(path)
    assert names == ["sp|P1| first protein", "second"]
    assert sequences == ["ACDEFG", "KLM"]


def test_read_fasta_rejects_letters_before_a_header(tmp_path):
    path = tmp_path / "bad.fasta"
    path.write_text("\n; notes\nACGT\n>x\nACGT\n")
    with pytest.raises(ValueError, match="^" + re.escape(
            f"{path}, line 3: sequence letters before the first '>' header")):
        read_fasta(path)


def test_read_fasta_names_the_file_and_line_of_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "binary.fasta"
    path.write_bytes(b">a\nACGT\nAC\x93GT\n")
    with pytest.raises(ValueError, match="^" + re.escape(
            f"{path}, line 3: byte 0x93 is not UTF-8 text")):
        read_fasta(path)


def test_read_fasta_skips_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.fasta"
    path.write_bytes("\ufeff>a\r\nACGT\r\n".encode("utf-8"))
    assert read_fasta(path) == (["a"], ["ACGT"])


def test_read_fasta_on_the_shared_peptides(shared_data):
    names, sequences = read_fasta(shared_data / "peptide_amp_iamp2l" / "seqs.fasta")
    labels = (shared_data / "peptide_amp_iamp2l" / "classes.txt").read_text().split()
    assert len(names) == len(sequences) == len(labels) == 3284
    assert set("".join(sequences)) <= set("ACDEFGHIKLMNPQRSTVWY")


def test_blosum62_is_the_ncbi_matrix():
    letters, scores = load_blosum62()
    assert letters == "ARNDCQEGHILKMFPSTWYVBZX*"
    np.testing.assert_array_equal(scores, scores.T)
    diag = dict(zip(letters, np.diag(scores)))
    assert (diag["A"], diag["C"], diag["W"]) == (4, 9, 11)
    assert scores[letters.index("W"), letters.index("*")] == -4


def test_shipped_blosum62_equals_the_shared_copy(shared_data):
    shipped = load_blosum62()
    import importlib.resources as resources

    text = resources.files("kernelkit.datasets").joinpath("data", "BLOSUM62", "BLOSUM62")
    assert text.read_bytes() == (shared_data / "BLOSUM62" / "BLOSUM62").read_bytes()
    assert shipped[1].shape == (24, 24)


def test_secreted_proteins():
    sequences, labels, names = load_secreted_proteins()
    assert len(sequences) == len(names) == labels.shape[0] == 655
    assert labels.sum() == 175 and (labels[:175] == 1).all()
    lengths = [len(s) for s in sequences]
    assert (min(lengths), max(lengths)) == (66, 1594)
    assert set("".join(sequences)) <= set("ACDEFGHIKLMNPQRSTVWY")
