"""A symbol washed towards white by a sleeve's sheen is not named as the paler ink it passes for
(`symbol_sheen.washed_paler`): crafted symbol samples whose colours are worked out from the
inks and a wash of the lamp's light, and held-out phone photo 7055 (a red disc washed pale
orange, read as the yellow triangle on main)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.vision.colour import builtin_model
from companion.vision.symbol_samples import N_SYMBOL, CardRead
from companion.vision.symbol_sheen import also_ruled_out, washed_paler
from companion.vision.symbols import undimmed

from . import heldout

WEB = builtin_model("web")
# a phone's white: paper clipped in red and green, blue at 200 (a warm lamp)
WHITE_BGR = np.array([200.0, 254.0, 254.0])


def _card(cores_rgb: list[tuple[float, float, float]]) -> np.ndarray:
    """Symbol samples (1 x 6·N_SYMBOL x 3 BGR) of one card whose six symbols show the given
    paper-relative RGB in every sample (clipped at 255 as a sensor does)."""
    rgb = np.asarray(cores_rgb, np.float64)
    bgr = np.clip(rgb[:, ::-1] * WHITE_BGR, 0.0, 255.0)
    return np.repeat(bgr[:, None, :], N_SYMBOL, 1).reshape(1, -1, 3)


def _washed(ink: tuple[float, float, float], k: float, tint: tuple[float, float, float]
            ) -> tuple[float, float, float]:
    """`ink` (paper-relative RGB) with k of the lamp's light added, `tint` its true strength
    per channel against the white seen (1 where the white did not clip)."""
    return tuple(float(v) for v in np.asarray(ink) + k * np.asarray(tint))


RED, YELLOW, BLUE = (0.97, 0.29, 0.13), (1.0, 0.97, 0.08), (0.13, 0.45, 1.1)


def test_a_red_disc_washed_pale_orange_is_not_named_yellow() -> None:
    # the paper truly 1.4 times as bright in green as seen (clipped), and in red; blue not
    # clipped: the sheen adds 0.4 of the paper, a red disc then shows about (1, 0.85, 0.53)
    washed_red = _washed(RED, 0.4, (1.4, 1.4, 1.0))
    assert 0.8 < washed_red[1] < 0.9 and 0.5 < washed_red[2] < 0.56
    text = ["RYYYBY"]
    samples = _card([RED, YELLOW, YELLOW, washed_red, BLUE, YELLOW])
    out = washed_paler(text, samples, WHITE_BGR[None], WEB)
    assert out.tolist() == [[False, False, False, True, False, False]]
    # without a red printed on the card, the model's own red (0.87, 0.14, 0.13) washed alike
    # passes too
    model_red = tuple(float(v) for v in WEB.inks[WEB.letters.index("R")])
    samples = _card([YELLOW, YELLOW, YELLOW, _washed(model_red, 0.4, (1.4, 1.4, 1.0)), BLUE,
                     YELLOW])
    assert washed_paler(["YYYYBY"], samples, WHITE_BGR[None], WEB)[0, 3]


def test_a_yellow_washed_or_pale_stays_yellow() -> None:
    # the card's yellow washed by the same sheen, and a yellow blended half with paper (blur):
    # both keep green near red, which no red washed by a light no more than 1.5 times as
    # bright in green as in blue reaches
    text = ["RYYYBY"]
    blended = tuple(0.5 * v + 0.5 for v in YELLOW)
    samples = _card([RED, _washed(YELLOW, 0.4, (1.4, 1.4, 1.0)), blended, YELLOW, BLUE,
                     YELLOW])
    assert not washed_paler(text, samples, WHITE_BGR[None], WEB).any()
    # nor is a red, or a blue, ever taken for a washed ink: red is the darkest, and a blue
    # washed keeps its blue above its red
    assert not washed_paler(["RRRBBB"], _card([RED] * 3 + [BLUE] * 3), WHITE_BGR[None],
                            WEB).any()


def test_under_a_white_that_did_not_clip_pale_orange_is_no_washed_red() -> None:
    # where no channel of the white clipped the sheen adds the same to each channel: a red
    # disc washed is pale red (its green and blue rise together), and a yellow triangle blended
    # with paper keeps its green far above its blue: neither passes for the other
    white = np.array([[220.0, 230.0, 235.0]])
    pale_yellow = (1.0, 0.9, 0.53)   # the orange of the phone photo, seen under this lamp
    samples = _card([RED, YELLOW, YELLOW, pale_yellow, BLUE, YELLOW])
    samples = np.clip(samples / WHITE_BGR * white[0], 0.0, 255.0)
    assert not washed_paler(["RYYYBY"], samples, white, WEB).any()


def test_a_washed_symbol_is_reported_unread() -> None:
    read = CardRead("RYYYBY", (1.0,) * 6, 1.0, 1.0, True, (200.0, 254.0, 254.0))
    ruled = also_ruled_out([()], ["RYYYBY"], np.array([[False, False, False, True, False,
                                                         False]]))
    assert ruled == [("", "", "", "Y", "", "")]
    assert undimmed(replace(read, not_shape=ruled[0])).symbols == "RYY?BY"
    # merged with a letter a shape ruled out already
    assert also_ruled_out([("B", "", "", "", "", "")], ["BYYYBY"],
                          np.array([[True, False, False, True, False, False]])) == [
        ("B", "", "", "Y", "", "")]


def test_held_out_phone_photo_7055_reads_no_washed_red_as_yellow() -> None:
    """Held-out phone photo 7055: a sleeve's sheen washes the red disc of the card at (-2, 0)
    (truth RYYRBY, drawn by the generator) pale orange; main read the card whole as RYYYBY."""
    scene = heldout.heldout_scene(7055, variant=heldout.VARIANTS["phone-photo"])
    truth = {t.cell: t.symbols for t in scene.truth}
    assert truth[(-2, 0)] == "RYYRBY"
    score, obs = heldout.scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    wrong = {"RYYYBY"[k:] + "RYYYBY"[:k] for k in range(6)}
    assert not [c for c in obs.cards if c.symbols in wrong and not c.occluded]
    # the other cards the sheen spares are still read (12 of 20 whole cards before)
    assert score.correct >= 11, score
