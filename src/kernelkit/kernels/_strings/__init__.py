"""String kernels (Mairal & Vert, "String kernels"): spectrum, mismatch, gapped k-mer,
gap-weighted subsequence and local alignment kernels, as scikit-learn transformers with
compiled, parallel Gram cores."""

from kernelkit.kernels._strings._gapped_kmer import GappedKmerKernel, gapped_kmer_kernel
from kernelkit.kernels._strings._gappy_pair import GappyPairKernel, gappy_pair_kernel
from kernelkit.kernels._strings._local_alignment import LocalAlignmentKernel, local_alignment_kernel
from kernelkit.kernels._strings._mismatch import MismatchKernel, mismatch_kernel
from kernelkit.kernels._strings._spectrum import SpectrumKernel, spectrum_kernel
from kernelkit.kernels._strings._substring import SubstringKernel, substring_kernel
from kernelkit.kernels._strings._weighted_degree import (
    WeightedDegreeKernel,
    weighted_degree_kernel,
)

__all__ = [
    "GappedKmerKernel",
    "GappyPairKernel",
    "LocalAlignmentKernel",
    "MismatchKernel",
    "SpectrumKernel",
    "SubstringKernel",
    "WeightedDegreeKernel",
    "gapped_kmer_kernel",
    "gappy_pair_kernel",
    "local_alignment_kernel",
    "mismatch_kernel",
    "spectrum_kernel",
    "substring_kernel",
    "weighted_degree_kernel",
]
