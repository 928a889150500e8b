"""The gapped k-mer Gram matrices of gkmsvm-lite on a few small fixed DNA inputs, compared live
with ``GappedKmerKernel`` and written to ``tests/data/gkmsvm_lite_gram.json`` (which the tests
read, so they run without the peer).

    python -m kernelkit.bench.gkmsvm_lite_values [--write PATH]

gkmsvm-lite is not a dependency of kernelkit: without it this reports so and exits.
"""

import argparse
import importlib.util
import json
import sys

import numpy as np

# (kernelkit parameters, gkmsvm-lite kernel class, its keyword arguments, differs): "differs"
# names a definition gkmsvm-lite does not share with LS-GKM (the tests document how): its
# gapped k-mer kernel (-t 0) takes no d (it counts every m <= l - k), and its RBF is
# exp(-gamma (K(x,x) + K(y,y) - 2 K(x,y))) on the raw kernel; its center weighted kernel (-t 4)
# weights the positions inside each l-mer (flat over the middle M, halving every H beyond) of
# the gapped k-mer kernel, where LS-GKM weights each l-mer by its distance to the sequence's
# centre in the estimated l-mer kernel
CASES = [
    ({"l": 5, "k": 3, "d": 2, "kernel_type": "gkm"}, "DirectGkmKernel", {}, None),
    ({"l": 6, "k": 4, "d": 2, "kernel_type": "gkm"}, "DirectGkmKernel", {}, None),
    ({"l": 6, "k": 3, "d": 2, "kernel_type": "gkm"}, "DirectGkmKernel", {}, "gkm ignores d"),
    ({"l": 6, "k": 3, "d": 3, "kernel_type": "estimated_truncated"}, "EstTruncGkmKernel",
     {"d": 3}, None),
    ({"l": 6, "k": 3, "d": 2, "kernel_type": "estimated_full"}, "EstTruncGkmKernel",
     {"d": 2, "truncate": False}, None),
    ({"l": 6, "k": 3, "d": 3, "kernel_type": "rbf", "gamma": 0.5}, "RbfGkmKernel",
     {"d": 3, "gamma": 0.5}, "rbf on the raw kernel"),
    ({"l": 6, "k": 3, "d": 3, "kernel_type": "center_weighted", "center_weight_max": 6,
      "center_weight_half_life": 2.0}, "CenterWeightedGkmKernel", {"M": 6, "H": 2.0},
     "center weights inside the l-mer"),
]


def _sequences():
    rng = np.random.default_rng(2024)
    return ["".join(rng.choice(list("ACGT"), 24)) for _ in range(6)]


def gkmsvm_lite_grams():
    """``[(case dict, Gram)]`` from gkmsvm-lite (normalised, reverse complements on)."""
    from gkmsvm import kernels, one_hot_encode
    from gkmsvm.gram import compute_gram

    X = _sequences()
    onehot = np.stack([one_hot_encode(x) for x in X]).astype(np.float64)
    out = []
    for params, name, extra, differs in CASES:
        kernel = getattr(kernels, name)(params["l"], params["k"], normalize=True,
                                        include_rc=True, **extra)
        out.append(({"params": {**params, "reverse_complement": True, "normalize": True},
                     "X": X, "differs": differs}, compute_gram(kernel, onehot)))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", help="write the values to this JSON file")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("gkmsvm") is None:
        print("gkmsvm-lite is not installed: nothing to compare (pip install gkmsvm-lite)")
        return 0
    from importlib.metadata import version

    from kernelkit.kernels import GappedKmerKernel

    cases = []
    for case, K in gkmsvm_lite_grams():
        ours = GappedKmerKernel(**case["params"]).fit_transform(case["X"])
        print(f"{case['params']}: largest difference {np.abs(ours - K).max():.2e}"
              + ("  (a definition that differs, see the tests)" if case["differs"] else ""))
        cases.append({**case, "K": K.tolist()})
    if args.write:
        provenance = (f"gkmsvm-lite {version('gkmsvm-lite')}: gkmsvm.gram.compute_gram("
                      "kernels.<kernel>(l, k, normalize=True, include_rc=True, **kwargs), "
                      "one_hot_encode of each sequence), by kernelkit.bench.gkmsvm_lite_values")
        with open(args.write, "w") as f:
            json.dump({"provenance": provenance, "cases": cases}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
