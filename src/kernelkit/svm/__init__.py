"""Support vector machines trained by SMO (compiled solver ``kernelkit._core._smo_solver``)."""

from kernelkit.svm._classes import SVC, SVR

__all__ = ["SVC", "SVR"]
