"""Support vector machines: the hinge-loss SVC and ε-SVR trained by SMO (compiled solver
``kernelkit._core._smo_solver``), and the squared-hinge SVM and squared ε-insensitive SVR
without intercept trained by dual coordinate descent (``kernelkit._core._dual_cd``), and the
linear SVM on dense or sparse features by liblinear's dual coordinate descent
(``kernelkit._core._linear_dual_cd``) or its trust-region Newton method on the primal."""

from kernelkit.svm._classes import SVC, SVR
from kernelkit.svm._dual_coordinate_descent import SquaredEpsilonSVR, SquaredHingeSVC
from kernelkit.svm._linear import LinearSVC

__all__ = ["SVC", "SVR", "LinearSVC", "SquaredEpsilonSVR", "SquaredHingeSVC"]
