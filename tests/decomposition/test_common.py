"""scikit-learn's estimator checks on every decomposition estimator."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from kernelkit.decomposition import GaussianRandomProjection, KernelPCA, PCA, SparseRandomProjection


@parametrize_with_checks([
    PCA(),
    PCA(n_components=2, svd_solver="randomized", random_state=0),
    KernelPCA(),
    KernelPCA(kernel="rbf", n_components=2, fit_inverse_transform=True),
    GaussianRandomProjection(n_components=3, random_state=0),
    SparseRandomProjection(n_components=3, density=0.5, random_state=0),
])
def test_sklearn_compatible(estimator, check):
    check(estimator)
