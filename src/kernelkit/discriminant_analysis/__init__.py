"""Discriminant analysis: Gaussian Bayes classifiers (LDA, QDA, mixed Gaussian-Bernoulli) and
Fisher's discriminants, linear and kernel (Sangnier, *Introduction to machine learning*,
§1.1)."""

from kernelkit.discriminant_analysis._fisher import (
    FisherDiscriminantAnalysis,
    KernelFisherDiscriminantAnalysis,
)
from kernelkit.discriminant_analysis._lda import LinearDiscriminantAnalysis
from kernelkit.discriminant_analysis._mixed_bayes import MixedNaiveBayes
from kernelkit.discriminant_analysis._qda import QuadraticDiscriminantAnalysis

__all__ = [
    "FisherDiscriminantAnalysis",
    "KernelFisherDiscriminantAnalysis",
    "LinearDiscriminantAnalysis",
    "MixedNaiveBayes",
    "QuadraticDiscriminantAnalysis",
]
