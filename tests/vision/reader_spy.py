"""A name the Hex'el reader's stage modules share, replaced in every one that holds it (not a
test module). The reader is split by what each part owns (`reader`, `probe`, `far_cells`,
`passes`, `cell_poses`), and each imports the names it calls, so a test that spies on a call
(`StagedRead`, `together`) must replace it in each of them to see every call."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from companion.vision import cell_poses, far_cells, passes, probe, reader

READER_MODULES = (reader, probe, far_cells, passes, cell_poses)


@contextmanager
def replaced(name: str, make: Callable[[Any], Any]) -> Iterator[None]:
    """Within it, `name` is `make(real)` in every reader module that holds `real`."""
    held = [(m, getattr(m, name)) for m in READER_MODULES if hasattr(m, name)]
    assert held, name
    real = held[0][1]
    assert all(r is real for _, r in held), name
    new = make(real)
    for m, _ in held:
        setattr(m, name, new)
    try:
        yield
    finally:
        for m, r in held:
            setattr(m, name, r)
