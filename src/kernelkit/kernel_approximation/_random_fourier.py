"""Random Fourier features for the translation-invariant kernels (Bochner's theorem).

Mairal & Vert, *Kernel Methods* slides, "Translation invariant kernels" (Bochner) and "RKHS of
translation invariant kernels". Rahimi & Recht, "Random features for large-scale kernel
machines", NIPS 2007.
"""

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.utils._kernels import resolve_gamma
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._validation import MAX_INT, check_finite_result, check_memory_request

__all__ = ["RandomFourierFeatures"]


def _gaussian_frequencies(gamma, size, random_state):
    # exp(−γ‖t‖²) is the characteristic function of N(0, 2γ I)
    return np.sqrt(2.0 * gamma) * random_state.standard_normal(size)


def _cauchy_frequencies(gamma, size, random_state):
    # exp(−γ‖t‖₁) = Π_k exp(−γ|t_k|), each the characteristic function of a Cauchy(0, γ) law
    return gamma * random_state.standard_cauchy(size)


def _uniform_frequencies(gamma, size, random_state):
    # Π_k sin(Ω t_k)/(π t_k) = (Ω/π)^d E[cos(ωᵀt)] for ω uniform on the cube [−Ω, Ω]^d
    return random_state.uniform(-gamma, gamma, size)


# kernel name → (sampler of the normalised spectral measure, κ(0) for n_features)
_SPECTRAL_MEASURES = {
    "rbf": (_gaussian_frequencies, lambda gamma, n_features: 1.0),
    "laplacian": (_cauchy_frequencies, lambda gamma, n_features: 1.0),
    # a float64 power: an overflow gives inf (refused in fit), not Python's OverflowError
    "sinc": (_uniform_frequencies,
             lambda gamma, n_features: np.float64(gamma / np.pi) ** n_features),
}


