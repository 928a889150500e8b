"""The scores early stopping watches: the negated loss, or a scikit-learn scorer, on the training
data (a subsample of at most ``SCORER_TRAIN_SAMPLES`` rows for a scorer) and on the held-out
data; and scikit-learn's rule to stop."""

from contextlib import contextmanager

import numpy as np
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.utils import resample

from kernelkit.ensemble._hist_gradient_boosting._predictor import concatenate_trees

__all__ = ["SCORER_TRAIN_SAMPLES", "EarlyStopping", "should_stop"]

# A scorer predicts from scratch, so it scores at most this many training rows (scikit-learn's).
SCORER_TRAIN_SAMPLES = 10_000


def should_stop(scores, n_iter_no_change, tol):
    """scikit-learn's rule: no score of the last ``n_iter_no_change`` beats the one before them by
    more than ``tol`` (scores are negated losses or scorer values: higher is better)."""
    reference_position = n_iter_no_change + 1
    if len(scores) < reference_position:
        return False
    reference_score = scores[-reference_position] + tol
    return not any(score > reference_score for score in scores[-reference_position + 1:])


@contextmanager
def _predicting_with(estimator, raw_predict):
    """The estimator's raw scores, for the scorer's predictions, come from ``raw_predict``."""
    estimator._raw_predict = raw_predict
    try:
        yield
    finally:
        del estimator._raw_predict


class EarlyStopping:
    """The training and held-out scores of one fit, appended to ``scores`` (the lists of the
    fit it continues, or empty ones): once before the first round of a new fit, then after every
    round.

    ``train`` is ``(X, target, sample_weight)`` of the rows the trees are fitted on, ``valid``
    the held-out ones or None (then the training scores decide), ``raw_valid`` the held-out raw
    scores of the trees so far (updated here). ``estimator.scoring`` is "loss" (the loss,
    weighted, negated), or a scorer's name, None or a callable
    (:func:`sklearn.metrics.check_scoring`), called as ``scorer(estimator, X, y[,
    sample_weight])`` on at most ``SCORER_TRAIN_SAMPLES`` training rows: a named scorer reads the
    raw scores the loop keeps, any other one predicts with the baseline and the trees so far.
    """

    def __init__(self, estimator, train, valid, raw_valid, scores, random_state, n_threads):
        self.estimator = estimator
        self.train, self.valid, self.raw_valid = train, valid, raw_valid
        self.train_scores, self.valid_scores = scores
        self.n_threads = n_threads
        self.by_loss = estimator.scoring == "loss"
        self.rows = slice(None)
        if self.by_loss:
            return
        self.scorer = check_scoring(estimator, estimator.scoring)
        self.reads_raw_scores = (isinstance(estimator.scoring, str)
                                 and estimator.scoring in get_scorer_names())
        X, target, sample_weight = train
        if X.shape[0] > SCORER_TRAIN_SAMPLES:
            self.rows = np.sort(resample(
                np.arange(X.shape[0]), n_samples=SCORER_TRAIN_SAMPLES, replace=False,
                random_state=random_state,
                stratify=target if estimator._is_classifier else None))
            self.train = (X[self.rows], target[self.rows],
                          None if sample_weight is None else sample_weight[self.rows])

    def record(self, raw, trees, n_new):
        """Scores of the model whose training raw scores are ``raw``, ``trees`` all its trees,
        the last ``n_new`` of them not yet scored; returns whether to stop, and the scores for
        the verbose line."""
        estimator = self.estimator
        if n_new and self.valid is not None:
            nodes, roots = concatenate_trees(trees[-n_new:])
            estimator._add_tree_values(self.valid[0], nodes, roots, 0, n_new, self.raw_valid,
                                       self.n_threads)
        raw_predict = None
        if not (self.by_loss or self.reads_raw_scores):
            raw_predict = _model(estimator, trees, self.n_threads)
        with np.errstate(over="ignore", invalid="ignore"):
            self.train_scores.append(self._score(self.train, raw[self.rows], raw_predict))
        name = "loss" if self.by_loss else "score"
        sign = -1 if self.by_loss else 1
        line = f", training {name} {sign * self.train_scores[-1]:.6g}"
        scores = self.train_scores
        if self.valid is not None:
            self.valid_scores.append(self._score(self.valid, self.raw_valid, raw_predict))
            line += f", validation {name} {sign * self.valid_scores[-1]:.6g}"
            scores = self.valid_scores
        return should_stop(scores, estimator.n_iter_no_change, estimator.tol), line

    def _score(self, data, raw, raw_predict):
        X, target, sample_weight = data
        estimator = self.estimator
        if self.by_loss:
            return -estimator._loss(target, raw, sample_weight, self.n_threads)
        y = estimator.classes_[target.astype(np.intp)] if estimator._is_classifier else target
        weights = {} if sample_weight is None else {"sample_weight": sample_weight}
        with _predicting_with(estimator, raw_predict or (lambda X: raw)):
            return float(self.scorer(estimator, X, y, **weights))


def _model(estimator, trees, n_threads):
    """``_raw_predict`` of the baseline and ``trees``."""
    def raw_predict(X):
        return estimator._raw_scores(estimator._validate_predict_input(X), trees, n_threads)
    return raw_predict
