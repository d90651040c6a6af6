"""NumPy reductions the symbol reader takes many thousands of times a frame, written without
NumPy's Python layer or with a short axis unrolled: `fast_mean` (the same sums divided the
same way), `max3`, `min3` and `sum3` over a trailing axis of three, `along1`, `depth_spread`,
`median_rows`, and letters as arrays of characters and back (`as_chars`, `as_strings`). Each
gives exactly the values NumPy's own call gives (tests/vision/test_symbols_speed*.py).
"""

from __future__ import annotations

import numpy as np


def median_rows(x: np.ndarray) -> np.ndarray:
    """`np.median(x, 1)` of a finite array of two dimensions or more (no NaN to look for), by
    one sort along axis 1: the middle value, or the mean of the middle two (their sum halved,
    in x's type, as NumPy's mean of two takes it), without `np.median`'s checks and
    partition."""
    s = np.sort(x, 1)
    h = x.shape[1] // 2
    return s[:, h] if x.shape[1] % 2 else (s[:, h - 1] + s[:, h]) / 2


def as_chars(text: list[str]) -> np.ndarray:
    """Strings of one length as an array of their characters (strings x length)."""
    chars = np.array(text)
    return chars.view("U1").reshape(len(text), chars.itemsize // 4)


def as_strings(chars: np.ndarray) -> list[str]:
    """Each row of an array of single characters (strings x length) as one string: the rows
    viewed as strings, not joined one by one in Python."""
    chars = np.ascontiguousarray(chars, "U1")
    return chars.view(f"U{chars.shape[1]}")[:, 0].tolist()


def fast_mean(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """`x.mean(axis)` of a float array as NumPy works it out (the same sum over the axis,
    divided by the count the same way), without the Python layer around it: `decide` takes a
    dozen small means per call."""
    if x.dtype.kind != "f":   # NumPy sums whole numbers and truth values as float64
        return x.mean(axis)
    total = np.add.reduce(x, axis)
    return np.true_divide(total, np.intp(x.shape[axis]), out=total, casting="unsafe")


def along1(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """`np.take_along_axis(a, idx, 1)` for a per-row index `idx` (rows x k) into axis 1 of `a`
    (rows x n, or rows x n x channels: each picked entry with its channels), by plain
    indexing (the same entries, without the Python layer around it)."""
    return a[np.arange(len(a))[:, None], idx]


def max3(x: np.ndarray) -> np.ndarray:
    """`x.max(-1)` over a last axis of 3 (RGB channels, an edge's places), unrolled: NumPy
    reduces a trailing axis of 3 one triple at a time, far slower than two whole-array
    maximums; a maximum is exact, so the values are the same."""
    return np.maximum(np.maximum(x[..., 0], x[..., 1]), x[..., 2])


def min3(x: np.ndarray) -> np.ndarray:
    """`x.min(-1)` over a last axis of 3, unrolled (see `max3`)."""
    return np.minimum(np.minimum(x[..., 0], x[..., 1]), x[..., 2])


def sum3(x: np.ndarray) -> np.ndarray:
    """`x.sum(-1)` of a float array over a last axis of 3, unrolled: NumPy adds so short an
    axis in order, first to last, so the sums are the same."""
    return x[..., 0] + x[..., 1] + x[..., 2]


def depth_spread(place: np.ndarray) -> np.ndarray:
    """`np.ptp(place, axis=1)`, the spread over the depths (axis 1) of border places, as the
    maximum less the minimum of the depths taken one by one (the same values, fewer passes)."""
    high, low = place[:, 0], place[:, 0]
    for k in range(1, place.shape[1]):
        high, low = np.maximum(high, place[:, k]), np.minimum(low, place[:, k])
    return high - low