class RandomFourierFeatures(ClassNamePrefixFeaturesOutMixin, TransformerMixin,
                            ParameterNamesOncePerClass, BaseEstimator):
    r"""Random Fourier features of a translation-invariant kernel (Rahimi & Recht 2007).

    By Bochner's theorem a continuous translation-invariant kernel
    :math:`k(x, y) = \kappa(x - y)` is positive definite iff
    :math:`\kappa = \kappa(0) E_\omega[\cos(\omega^\top (x - y))]` for a probability measure on
    the frequencies :math:`\omega`, the normalised Fourier transform of :math:`\kappa` (Mairal &
    Vert, "Translation invariant kernels"). Drawing :math:`\omega_1, \dots, \omega_D` from it and
    :math:`b_j` uniform on :math:`[0, 2\pi]`, the map
    :math:`z(x) = \sqrt{2\kappa(0)/D} \, (\cos(\omega_j^\top x + b_j))_j` satisfies
    :math:`E[z(x)^\top z(y)] = k(x, y)`, with an error of order :math:`\kappa(0) / \sqrt D`. A
    linear model on :math:`z(X)` then approximates the kernel machine at a cost linear in
    ``n_samples``.

    Spectral measures of kernelkit's translation-invariant kernels:

    * "rbf" :math:`\exp(-\gamma \|x - y\|^2)`: :math:`\omega \sim \mathcal N(0, 2\gamma I)`;
    * "laplacian" :math:`\exp(-\gamma \|x - y\|_1)`: independent Cauchy coordinates of scale
      :math:`\gamma`;
    * "sinc" :math:`\prod_k \sin(\gamma (x_k - y_k)) / (\pi (x_k - y_k))`: :math:`\omega` uniform
      on :math:`[-\gamma, \gamma]^d`, :math:`\kappa(0) = (\gamma / \pi)^d` (band-limited: the
      measure has compact support).

    Parameters
    ----------
    kernel : {"rbf", "laplacian", "sinc"}, default="rbf"
        The kernel approximated, with kernelkit's parametrisation
        (:func:`kernelkit.kernels.pairwise_kernels`).
    gamma : float or "scale", default=1.0
        γ of the kernel (the band limit Ω of sinc); "scale" is ``1 / (n_features · Var X)``.
    n_components : int, default=100
        Number of random features :math:`D`.
    random_state : int, RandomState instance or None, default=None
        Seed of the frequencies and phases.

    Attributes
    ----------
    random_weights_ : ndarray of shape (n_features, n_components)
        The frequencies :math:`\omega_j` as columns (scikit-learn's ``RBFSampler`` layout).
    random_offset_ : ndarray of shape (n_components,)
        The phases :math:`b_j`.
    gamma_ : float
        The resolved γ.
    n_features_in_ : int

    See Also
    --------
    kernelkit.kernels.rbf_kernel, kernelkit.kernels.laplacian_kernel,
    kernelkit.kernels.sinc_kernel : the exact kernels.
    sklearn.kernel_approximation.RBFSampler : the "rbf" case, same attribute names.

    References
    ----------
    Mairal & Vert, *Kernel Methods* slides, "Translation invariant kernels" (Bochner), "Example:
    sinc kernel"; Peyré, §16.5.1 (translation-invariant kernels).
    A. Rahimi and B. Recht, "Random features for large-scale kernel machines", NIPS 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernel_approximation import RandomFourierFeatures
    >>> from kernelkit.kernels import rbf_kernel
    >>> X = np.random.default_rng(0).normal(size=(50, 3))
    >>> Z = RandomFourierFeatures(gamma=0.5, n_components=20000, random_state=0).fit_transform(X)
    >>> bool(np.abs(Z @ Z.T - rbf_kernel(X, gamma=0.5)).max() < 0.05)
    True
    """

    _parameter_constraints = {
        "kernel": [StrOptions(set(_SPECTRAL_MEASURES))],
        "gamma": [Interval(Real, 0, None, closed="neither"), StrOptions({"scale"})],
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, kernel="rbf", *, gamma=1.0, n_components=100, random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.n_components = n_components
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Draw the frequencies and phases for the features of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Only its number of features (and, for ``gamma="scale"``, its variance) is used.
        y : None
            Ignored.

        Returns
        -------
        self : RandomFourierFeatures
        """
        X = validate_data(self, X, dtype=np.float64)
        random_state = check_random_state(self.random_state)
        self.gamma_ = resolve_gamma(self.gamma, X)
        sample, diagonal = _SPECTRAL_MEASURES[self.kernel]
        n_features = X.shape[1]
        with np.errstate(over="ignore"):
            self._scale = np.sqrt(2.0 * diagonal(self.gamma_, n_features) / self.n_components)
        if not np.isfinite(self._scale):
            raise ValueError(f"The {self.kernel} kernel's k(x, x) overflows float64 with "
                             f"gamma={self.gamma_:g} and {n_features} features.")
        # the (n_features, n_components) frequencies and the sampler's temporary of that size
        check_memory_request(16.0 * (n_features + 1) * self.n_components,
                             f"RandomFourierFeatures(n_components={self.n_components}) on "
                             f"{n_features} features", "lower n_components.")
        self.random_weights_ = sample(self.gamma_, (n_features, self.n_components), random_state)
        self.random_offset_ = random_state.uniform(0.0, 2.0 * np.pi, self.n_components)
        self._n_features_out = self.n_components
        return self

    def transform(self, X):
        r"""Map ``X`` to the random features :math:`\sqrt{2\kappa(0)/D} \cos(X W + b)`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        Z : ndarray of shape (n_samples, n_components)
            :math:`Z Z^\top` approximates the kernel's Gram matrix.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        check_memory_request(8.0 * X.shape[0] * self.n_components,
                             f"RandomFourierFeatures(n_components={self.n_components}) features "
                             f"of {X.shape[0]} samples",
                             "transform fewer samples at a time, or lower n_components.")
        with np.errstate(over="ignore", invalid="ignore"):   # refused just below
            projection = X @ self.random_weights_
        check_finite_result(projection, "X @ random_weights_")
        projection += self.random_offset_
        np.cos(projection, out=projection)
        projection *= self._scale
        return projection
