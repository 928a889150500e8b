"""scikit-learn's estimator checks on every manifold estimator."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from kernelkit.manifold import MDS, ClassicalMDS, SammonMapping


@parametrize_with_checks([ClassicalMDS(), MDS(), MDS(metric=False), SammonMapping()])
def test_sklearn_compatible(estimator, check):
    check(estimator)
