"""Manifold learning and multidimensional scaling: classical MDS, SMACOF (metric, nonmetric,
weighted), Sammon mapping, spectral embedding."""

from kernelkit.manifold._classical_mds import ClassicalMDS
from kernelkit.manifold._mds import MDS
from kernelkit.manifold._sammon import SammonMapping
from kernelkit.manifold._smacof import smacof
from kernelkit.manifold._spectral_embedding import SpectralEmbedding

__all__ = ["MDS", "ClassicalMDS", "SammonMapping", "SpectralEmbedding", "smacof"]
