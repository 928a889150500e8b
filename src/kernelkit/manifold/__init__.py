"""Manifold learning and embeddings."""

from kernelkit.manifold._spectral_embedding import SpectralEmbedding
