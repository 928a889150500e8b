"""Data sets: loaders of standard formats (FASTA, TU graph sets), the BLOSUM62 substitution
matrix, and small real sets shipped with kernelkit (provenance in ``data/*/README.md``)."""

from kernelkit.datasets._fasta import read_fasta
from kernelkit.datasets._proteins import load_secreted_proteins
from kernelkit.datasets._substitution import load_blosum62
from kernelkit.datasets._tudataset import load_mutag, load_tudataset

__all__ = ["load_blosum62", "load_mutag", "load_secreted_proteins", "load_tudataset", "read_fasta"]
