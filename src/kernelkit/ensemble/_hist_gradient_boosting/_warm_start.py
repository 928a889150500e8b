"""``warm_start``: a fit that adds rounds to the trees of the previous one, on the same data.

As scikit-learn, the continued fit draws the validation split (and the binning subsample, and
the scorer's training subsample) of the first fit: its random state replays the state the first
fit started from."""

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["check_continued_fit", "check_same_loss", "continues_fit", "fit_random_state"]


def continues_fit(estimator):
    """Whether this fit continues the previous one (``warm_start`` and a fitted model)."""
    return bool(estimator.warm_start) and hasattr(estimator, "n_iter_")


def fit_random_state(estimator, continued):
    """The ``RandomState`` of this fit: ``random_state``'s, its state noted for the fits that
    will continue this one; or, for a continued fit, one replaying the noted state."""
    if continued:
        random_state = np.random.RandomState(0)
        random_state.set_state(estimator._random_state_of_first_fit)
        return random_state
    random_state = check_random_state(estimator.random_state)
    estimator._random_state_of_first_fit = random_state.get_state()
    return random_state


def check_continued_fit(estimator, y, previous_classes):
    """Refuse to continue a fit with fewer rounds, or on other classes (before any attribute
    changes, so the fitted model stays as it was)."""
    if estimator.max_iter < estimator.n_iter_:
        raise ValueError(
            f"max_iter={estimator.max_iter} is below the {estimator.n_iter_} rounds already "
            f"fitted (n_iter_), and warm_start=True only adds rounds: set max_iter >= "
            f"{estimator.n_iter_}, or warm_start=False to fit from the start.")
    if previous_classes is not None and not np.array_equal(np.unique(y), previous_classes):
        raise ValueError(
            f"warm_start=True continues the previous fit, on the classes {previous_classes}, "
            f"but y has the classes {np.unique(y)}: fit on the same data, or set "
            "warm_start=False.")


def check_same_loss(loss, previous_loss):
    """Refuse to continue a fit with another loss."""
    if type(loss) is not type(previous_loss) or loss.n_columns != previous_loss.n_columns:
        raise ValueError(
            f"warm_start=True continues the previous fit, of loss {type(previous_loss).__name__}"
            f" with {previous_loss.n_columns} tree(s) per round, but this fit's loss is "
            f"{type(loss).__name__} with {loss.n_columns}: keep the loss, or set "
            "warm_start=False.")
