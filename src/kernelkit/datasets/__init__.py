"""Data loaders: FASTA files, the BLOSUM62 substitution matrix and small real data sets shipped
with the package (provenance in ``data/*/README.md``)."""

from kernelkit.datasets._fasta import read_fasta
from kernelkit.datasets._proteins import load_secreted_proteins
from kernelkit.datasets._substitution import load_blosum62

__all__ = ["load_blosum62", "load_secreted_proteins", "read_fasta"]
