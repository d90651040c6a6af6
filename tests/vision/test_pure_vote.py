"""A coloured symbol washed pale all over — a sleeve's haze, a phone's flat tone curve — keeps every
one of its samples on its ink's line, only nearer the paper: its vote is big and pure though its
strongest sample falls short of the 0.55 a vote asks. Such a symbol is read at a paler peak
(`symbol_decide.PURE_PEAK`) when its vote is large (`PURE_VOTE`), no other ink nor unexplained
colour shares it, its whole middle is its ink and that middle is at least as strong as its rim,
on a card read whole (`allow`). A uniform tint lying over a symbol (a shadow of a warm object on
a blue diamond, hard table 316) leaves paper or unexplained colour in the middle and stays '?';
so does a pale reading far thinner than a strong twin on its card (`thinner_than_twins`).
Decide-level cards (kinds, ink fractions) check each condition; a crafted web card washed
towards white is read whole end to end."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import OTHER, builtin_model
from companion.vision.symbol_decide import PURE_PEAK, PURE_VOTE, decide
from companion.vision.symbol_samples import N_SYMBOL, Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture

R, B, Y = 0, 1, 2   # the web model's letters, in order
ONE = np.ones(1, bool)


def _card(pale: float = 0.5, strong: float = 0.95
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One web card 'RBYBYB' (kind, alpha, dark; 1 x 6 x 19): edge 0 a red disc washed to
    `pale` in every sample, the others solid symbols at `strong`."""
    kind = np.zeros((1, 6, N_SYMBOL), np.int64)
    alpha = np.full((1, 6, N_SYMBOL), strong, np.float32)
    for e, ch in enumerate("RBYBYB"):
        kind[0, e] = "RBY".index(ch)
    alpha[0, 0] = pale
    return kind, alpha, np.zeros_like(alpha)


def _decide(kind: np.ndarray, alpha: np.ndarray, dark: np.ndarray,
            allow: np.ndarray | None = ONE) -> str:
    return decide(kind, alpha, dark, builtin_model("web"), np.zeros((1, 6), np.float32), None,
                  allow)[0][0]


def test_a_disc_washed_pale_all_over_is_read():
    assert _decide(*_card(0.5)) == "RBYBYB"


def test_it_was_short_of_the_vote_peak():
    # the same disc a little paler than PURE_PEAK is left unread: the rule, not the vote, read it
    assert _decide(*_card(PURE_PEAK - 0.02)) == "?BYBYB"


def test_not_on_a_card_not_read_whole():
    assert _decide(*_card(0.5), allow=np.zeros(1, bool)) == "?BYBYB"


@pytest.mark.parametrize("rest,read", [(0.22, True), (0.19, False)])
def test_the_vote_must_be_large(rest, read):
    # one sample at PURE_PEAK + 0.01, the other 18 at `rest`: a vote of 18 * rest + 0.46 either
    # side of PURE_VOTE
    kind, alpha, dark = _card(rest)
    alpha[0, 0, 0] = PURE_PEAK + 0.01
    assert (float(alpha[0, 0].sum()) >= PURE_VOTE) is read
    assert _decide(kind, alpha, dark)[0] == ("R" if read else "?")


@pytest.mark.parametrize("where", [[1, 2], [0]])
def test_unexplained_colour_in_its_middle_is_not_read(where):
    # a uniform tint over a symbol (hard table 316): paper or unexplained colour in the middle
    kind, alpha, dark = _card(0.5)
    kind[0, 0, where] = OTHER
    alpha[0, 0, where] = 0.0
    assert _decide(kind, alpha, dark)[0] == "?"


def test_another_ink_sharing_it_is_not_read():
    kind, alpha, dark = _card(0.5)
    kind[0, 0, 15:17] = Y
    assert _decide(kind, alpha, dark)[0] == "?"


def test_a_middle_paler_than_its_rim_is_not_read():
    kind, alpha, dark = _card(0.5)
    alpha[0, 0, :7] = 0.46
    alpha[0, 0, 7:] = 0.52
    assert _decide(kind, alpha, dark)[0] == "?"


def test_far_thinner_than_a_strong_twin_is_not_read():
    kind, alpha, dark = _card(0.5)
    kind[0, 1] = R                           # a strong red disc beside it
    assert _decide(kind, alpha, dark)[:2] == "?R"


WIDTH = 48.0


def _washed(symbols: str, wash: float) -> np.ndarray:
    """A web card WIDTH px wide on felt, its printed ink washed `wash` of the way to white (a
    hazy sleeve over the card, not the table), defocused, saved as a JPEG."""
    centre, scale = np.array([100.0, 100.0]), WIDTH / HEXEL_FACE.flat_to_flat_mm
    img = texture("felt", (200, 200), np.random.default_rng(1)).astype(np.float32)
    draw_card(img, centre, symbols, "web", scale)
    ink = np.full_like(img, 255.0)
    draw_card(ink, centre, symbols, "web", scale)        # the card alone on white: its ink
    printed = (ink < 250.0).any(-1, keepdims=True)
    img = np.where(printed, img + wash * (255.0 - img), img)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    _, jpg = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8),
                          [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR)


def _read(img: np.ndarray) -> str:
    return read_cards(img, [Pose((100.0, 100.0), WIDTH / 2.0, 0.0)], TableView(),
                      builtin_model("web"))[0].symbols


@pytest.mark.parametrize("symbols", ["RBYBYB", "YYRBRB", "BRYRBY", "RRRBBB"])
def test_a_card_washed_half_way_to_white_is_read_whole(symbols):
    # (its red discs were '?' before: washed, they peak below the vote's 0.55)
    assert _read(_washed(symbols, 0.5)) == symbols
