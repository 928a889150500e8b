"""Manifold learning and embeddings."""

from kernelkit.manifold._spectral_embedding import SpectralEmbedding
"""Manifold learning and multidimensional scaling: classical MDS, SMACOF (metric, nonmetric,
weighted), Sammon mapping."""

from kernelkit.manifold._classical_mds import ClassicalMDS
from kernelkit.manifold._mds import MDS
from kernelkit.manifold._sammon import SammonMapping
from kernelkit.manifold._smacof import smacof

__all__ = ["ClassicalMDS", "MDS", "SammonMapping", "smacof"]
