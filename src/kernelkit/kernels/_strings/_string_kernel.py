"""The base class of the string kernels: input validation, alphabet, threads, function forms."""

from numbers import Integral

from sklearn.utils._param_validation import StrOptions

from kernelkit.kernels._base import StructuredKernel
from kernelkit.kernels._strings._sequences import check_sequences, encode, resolve_alphabet
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads

__all__ = ["StringKernel", "pairwise_string_kernel"]


class StringKernel(StructuredKernel):
    """Common machinery of the string kernels (not public).

    Subclasses define ``_parameter_constraints`` (extending this one), ``_gram`` and
    ``_self_similarity``; they may override ``_fit_alphabet`` (the alphabet learned at ``fit``)
    and ``_check_batch`` (checks needing the encoded training sequences, e.g. ``k`` ≤ the
    longest sequence).
    """

    _parameter_constraints = {
        "alphabet": [None, str],
        "unknown": [StrOptions({"error", "skip"})],
        "normalize": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def _fit(self, X):
        self._validate_params()
        return super()._fit(X)

    def _fit_alphabet(self, sequences):
        return resolve_alphabet(self.alphabet, sequences)

    def _check_batch(self, batch):
        """Raise ValueError if the training batch cannot be used with these parameters."""

    def _prepare(self, X, fitting):
        sequences = check_sequences(X)
        if fitting:
            self.alphabet_ = self._fit_alphabet(sequences)
        batch = encode(sequences, self.alphabet_, self.unknown)
        if fitting:
            self._check_batch(batch)
        return batch

    def _n_threads(self):
        return effective_n_threads(self.n_jobs)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        return tags


def pairwise_string_kernel(kernel, X, Y=None):
    """``K(X, Y)`` of shape ``(n_X, n_Y)`` with the string kernel estimator ``kernel``.

    With ``Y`` given, an inferred alphabet (``alphabet=None``) is inferred from X and Y together, so
    that neither side has unknown letters.
    """
    if Y is None:
        return kernel.fit_transform(X)
    if "alphabet" in kernel.get_params() and kernel.alphabet is None:
        kernel.set_params(alphabet=resolve_alphabet(None, check_sequences(X) + check_sequences(Y)))
    return kernel.fit(Y).transform(X)
