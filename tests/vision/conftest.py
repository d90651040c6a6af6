"""Vision tests run OpenCV on one thread: the machine is shared and the timings stay honest. The
Hexapod faces and boards `companion cards export` writes (at 120 dpi), once per test session,
for the held-out pictures composed from them (`hexapod_heldout.py`)."""

import cv2
import pytest

cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    from companion.commands.cards import GAMES, export

    out = tmp_path_factory.mktemp("hexapod-export")
    export(GAMES["hexapod"], "standard", out, dpi=120)
    return out
