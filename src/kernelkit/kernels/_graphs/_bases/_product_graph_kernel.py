"""Product-graph kernels: every pair of graphs compared on their product graph by a compiled,
threaded pair kernel of ``_core/_product_graph.pyx`` (walks, subtree patterns).

The kernel keeps the coded batch itself as its representation; each subclass names its pair
kernel by the core's code and gives the core's parameters.
"""

import numpy as np

from kernelkit._core import _product_graph
from kernelkit.kernels._base import fill_gram
from kernelkit.kernels._graphs._bases._graph_kernel import GraphKernel

__all__ = ["ProductGraphKernel", "batch_arrays", "max_degree"]


class ProductGraphKernel(GraphKernel):
    """Base of the kernels computed pair by pair on the product graph (compiled, threaded).

    Subclasses name their pair kernel in ``_core_kernel``, the core's code of it
    (``_product_graph.WALK``, ``GEOMETRIC``, ``RANDOM_WALK`` or ``SUBTREE``), and give its
    parameters for two batches in ``_core_params(A, B)`` (``B`` None: ``K(A, A)``), the dict of
    options the core takes; ``_check_core(n_failed)`` sees the number of pairs whose iterative
    solver did not converge.
    """

    _core_kernel = None

    def _represent(self, batch, fitting):
        degree = max_degree(batch.indptr)
        if fitting:
            self.max_degree_fit_ = degree
        self._check_degree(degree)
        return batch

    def _check_degree(self, degree):
        """Refuse, before any pair is computed, a batch of largest degree ``degree`` that the
        core cannot handle against the fitted graphs (largest degree ``max_degree_fit_``) or,
        with ``normalize``, against itself (its self-similarities are computed too). Nothing
        to refuse by default."""

    def _core_params(self, A, B):
        raise NotImplementedError

    def _check_core(self, n_failed):
        """Called with the number of pairs the core marked (non-converged solvers)."""

    def _gram(self, A, B=None):
        params = self._core_params(A, B)
        other = A if B is None else B
        n_threads = self._n_threads()
        n_failed = []

        def fill_rows(out, start, stop):
            n_failed.append(_product_graph.product_graph_gram(
                self._core_kernel, batch_arrays(A), batch_arrays(other), B is None, params, out,
                start, stop, n_threads=n_threads))

        K = fill_gram(fill_rows, A.n_samples, other.n_samples, B is None, self.verbose,
                      type(self).__name__)
        self._check_core(sum(n_failed))
        return self._finite(K)

    def _self_similarity(self, A):
        out = np.zeros(A.n_samples)
        self._check_core(_product_graph.product_graph_diagonal(
            self._core_kernel, batch_arrays(A), self._core_params(A, None), out,
            n_threads=self._n_threads()))
        return self._finite(out)

    def _finite(self, values):
        """Kernel values, or a ValueError when they overflow float64 (long walks, deep trees,
        large weights: the counts grow like degree^length)."""
        if not np.all(np.isfinite(values)):
            raise ValueError(
                f"{type(self).__name__} values overflow float64 for these graphs and "
                f"parameters {self._core_params_text()}; use a smaller walk length, depth or "
                "weight.")
        return values

    def _core_params_text(self):
        return ", ".join(f"{key}={value}" for key, value in self.get_params().items()
                         if key in ("n", "depth", "lambda_", "p_stop"))


def max_degree(indptr):
    """Largest degree of a CSR adjacency given by its row pointers (0 without nodes)."""
    return int((indptr[1:] - indptr[:-1]).max()) if len(indptr) > 1 else 0


def batch_arrays(batch):
    """The batch as the tuple the compiled product-graph cores take."""
    return (batch.node_ptr, batch.indptr, batch.indices, batch.node_labels, batch.edge_labels)
