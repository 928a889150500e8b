"""Label coding: node and edge labels of any hashable type as int32 codes.

Labels may be of any hashable type, and two labels are the same label when they are equal
(``1``, ``1.0`` and ``np.int64(1)`` are one label, as in a dict); every NaN (``float("nan")``,
``np.float32("nan")``, ...) is one label, although NaN is not equal to itself. They are coded as
int32 once: the codes learned at ``fit`` are reused at ``transform``, and labels unseen at
``fit`` get fresh codes (``>= n_known``), the same within one call, which therefore match
nothing in the fitted graphs.
"""

import numbers

import numpy as np

__all__ = ["LabelCoder"]


class LabelCoder:
    """Maps hashable labels to int32 codes: learned on the fitted graphs, extended per call.

    Parameters
    ----------
    codes : dict or None
        Known ``label -> code`` map (from ``fit``); ``None`` learns one.
    """

    def __init__(self, codes=None):
        self.learning = codes is None
        self.codes = {} if codes is None else codes
        self._fresh = {}

    def encode(self, labels, what):
        """int32 codes of ``labels`` (a list of hashables); ``what`` names them in errors."""
        try:
            distinct = dict.fromkeys(labels)  # first-occurrence order: codes are deterministic
        except TypeError:
            bad = next(label for label in labels if not _is_hashable(label))
            raise TypeError(f"{what} must be hashable, got {type(bad).__name__}.") from None
        if any(map(_is_nan, distinct)):  # a scan of the distinct labels only, usually few
            labels = [_NAN_LABEL if _is_nan(label) else label for label in labels]
            distinct = dict.fromkeys(labels)
        codes, fresh = self.codes, self._fresh
        for label in distinct:
            if label not in codes and label not in fresh:
                if self.learning:
                    codes[label] = len(codes)
                else:
                    fresh[label] = len(codes) + len(fresh)
        lookup = {**codes, **fresh} if fresh else codes
        return np.fromiter(map(lookup.__getitem__, labels), dtype=np.int32, count=len(labels))

    @property
    def all_codes(self):
        """``label -> code`` of every label coded so far: the known ones and the fresh ones."""
        return {**self.codes, **self._fresh} if self._fresh else self.codes


class _NaNLabel:
    """The label that stands for every NaN label. A dict finds a key by identity or equality,
    and NaN is not equal to itself: two NaN objects (``float("nan")`` and ``np.float64("nan")``,
    or two reads of one array) would be two labels. This one equals itself, also after
    unpickling (a fitted kernel's codes)."""

    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, _NaNLabel)

    def __hash__(self):
        return hash(_NaNLabel)

    def __repr__(self):
        return "nan"


_NAN_LABEL = _NaNLabel()


def _is_nan(label):
    """Whether ``label`` is a NaN number (a real or complex number not equal to itself)."""
    return isinstance(label, numbers.Number) and label != label


def _is_hashable(obj):
    try:
        hash(obj)
    except TypeError:
        return False
    return True
