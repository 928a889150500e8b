"""Label keys: a fixed 64-bit number for every node label value.

Label codes (``LabelCoder``) number the labels in order of first appearance, so they depend on
which graphs were fitted and in what order. A kernel that hashes labels, or draws something per
label, must start from the label itself instead, or ``k(G, H)`` would change with the other
fitted graphs: the key is the first 8 bytes of the BLAKE2b digest of a canonical encoding of the
label, the same in every process and whatever other labels were seen.
"""

import hashlib
import numbers

import numpy as np

__all__ = ["label_key", "label_keys"]


def _canonical(label):
    """Bytes that equal labels share: labels equal as dictionary keys (``1``, ``1.0``,
    ``True``, ``np.int64(1)``) encode alike, so they get the key they share as one code."""
    if label is None:
        return b"N"
    if isinstance(label, (str, np.str_)):
        return b"S" + str(label).encode("utf-8", "surrogatepass")
    if isinstance(label, (bytes, bytearray, np.bytes_)):
        return b"B" + bytes(label)
    if isinstance(label, (numbers.Number, np.bool_)):
        return _canonical_number(label)
    if isinstance(label, tuple):
        return b"T" + b"".join(_framed(item) for item in label)
    if isinstance(label, frozenset):
        return b"F" + b"".join(sorted(_framed(item) for item in label))
    # other hashable types: by type and repr (equal objects of them should print alike)
    return b"R" + f"{type(label).__qualname__}:{label!r}".encode("utf-8", "surrogatepass")


def _canonical_number(label):
    if isinstance(label, numbers.Complex) and not isinstance(label, numbers.Real):
        value = complex(label)
        if value.imag != 0:
            return b"C" + _canonical_number(value.real) + _canonical_number(value.imag)
        label = value.real
    if isinstance(label, (numbers.Integral, np.bool_)):
        return b"I%d" % int(label)
    value = float(label)
    if value.is_integer():                    # 2.0 == 2: one key
        return b"I%d" % int(value)
    return b"R" + value.hex().encode()


def _framed(item):
    encoded = _canonical(item)
    return len(encoded).to_bytes(8, "little") + encoded


def label_key(label):
    """The 64-bit key of one label (a Python int)."""
    return int.from_bytes(hashlib.blake2b(_canonical(label), digest_size=8).digest(), "little")


def label_keys(codes):
    """Keys of the labels of a ``label -> code`` map, indexed by code.

    Parameters
    ----------
    codes : dict
        Labels to their codes ``0..len(codes) - 1``.

    Returns
    -------
    keys : ndarray of shape (len(codes),), dtype uint64
    """
    keys = np.zeros(len(codes), dtype=np.uint64)
    for label, code in codes.items():
        keys[code] = label_key(label)
    return keys
