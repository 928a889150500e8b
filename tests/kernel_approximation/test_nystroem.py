"""KernelNystroem: F Fᵀ = K(X, L) K(L, L)⁺ K(L, X) approaches K, exactly when L is all of X."""

import pickle

import numpy as np
import pytest
from sklearn.kernel_approximation import Nystroem
from sklearn.pipeline import make_pipeline

from kernelkit.cluster import KMeans
from kernelkit.datasets import load_mutag, load_secreted_proteins
from kernelkit.decomposition import PCA
from kernelkit.kernel_approximation import KernelNystroem
from kernelkit.kernels import SpectrumKernel, WeisfeilerLehmanKernel, rbf_kernel
from kernelkit.linear_model import LogisticRegression
from kernelkit.svm import SVC


def _errors(X, K, landmarks, sizes, **params):
    errors = []
    for m in sizes:
        F = KernelNystroem(n_components=m, landmarks=landmarks, random_state=0,
                           **params).fit_transform(X)
        errors.append(np.linalg.norm(K - F @ F.T))
    return np.array(errors)


@pytest.mark.parametrize("landmarks", ["uniform", "rls"])
def test_error_decreases_with_landmarks_and_vanishes_with_all(landmarks, rng):
    X = rng.normal(size=(120, 3))
    K = rbf_kernel(X, gamma=0.5)
    errors = _errors(X, K, landmarks, (5, 20, 60, 120), kernel="rbf", gamma=0.5)
    if landmarks == "uniform":
        # one permutation's prefixes: nested landmark sets, so the error cannot grow
        assert np.all(np.diff(errors) <= 1e-12)
    else:
        assert errors[2] < errors[0]
    assert errors[-1] < 1e-8 * np.linalg.norm(K)


def test_same_gram_approximation_as_scikit_learn(rng):
    X = rng.normal(size=(60, 4))
    ours = KernelNystroem(gamma=0.2, n_components=15, random_state=0).fit(X)
    theirs = Nystroem(gamma=0.2, n_components=15).fit(X)
    # same landmarks → the same F Fᵀ (the feature bases may differ by a rotation)
    theirs.components_ = X[ours.component_indices_]
    theirs.component_indices_ = ours.component_indices_
    K_LL = rbf_kernel(theirs.components_, gamma=0.2)
    u, s, vt = np.linalg.svd(K_LL)
    theirs.normalization_ = (u / np.sqrt(s)) @ vt
    F, G = ours.transform(X), theirs.transform(X)
    np.testing.assert_allclose(F @ F.T, G @ G.T, atol=1e-8)


def test_rls_finds_the_rare_cluster(rng):
    # 195 points in one tight blob and 5 far away: uniform sampling of 10 misses the far ones
    # with probability (195 choose 10)/(200 choose 10) ≈ 0.77; ridge leverage picks them
    X = np.vstack([rng.normal(scale=0.05, size=(195, 2)), rng.normal(size=(5, 2)) + 10])
    K = rbf_kernel(X, gamma=1.0)
    rls = KernelNystroem(gamma=1.0, n_components=10, landmarks="rls", random_state=0).fit(X)
    assert np.sum(rls.component_indices_ >= 195) >= 3
    F = rls.transform(X)
    assert np.linalg.norm(K - F @ F.T) < 1.5


def test_string_and_graph_kernels_are_exact_with_all_landmarks():
    sequences = load_secreted_proteins()[0][:40]
    K = SpectrumKernel(k=3, normalize=True).fit_transform(sequences)
    F = KernelNystroem(SpectrumKernel(k=3, normalize=True), n_components=40,
                       random_state=0).fit_transform(sequences)
    assert np.abs(F @ F.T - K).max() < 1e-8
    graphs = load_mutag().graphs[:50]
    K = WeisfeilerLehmanKernel(n_iter=2).fit_transform(graphs)
    errors = _errors(graphs, K, "uniform", (5, 15, 50), kernel=WeisfeilerLehmanKernel(n_iter=2))
    assert np.all(np.diff(errors) <= 1e-9 * np.linalg.norm(K))
    assert errors[-1] < 1e-8 * np.linalg.norm(K)


def test_precomputed_and_callable_kernels(rng):
    X = rng.normal(size=(50, 3))
    K = rbf_kernel(X, gamma=0.3)
    pre = KernelNystroem("precomputed", n_components=20, random_state=0).fit(K)
    F = pre.transform(K)
    cal = KernelNystroem(lambda A, B: rbf_kernel(A, B, gamma=0.3), n_components=20,
                         random_state=0).fit(X)
    np.testing.assert_allclose(F @ F.T, cal.transform(X) @ cal.transform(X).T, atol=1e-10)
    with pytest.raises(ValueError, match="square"):
        KernelNystroem("precomputed").fit(K[:, :10])


def test_pipelines_into_linear_estimators():
    mutag = load_mutag()
    graphs, y = mutag.graphs, mutag.target
    nystroem = KernelNystroem(WeisfeilerLehmanKernel(n_iter=3, normalize=True), n_components=60,
                              random_state=0)
    model = make_pipeline(nystroem, SVC(kernel="linear", C=10.0)).fit(graphs[::2], y[::2])
    assert model.score(graphs[1::2], y[1::2]) > 0.75
    logistic = make_pipeline(nystroem, LogisticRegression(C=10.0)).fit(graphs[::2], y[::2])
    assert logistic.score(graphs[1::2], y[1::2]) > 0.7     # majority class: 0.66
    labels = make_pipeline(nystroem, KMeans(n_clusters=2, random_state=0)).fit_predict(graphs)
    assert set(np.unique(labels)) == {0, 1}
    Z = make_pipeline(nystroem, PCA(n_components=2)).fit_transform(graphs)
    assert Z.shape == (len(graphs), 2) and np.all(np.isfinite(Z))
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict(graphs[:20]), model.predict(graphs[:20]))
