"""What the spectrum and mismatch kernels share: k-mer spectra as the fitted representation."""

import numpy as np
from scipy import sparse
from sklearn.utils.validation import check_is_fitted

from kernelkit.kernels._strings._kmers import kmer_gram, kmer_spectra, squared_norms
from kernelkit.kernels._strings._string_kernel import StringKernel

__all__ = ["KmerKernel"]


class KmerKernel(StringKernel):
    """Base of the kernels ``K(x, y) = Σ_u Φ_u(x) Φ_u(y)`` over k-mers u (not public).

    Subclasses set ``_mismatches()`` (the Hamming radius m of the feature map).
    """

    def _mismatches(self):
        return 0

    def _check_batch(self, batch):
        longest = int(batch.lengths.max())
        if self.k > longest:
            raise ValueError(
                f"k={self.k} is longer than every training sequence (the longest has {longest} "
                "letters), so every k-mer spectrum would be empty."
            )

    def _prepare(self, X, fitting):
        batch = super()._prepare(X, fitting)
        return kmer_spectra(batch, self.k, self._mismatches(), self._n_threads())

    def _gram(self, A, B=None):
        return kmer_gram(A, B, len(self.alphabet_), self.k, self.algorithm, self._n_threads(),
                         self.verbose, type(self).__name__)

    def _self_similarity(self, A):
        return squared_norms(A)

    def transform_features(self, X):
        """Explicit feature vectors ``Φ(x)``: k-mer counts as a sparse matrix.

        Column ``c`` is the k-mer whose letters ``a_1 … a_k`` (as indices into ``alphabet_``)
        give ``c = Σ_t a_t |A|^{k−t}``. Since ``K(x, y) = Φ(x)·Φ(y)``, a linear model trained on
        these features scores a new sequence in O(|x|) (seed 004, "Spectrum kernel (2/2)").

        Parameters
        ----------
        X : sequence of str or bytes

        Returns
        -------
        features : scipy.sparse.csr_array of shape (n_samples, len(alphabet_) ** k), dtype float64
        """
        check_is_fitted(self, "X_fit_")
        n_columns = len(self.alphabet_) ** self.k
        if n_columns > np.iinfo(np.int64).max:
            raise ValueError(
                f"|A|^k = {len(self.alphabet_)}^{self.k} columns do not fit 64-bit sparse "
                "indices; use a smaller k for explicit features (the kernel itself still works)."
            )
        spectra = self._prepare(X, fitting=False)
        return sparse.csr_array(
            (spectra.counts, spectra.kmers.astype(np.int64), spectra.indptr.astype(np.int64)),
            shape=(spectra.n_samples, n_columns),
        )
