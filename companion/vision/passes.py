"""Searches made pass by pass. The reader's searches for cards (the probe about free cells, the
far cells, a ragged blob's pose search) each read many poses in a few rounds, and a round of
reads costs about as much for a few cards as for many. So each search is written as a generator
(`Passes`) that yields the staged reads (`symbols.StagedRead`) its next pass wants and returns
its result; `together` drives several such searches side by side, making the reads all of them
ask for next as one `symbols.read_together` pass. Each staged read's cards read exactly as they
would alone, so no search's result depends on which others ran beside it.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

from .symbol_samples import CardRead
from .symbols import StagedRead, read_together

_T = TypeVar("_T")
# A search made pass by pass: it yields the staged reads each of its passes makes, and returns
# its result; `together` makes the passes of several such searches as one pass each.
Passes = Generator[list[StagedRead], None, _T]


def together(*searches: Passes) -> list:
    """Each search's result (`Passes`), the searches made pass by pass side by side: the
    reads all of them ask for next made as one pass (`read_together`: each staged read's
    cards read as they would be alone, so no search's result depends on the others), until
    every one is done. A pass costs about as much again for a few cards as for many."""
    results: list = [None] * len(searches)
    asked: dict[int, list[StagedRead]] = {}
    for i, search in enumerate(searches):
        try:
            asked[i] = next(search)
        except StopIteration as done:
            results[i] = done.value
    while asked:
        read_together([s for i in sorted(asked) for s in asked[i]])
        for i in sorted(asked):
            try:
                asked[i] = searches[i].send(None)
            except StopIteration as done:
                results[i] = done.value
                del asked[i]
    return results


def reading(staged: StagedRead) -> Passes[list[CardRead]]:
    """`read_cards` of a staged read, pass by pass (`Passes`)."""
    while not staged.done:
        yield [staged]
    assert staged.reads is not None
    return staged.reads
