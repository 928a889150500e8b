"""k-means on the handwritten digits: inertia, purity, and the time of the same Lloyd run in
kernelkit and scikit-learn."""

import time

import numpy as np


def main():
    from sklearn.datasets import load_digits

    from sklearn.cluster import KMeans as SklearnKMeans

    from kernelkit.cluster import KMeans

    digits = load_digits()
    X, y = digits.data.astype(np.float64), digits.target
    km = KMeans(n_clusters=10, n_init=4, random_state=0)
    t0 = time.perf_counter()
    km.fit(X)
    t_fit = time.perf_counter() - t0
    # purity: each cluster votes for its majority digit
    majority = sum(np.bincount(y[km.labels_ == c]).max() for c in range(10) if np.any(km.labels_ ==
    c))
    print(f"digits: {X.shape[0]} images of {X.shape[1]} pixels, 10 clusters, 4 restarts")
    print(f"  inertia {km.inertia_:.1f} after {km.n_iter_} iterations, fit in {t_fit * 1e3:.1f} ms")
    print(f"  purity {majority / len(y):.3f} (share of images in their cluster's majority digit)")

    # the same Lloyd run in kernelkit and scikit-learn, from the same centres; the best of three
    # runs, so that neither pays its first call's set-up (thread pools, imports)
    init = X[np.random.default_rng(0).choice(len(X), 10, replace=False)]
    timings = {}
    for name, model in [("kernelkit", KMeans(10, init=init, tol=0, algorithm="lloyd")),
                        ("scikit-learn", SklearnKMeans(10, init=init, n_init=1, tol=0,
                                                       algorithm="lloyd"))]:
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            inertia = model.fit(X).inertia_
            runs.append(time.perf_counter() - t0)
        timings[name] = (min(runs), inertia)
    (t_k, v_k), (t_s, v_s) = timings["kernelkit"], timings["scikit-learn"]
    print(f"  same start: kernelkit {t_k * 1e3:.1f} ms, scikit-learn {t_s * 1e3:.1f} ms, "
          f"inertia {v_k:.1f} vs {v_s:.1f}")


if __name__ == "__main__":
    main()
