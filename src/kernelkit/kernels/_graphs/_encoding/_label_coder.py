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
        """int32 codes of ``labels`` (a list of hashables, or a 1-d array, coded as its
        ``tolist()``); ``what`` names them in errors."""
        if isinstance(labels, np.ndarray):
            if labels.dtype.kind in _SORTABLE_KINDS:
                return self._encode_sortable(labels)
            labels = labels.tolist()
        try:
            distinct = dict.fromkeys(labels)  # first-occurrence order: codes are deterministic
        except TypeError:
            bad = next(label for label in labels if not _is_hashable(label))
            raise TypeError(f"{what} must be hashable, got {type(bad).__name__}.") from None
        if any(map(_is_nan, distinct)):  # a scan of the distinct labels only, usually few
            labels = [_NAN_LABEL if _is_nan(label) else label for label in labels]
            distinct = dict.fromkeys(labels)
        lookup = self._code(distinct)
        return np.fromiter(map(lookup.__getitem__, labels), dtype=np.int32, count=len(labels))

    def _encode_sortable(self, values):
        """:meth:`encode` of a 1-d array of numbers or strings, by sorting instead of hashing:
        the same distinct values (NaNs one value, ``-0.0`` the same as ``0.0``) met in the same
        order, so the same codes."""
        first, inverse = _first_occurrences(values)
        distinct = values[first].tolist()
        if values.dtype.kind == "f":
            distinct = [_NAN_LABEL if _is_nan(label) else label for label in distinct]
        lookup = self._code(distinct)
        codes = np.fromiter(map(lookup.__getitem__, distinct), dtype=np.int32,
                            count=len(distinct))
        return codes[inverse]

    def _code(self, distinct):
        """Give the labels of ``distinct`` (in order, without repeats) that have no code the
        next ones; the map of every label to its code."""
        codes, fresh = self.codes, self._fresh
        for label in distinct:
            if label not in codes and label not in fresh:
                if self.learning:
                    codes[label] = len(codes)
                else:
                    fresh[label] = len(codes) + len(fresh)
        return {**codes, **fresh} if fresh else codes

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


# dtypes whose values numpy sorts and compares as their ``tolist()`` values compare: booleans,
# integers, floats, strings and bytes
_SORTABLE_KINDS = frozenset("biufUS")


def _first_occurrences(values):
    """The index of the first occurrence of each distinct value of the 1-d ``values``, in order
    of occurrence, and the position in that order of each value's; NaNs are one value.

    A stable sort puts equal values together, each run in order of occurrence. Integers of a
    range smaller than their number are looked up in a table over that range instead (no sort:
    about twice as fast on the usual small batches).
    """
    if values.dtype.kind in "iu" and len(values):
        low, high = values.min(), values.max()
        if int(high) - int(low) < len(values):
            # the offsets wrap in narrow dtypes; read unsigned, they are exact
            offsets = (values - low).view(f"u{values.dtype.itemsize}")
            return _first_occurrences_in_range(offsets, int(high) - int(low) + 1)
    order = np.argsort(_sort_keys(values), kind="stable")
    ordered = values[order]
    starts = np.ones(len(values), dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    if values.dtype.kind == "f":  # NaNs sort last, and are not equal to themselves
        nan = np.isnan(ordered)
        starts[1:] &= ~(nan[1:] & nan[:-1])
    first = order[starts]  # of each distinct value, in increasing order of value
    by_occurrence = np.argsort(first)
    position = np.empty(len(first), dtype=np.intp)
    position[by_occurrence] = np.arange(len(first))
    inverse = np.empty(len(values), dtype=np.intp)
    inverse[order] = position[np.cumsum(starts) - 1]
    return first[by_occurrence], inverse


def _first_occurrences_in_range(offsets, size):
    """:func:`_first_occurrences` of integers ``offsets`` in ``[0, size)``: the first index of
    each offset by a minimum over a table of ``size`` slots."""
    n = len(offsets)
    first = np.full(size, n, dtype=np.intp)
    np.minimum.at(first, offsets, np.arange(n))
    present = np.flatnonzero(first < n)  # the distinct offsets, increasing
    by_occurrence = np.argsort(first[present])
    position = np.empty(size, dtype=np.intp)
    position[present[by_occurrence]] = np.arange(len(present))
    return first[present[by_occurrence]], position[offsets]


def _sort_keys(values):
    """``values`` or, for integers of a small range, their offsets as uint16 (which numpy sorts
    stably by radix sort, several times faster): keys in the same order."""
    if values.dtype.kind in "iu" and values.dtype.itemsize > 2 and len(values):
        low, high = values.min(), values.max()
        if int(high) - int(low) < 1 << 16:
            return (values - low).astype(np.uint16)
    return values


def _is_nan(label):
    """Whether ``label`` is a NaN number (a real or complex number not equal to itself)."""
    return isinstance(label, numbers.Number) and label != label


def _is_hashable(obj):
    try:
        hash(obj)
    except TypeError:
        return False
    return True
