"""Data sets: loaders of standard formats (FASTA, TU graph sets), the BLOSUM62 substitution
matrix, small real sets (sequences, graphs, a census table) shipped with kernelkit (provenance in
``data/*/README.md``), and downloads by name into a local cache, checked against SHA-256 values."""

from kernelkit.datasets._adult import load_adult
from kernelkit.datasets._fasta import read_fasta
from kernelkit.datasets._fetch import fetch_tudataset, get_data_home
from kernelkit.datasets._proteins import load_secreted_proteins
from kernelkit.datasets._substitution import load_blosum62
from kernelkit.datasets._tudataset import load_mutag, load_tudataset
from kernelkit.datasets._uci import fetch_uci_splice, load_uci_promoters

__all__ = [
    "fetch_tudataset",
    "fetch_uci_splice",
    "get_data_home",
    "load_adult",
    "load_blosum62",
    "load_mutag",
    "load_secreted_proteins",
    "load_tudataset",
    "load_uci_promoters",
    "read_fasta",
]
