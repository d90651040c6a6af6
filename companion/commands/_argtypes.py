"""Argument types for the command line's numbers (argparse's `type=`): each turns the text into
a number within the range the command can use, or stops the command before it starts with
argparse's usage error naming the option, the text and the range (exit code 2). Without them a
port of 99999 wrapped round to another port, a dpi of 0 failed inside OpenCV's resize, a frame
rate of 0 hung a benchmark, and a share of moves laid wrongly of 2 was taken."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from `low` to `high` (no upper bound where None)."""
    span = f"from {low} to {high}" if high is not None else f"of {low} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected a whole number {span}, got {text!r}")
        return value

    parse.__name__ = "whole number"   # (argparse names the type in its messages)
    return parse


def number(low: float, high: float | None = None, *, above: bool = False
           ) -> Callable[[str], float]:
    """A finite number from `low` (`above`: greater than `low`) to `high` (no upper bound where
    None)."""
    first = f"above {low:g}" if above else f"from {low:g}"
    span = f"{first} to {high:g}" if high is not None else (
        first if above else f"of {low:g} or more")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if (not math.isfinite(value) or value < low or (above and value == low)
                or (high is not None and value > high)):
            raise argparse.ArgumentTypeError(f"expected a number {span}, got {text!r}")
        return value

    parse.__name__ = "number"
    return parse


# a TCP port (0: any free port, which the command prints)
port = whole(0, 65535)
# a PNG's resolution: below 20 dpi a face's symbols are a few pixels; above 1200 one A4 sheet
# alone takes hundreds of megabytes
dpi = whole(20, 1200)
# a printed size in millimetres
millimetres = number(0.0, above=True)
# a time in seconds, 0 allowed
seconds = number(0.0)
# a share of something, 0 to 1
share = number(0.0, 1.0)
