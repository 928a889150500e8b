"""The sum kernel and the weighted sum kernel (Mairal & Vert, "Sum kernel", "The weighted sum
kernel"): data integration by adding Gram matrices."""

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.mkl._kernels import (
    KernelStack,
    _gram_stack,
    input_kind,
    validate_mkl_data,
)
from kernelkit.utils._sklearn_compat import (
    ParameterNamesOncePerClass,
    _fit_context,
    validate_params,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT

__all__ = ["SumKernel", "sum_kernel"]


def _checked_weights(weights, n_kernels):
    if weights is None:
        return np.ones(n_kernels)
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (n_kernels,) or not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError(f"weights must be {n_kernels} finite non-negative numbers, one per "
                         f"kernel; got {weights!r}.")
    return weights


@validate_params({"Ks": ["array-like", list], "weights": ["array-like", None]},
                 prefer_skip_nested_validation=True)
def sum_kernel(Ks, weights=None):
    r""":math:`K_\eta = \sum_m \eta_m K_m` (:math:`\eta = 1` when ``weights`` is None).

    The sum kernel is the kernel of the concatenated feature maps
    :math:`\Phi = (\Phi_1, \dots, \Phi_M)`; the weights :math:`\eta \ge 0` scale each block by
    :math:`\sqrt{\eta_m}` (Mairal & Vert, "Sum kernel and vector
    concatenation", "The weighted sum kernel").

    Parameters
    ----------
    Ks : array-like of shape (n_kernels, n_samples_X, n_samples_Y) or list of such matrices
    weights : array-like of shape (n_kernels,), default=None
        Non-negative.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.mkl import sum_kernel
    >>> sum_kernel([np.eye(2), np.ones((2, 2))], weights=[2.0, 1.0])
    array([[3., 1.],
           [1., 3.]])
    """
    Ks = _gram_stack(Ks, "Ks", square=False)
    return np.tensordot(_checked_weights(weights, Ks.shape[0]), Ks, axes=1)


class SumKernel(TransformerMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Weighted sum of kernels as one kernel object: :math:`K(x, y) = \sum_m w_m k_m(x, y)`.

    ``fit(X)`` clones and fits every kernel on ``X``; ``transform(Y)`` returns
    :math:`\sum_m w_m K_m(Y, X_\mathrm{fit})` and ``fit_transform(X)`` the training Gram matrix. So
    a pipeline, or ``SVC(kernel=SumKernel([...]))``, learns with the sum directly (Mairal & Vert,
    "Sum kernel", "Example: data integration with the sum kernel"; Yamanishi et al. 2004).

    Parameters
    ----------
    kernels : list
        Kernel objects (string, graph or :class:`kernelkit.kernels.VectorKernel`), vector-kernel
        names or callables, all applied to the same input.
    weights : array-like of shape (n_kernels,), default=None
        Non-negative weights ``w``; None gives the plain sum.
    n_jobs : int, default=None
        Threads of the Gram computations (kernels with their own ``n_jobs`` keep it).

    Attributes
    ----------
    stack_ : KernelStack
        The fitted kernels.
    weights_ : ndarray of shape (n_kernels,)

    References
    ----------
    Mairal & Vert, *Kernel Methods* slides, "Sum kernel", "Example: data integration".
    G. Lanckriet, T. De Bie, N. Cristianini, M. Jordan, W. S. Noble, "A statistical framework for
    genomic data fusion", Bioinformatics 20(16), 2004.

    See Also
    --------
    SimpleMKL : Learns the weights instead of fixing them.
    kernelkit.kernels.VectorKernel : A vector kernel as a kernel object, to sum with others.

    Examples
    --------
    >>> from kernelkit.kernels import SpectrumKernel
    >>> from kernelkit.mkl import SumKernel
    >>> kernel = SumKernel([SpectrumKernel(k=1), SpectrumKernel(k=2)])
    >>> kernel.fit_transform(["ABAB", "BABA"])   # 1-mer counts 8, plus 2-mer counts 5 and 4
    array([[13., 12.],
           [12., 13.]])
    """

    _parameter_constraints: dict = {
        "kernels": [list, tuple],
        "weights": ["array-like", None],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, kernels, weights=None, *, n_jobs=None):
        self.kernels = kernels
        self.weights = weights
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit every kernel on ``X``.

        Returns
        -------
        self : SumKernel
        """
        self._fit(X)
        return self

    def _fit(self, X):
        X = validate_mkl_data(self, X)
        self.weights_ = _checked_weights(self.weights, len(self.kernels))
        self.stack_ = KernelStack(self.kernels, n_jobs=self.n_jobs)
        return self.stack_.fit_combined(X, self.weights_)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        r"""Fit on ``X`` and return the training Gram matrix :math:`\sum_m w_m K_m(X, X)`.

        Returns
        -------
        K : ndarray of shape (n_samples, n_samples)
        """
        return self._fit(X)

    def transform(self, X):
        r""":math:`\sum_m w_m K_m(X, X_\mathrm{fit})`.

        Returns
        -------
        K : ndarray of shape (n_samples, n_samples_fit)
        """
        check_is_fitted(self, "stack_")
        X = validate_mkl_data(self, X, reset=False)
        return self.stack_.test_combined(X, self.weights_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # the input is what every kernel accepts: arrays only if all are vector kernels
        tags.input_tags.two_d_array = input_kind(self.kernels) == "vector"
        tags.requires_fit = True
        return tags

