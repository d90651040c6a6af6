"""A letter read for two of the table's inks is in doubt (`inks.confused_letters`): another
printer can turn our red so far towards yellow that our model reads it as yellow, or our blue
to a violet our model takes for the grey ring. One ink prints alike on every card, so the
symbol cores of one letter falling into two separate hues, both on the same cards, show it;
the reader then leaves that letter unread everywhere on the frame (and for a while after:
a frame with few cards in view seldom shows both inks) and says why, rather than call a wrong
Hox'la. A slow drift of hue across the table (two lamps) is not two inks."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.inks import SPLIT_DEG, _runs, chroma, confused_letters, symbol_cores
from companion.vision.observation import INK_DOUBT
from companion.vision.reader import DOUBT_READS, HexelReader, _blanked
from companion.vision.scoring import score_table
from companion.vision.symbol_samples import CardRead, Pose

from . import heldout
from .reader_spy import replaced

_U = np.array([1.0, -1.0, 0.0]) / math.sqrt(2.0)
_V = np.array([1.0, 1.0, -2.0]) / math.sqrt(6.0)


def _core(hue_deg: float, length: float, grey: float = 0.55) -> np.ndarray:
    """A paper-normalised RGB core of chroma `length` at `hue_deg` (as `inks.chroma` sees
    it) about the grey `grey`."""
    h = math.radians(hue_deg)
    return grey + length * (math.cos(h) * _U + math.sin(h) * _V)


def _table(cards: list[list[tuple[str, float, float] | tuple[str, float, float, float]]]
           ) -> tuple[np.ndarray, list[str]]:
    """Cores (cards x 6 x 3) and reads from per-card lists of six (letter, hue, chroma[, grey])."""
    cores = np.array([[_core(*v) for _, *v in card] for card in cards])
    return cores, ["".join(v[0] for v in card) for card in cards]


def test_the_helper_draws_the_hue_it_is_asked_for():
    length, hue = chroma(_core(58.0, 0.5))
    assert math.degrees(float(hue)) == pytest.approx(58.0, abs=1e-6)
    assert float(length) == pytest.approx(0.5, abs=1e-6)


WEB = builtin_model("web")
HOLODEX = builtin_model("holodex")


def test_red_printed_as_far_as_yellow_leaves_yellow_in_doubt():
    # red printed at 58° (our model's red 30°, yellow 76°: nearer yellow), yellow at 89°
    card = [("Y", 58, 0.54), ("Y", 89, 0.53), ("B", -117, 0.58), ("Y", 59, 0.55),
            ("Y", 88, 0.52), ("B", -118, 0.6)]
    cores, read = _table([card] * 4)
    assert confused_letters(WEB, cores, read) == "Y"


def test_a_slow_drift_of_hue_across_the_table_is_one_ink():
    # yellow at 63-68° on the cards on one side of the table, 82-90° on the other (two lamps):
    # never both on one card
    warm = [("Y", 63 + k, 0.42) for k in range(3)] + [("R", 30 + k, 0.65) for k in range(3)]
    cool = [("Y", 84 + k, 0.48) for k in range(3)] + [("B", -90 + k, 0.28) for k in range(3)]
    cores, read = _table([warm] * 3 + [cool] * 3)
    assert confused_letters(WEB, cores, read) == ""


def test_one_ink_read_as_two_letters_puts_both_in_doubt():
    # red at 52-54°: the model's boundary between red and yellow cuts through it
    card = [("R", 52, 0.5), ("Y", 54, 0.5), ("R", 53, 0.5), ("Y", 53.5, 0.5),
            ("B", -110, 0.5), ("B", -111, 0.5)]
    cores, read = _table([card] * 3)
    assert confused_letters(WEB, cores, read) == "RY"


def test_inks_apart_by_more_than_the_split_are_not_in_doubt():
    gap = SPLIT_DEG + 2.0
    card = [("R", 40, 0.5), ("Y", 40 + gap, 0.5), ("R", 40, 0.5), ("Y", 40 + gap, 0.5),
            ("B", -110, 0.5), ("?", 0, 0.05)]
    cores, read = _table([card] * 3)
    assert confused_letters(WEB, cores, read) == ""


def test_a_violet_read_as_the_grey_ring_beside_the_ring_leaves_the_ring_in_doubt():
    card = [("V", -47, 0.27), ("V", 0, 0.01), ("R", 39, 0.48), ("V", -48, 0.28),
            ("V", 100, 0.02), ("V", 90, 0.01)]
    cores, read = _table([card] * 3)
    assert confused_letters(HOLODEX, cores, read) == "V"
    ring_only = [("V", 0, 0.01), ("V", 100, 0.02), ("R", 39, 0.48), ("V", -90, 0.04),
                 ("V", 100, 0.02), ("V", 90, 0.01)]
    cores, read = _table([ring_only] * 3)
    assert confused_letters(HOLODEX, cores, read) == ""


def test_a_violet_read_as_the_ring_on_cards_without_a_ring_leaves_the_ring_in_doubt():
    # held-out printer +-30 degrees, 9542: blues printed violet read as the ring on three
    # cards that hold no ring, the true rings on others; a grey ink has no hue for a lamp to
    # turn, so its second run need not share cards with the first
    violet = [("V", -51, 0.30), ("V", -50, 0.29), ("R", 42, 0.47), ("R", 41, 0.47),
              ("R", 42, 0.48), ("R", 42, 0.48)]
    rings = [("V", 80, 0.01), ("V", 100, 0.02), ("R", 42, 0.47), ("V", 90, 0.01),
             ("R", 41, 0.47), ("V", 70, 0.02)]
    cores, read = _table([violet] * 3 + [rings] * 3)
    assert confused_letters(HOLODEX, cores, read) == "V"
    # rings alone, their chroma spread as a table's (within 0.04): no doubt
    cores, read = _table([rings] * 6)
    assert confused_letters(HOLODEX, cores, read) == ""


def test_held_out_printer_30_violet_blues_are_not_read_as_the_ring():
    """Held-out `printer` inks turned 30 degrees, seed 9542: two cards read their violet blues
    as the ring before; the table's ring is now in doubt and no card is misread."""
    scene = heldout.heldout_scene(9542, variant=heldout.Variant(printer=30.0))
    score, obs = heldout.scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    assert any(n.startswith(INK_DOUBT) for n in obs.notes) and "V" in obs.ink_doubt


def test_one_odd_card_is_no_second_ink():
    # a single card whose yellow reads 20° off (a finger's shade over it): two cards needed
    plain = [("Y", 76, 0.5), ("Y", 77, 0.5), ("R", 30, 0.6), ("B", -110, 0.5),
             ("Y", 75, 0.5), ("R", 31, 0.6)]
    odd = [("Y", 96, 0.5), ("Y", 97, 0.5), ("R", 30, 0.6), ("B", -110, 0.5),
           ("Y", 75, 0.5), ("Y", 98, 0.5)]
    cores, read = _table([plain] * 4 + [odd])
    assert confused_letters(WEB, cores, read) == ""


def test_two_inks_on_one_card_put_their_letter_in_doubt():
    # an opening card: red printed at 52° (nearer our yellow, 76°) as dark as a red, beside
    # yellows at 78°: too few cores for two runs on two cards, but one card shows both inks
    cores, read = _table([[("Y", 52, 0.52, 0.36), ("Y", 53, 0.53, 0.37), ("Y", 78, 0.53, 0.6),
                          ("B", -112, 0.58, 0.5), ("Y", 79, 0.54, 0.59), ("B", -111, 0.6, 0.5)]])
    assert confused_letters(WEB, cores, read) == "Y"
    # the same two hues at one lightness: a yellow tinted on part of the card (a shade under
    # another lamp), no second ink
    cores, read = _table([[("Y", 52, 0.52, 0.55), ("Y", 53, 0.53, 0.52), ("Y", 78, 0.53, 0.6),
                          ("B", -112, 0.58, 0.5), ("Y", 79, 0.54, 0.59), ("B", -111, 0.6, 0.5)]])
    assert confused_letters(WEB, cores, read) == ""
    # one symbol under a fingertip or a shadow's edge: turned and darker, but weakened (0.25
    # of chroma beside 0.53); or a card with a symbol left unread: no evidence of two inks
    cores, read = _table([[("Y", 52, 0.25, 0.36), ("Y", 78, 0.52, 0.6), ("Y", 78, 0.53, 0.6),
                          ("B", -112, 0.58, 0.5), ("Y", 79, 0.54, 0.59), ("B", -111, 0.6, 0.5)]])
    assert confused_letters(WEB, cores, read) == ""
    cores, read = _table([[("Y", 52, 0.52, 0.36), ("Y", 53, 0.53, 0.37), ("Y", 78, 0.53, 0.6),
                          ("B", -112, 0.58, 0.5), ("Y", 79, 0.54, 0.59), ("?", 0, 0.05, 0.9)]])
    assert confused_letters(WEB, cores, read) == ""
    # a shade across the card dims its yellows without turning them: one ink
    cores, read = _table([[("Y", 70, 0.45, 0.36), ("Y", 72, 0.46, 0.37), ("Y", 78, 0.53, 0.6),
                          ("B", -112, 0.58, 0.5), ("Y", 79, 0.54, 0.59), ("B", -111, 0.6, 0.5)]])
    assert confused_letters(WEB, cores, read) == ""


def test_a_yellow_clipped_under_a_sheen_is_no_second_ink():
    # a sleeve's sheen over one triangle: lighter and 24° off the yellows beside it, as
    # two inks would be, but its red channel clipped (0.976 of a 255 white), so its true hue
    # lies anywhere from 102° towards red's 30°, through the others' 78°: one ink
    cores, read = _table([[("Y", 78, 0.5, 0.6), ("Y", 79, 0.5, 0.6), ("Y", 102, 0.5, 0.85),
                          ("B", -112, 0.58, 0.5), ("R", 30, 0.6, 0.5), ("B", -111, 0.6, 0.5)]])
    assert (cores[0, 2] * [255.0, 200.0, 200.0] >= 245.0).tolist() == [True, False, False]
    assert confused_letters(WEB, cores, read) == "Y"          # (no white: nothing clipped)
    assert confused_letters(WEB, cores, read, np.array([[200.0, 200.0, 255.0]])) == ""
    # the white not so bright: nothing clipped, two inks as before
    assert confused_letters(WEB, cores, read, np.array([[200.0, 200.0, 230.0]])) == "Y"
    # clipped in green, whose hue (150°) lies on the far side of 102° from the others: no
    # brighter green brings it nearer them
    white = np.array([[200.0, 220.0, 240.0]])
    assert (cores[0, 2] * white[0, ::-1] >= 245.0).tolist() == [False, True, False]
    assert confused_letters(WEB, cores, read, white) == "Y"


def test_a_red_printed_as_yellow_stays_in_doubt_beside_clipped_yellows():
    # a printer's red turned to 56° (read as yellow, 20° off our yellow's 76°) and darker,
    # beside the print's true yellows at 78°, clipped in red under a sleeve's sheen: clipped,
    # their hue might reach 56°, but the darker side is not the ink's own hue: two inks
    cores, read = _table([[("Y", 56, 0.5, 0.45), ("Y", 57, 0.5, 0.45), ("Y", 78, 0.5, 0.7),
                          ("B", -112, 0.58, 0.5), ("Y", 79, 0.5, 0.7), ("B", -111, 0.6, 0.5)]])
    white = np.array([[200.0, 200.0, 255.0]])
    assert (cores[0, [2, 4], 0] * 255.0 >= 245.0).all()
    assert not (cores[0, :2] * white[0, ::-1] >= 245.0).any()
    assert confused_letters(WEB, cores, read, white) == "Y"


def test_a_phone_photo_of_sleeved_cards_puts_no_ink_in_doubt():
    """Held-out phone photo 41 (`heldout` phone-photo: sleeves, curl, halftone, a phone's
    processing): a yellow triangle under a sleeve's sheen, its red channel clipped, read 20°
    off the card's other yellow and lighter; taken for two inks, it left every yellow on the
    table unread (18 whole cards of 20 read before this)."""
    scene = heldout.heldout_scene(41, variant=heldout.VARIANTS["phone-photo"])
    s, obs = heldout.scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert obs.ink_doubt == "", obs.notes
    assert s.correct >= s.full - 2, s


def test_a_violet_beside_the_rings_on_one_card_puts_the_ring_in_doubt():
    # a blue printed violet read as the ring: a dark disc of chroma 0.3, the rings' cores their
    # pale holes; a ring blurred grey beside sharp ones (as pale in chroma) is one ink
    cores, read = _table([[("V", -47, 0.31, 0.45), ("V", -90, 0.02, 0.97), ("R", 13, 0.56, 0.34),
                          ("V", -100, 0.01, 0.98), ("V", -80, 0.03, 0.97), ("B", -110, 0.5, 0.5)]])
    assert confused_letters(HOLODEX, cores, read) == "V"
    cores, read = _table([[("V", -47, 0.05, 0.62), ("V", -90, 0.02, 0.97), ("R", 13, 0.56, 0.34),
                          ("V", -100, 0.01, 0.98), ("V", -80, 0.03, 0.97), ("B", -110, 0.5, 0.5)]])
    assert confused_letters(HOLODEX, cores, read) == ""


def test_one_cards_two_yellows_with_the_hue_between_filled_on_the_table_are_one_ink():
    # held-out `phone-photo` 20027: the phone's tone mapping spreads the yellows over 64-95°,
    # the more orange the darker; one card shows 64° at 0.53 beside 85-87° at 0.77, as a red
    # printed towards yellow beside a yellow would (left in doubt where the table shows
    # nothing between), but the table's other cards fill every step between: one ink
    card = [("Y", 64, 0.56, 0.53), ("Y", 87, 0.45, 0.77), ("B", -110, 0.5, 0.5),
            ("R", 30, 0.6, 0.45), ("Y", 85, 0.45, 0.77), ("B", -110, 0.5, 0.5)]

    def other(hue: float, grey: float) -> list:
        return [("Y", hue, 0.6, grey), ("B", -112, 0.5, 0.5), ("R", 28, 0.6, 0.45),
                ("Y", hue + 2, 0.6, grey), ("B", -108, 0.5, 0.5), ("R", 32, 0.6, 0.45)]

    filled = [card, other(68, 0.58), other(73, 0.62), other(77, 0.66), other(81, 0.7)]
    cores, read = _table(filled)
    assert confused_letters(WEB, cores, read) == ""
    # the same card among cards whose yellows all lie by its paler side: nothing between
    cores, read = _table([card, other(86, 0.76), other(88, 0.78), other(90, 0.8)])
    assert confused_letters(WEB, cores, read) == "Y"
    # one card between is not enough (FILL_CARDS)
    cores, read = _table([card, other(74, 0.64), other(88, 0.78), other(90, 0.8)])
    assert confused_letters(WEB, cores, read) == "Y"


def test_rings_whose_paler_core_is_the_stronger_in_chroma_are_one_ink():
    # held-out `phone-photo` 20016, card RVBVBB: the phone's saturation boost tints one ring's
    # pale hole (chroma 0.16, lightness 0.91) while a smear darkens another's (0.01, 0.58), a
    # gap in chroma and lightness as wide as a violet's beside a ring; but a violet read as the
    # ring is the darker and the stronger in chroma at once: here the darker core is the grey
    # one, and the ring is one ink (the whole table's rings had been left unread for it)
    cores, read = _table([[("R", 13, 0.56, 0.34), ("V", -79, 0.162, 0.91), ("B", -110, 0.5, 0.5),
                          ("V", -32, 0.007, 0.58), ("B", -110, 0.5, 0.5), ("B", -110, 0.5, 0.5)]])
    assert confused_letters(HOLODEX, cores, read) == ""
    # the same two cores with their lightness swapped: the strong one dark, a violet
    cores, read = _table([[("R", 13, 0.56, 0.34), ("V", -79, 0.162, 0.58), ("B", -110, 0.5, 0.5),
                          ("V", -32, 0.007, 0.91), ("B", -110, 0.5, 0.5), ("B", -110, 0.5, 0.5)]])
    assert confused_letters(HOLODEX, cores, read) == "V"


@pytest.mark.parametrize("seed, cards, letter", [(7, 2, "Y"), (35, 2, "Y"), (7, 3, "Y"),
                                                 (110, 4, "V"), (72, 6, "V")])
def test_the_opening_cards_of_a_printer_far_off_our_inks_are_not_misread(seed, cards, letter):
    """The first cards of a game printed with hues turned by up to 30°: on the old reader one
    card each read red for yellow, or a blue printed violet for the grey ring (too few cards to
    show two runs of the letter on two cards); one card shows both of the letter's inks, and
    the letter is left unread."""
    scene = heldout.heldout_scene(seed, max_cards=cards,
                                  variant=heldout.Variant(printer=30.0))
    s, obs = heldout.scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert obs.ink_doubt == letter, obs.notes


@pytest.mark.parametrize("seed, in_doubt", [(7, True), (35, True), (36, False)])
def test_a_printer_far_off_our_inks_gets_no_card_misread(seed, in_doubt):
    """Held-out tables printed with hues turned by up to 30° (`heldout._printer`): on the old
    reader 13 (seed 7), 11 (35) cards were misread with red read as yellow, 4 (36) with a
    violet-blue read as the grey ring. On 36 the violet discs now read as grey blobs blurred
    flat beside rings whose holes are open, which no blur makes (`symbol_decide.flat_beside_open`):
    they are left unread on their cards, and no ring is read for them to put in doubt. Their
    violet is a colour no letter names, on 9 cards whose paper and band are all there: the
    reader says so (`vision.unnamed_ink`) and the referee asks for the print's colours rather
    than wait for a hand (it waited before)."""
    from companion.referee.proposal import unclear
    from companion.vision.observation import UNNAMED_INK

    scene = heldout.heldout_scene(seed, variant=heldout.Variant(printer=30.0))
    s, obs = heldout.scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    told = any(n.startswith(INK_DOUBT) for n in obs.notes)
    assert told == in_doubt == bool(obs.ink_doubt), obs.notes
    if not in_doubt:
        assert s.full_flagged >= 10 and s.correct == s.full - s.full_flagged, s
        assert obs.unnamed_ink >= 8 and any(n.startswith(UNNAMED_INK) for n in obs.notes)
        p = unclear(obs)
        assert p is not None and p.kind == "problem" and "calibrate colours" in p.message, p


def _only_cards(image: np.ndarray, centres: np.ndarray, keep: list[int]) -> np.ndarray:
    """`image` with every card but those at `keep` (indices into `centres`, the cards' centres
    in pixels) under a dark cloth."""
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    pitch = float(np.median(np.where(gaps > 0, gaps, np.inf).min(1)))
    cloth = np.zeros(image.shape[:2], np.uint8)
    for x, y in centres:
        cv2.circle(cloth, (int(x), int(y)), int(0.62 * pitch), 255, -1)
    for k in keep:
        cv2.circle(cloth, (int(centres[k][0]), int(centres[k][1])), int(0.58 * pitch), 0, -1)
    out = image.copy()
    out[cloth > 0] = (20, 20, 20)
    return out


def test_a_letter_in_doubt_stays_so_while_few_cards_are_in_view():
    """Three cards of the seed-7 print left in view (the rest under a cloth), each printed
    with red and blue only, show only one of yellow's two inks: alone they give no doubt (a
    fresh reader leaves their red, read as yellow by hue, unread only because it is darker than
    yellow prints: `symbol_crossings.INK_RIVAL_DEG`, and says nothing of the print). A reader that
    saw the whole table keeps yellow in doubt (`DOUBT_READS`) and asks for the print's colours."""
    scene = heldout.heldout_scene(7, variant=heldout.Variant(printer=30.0))
    whole = HexelReader(scene.edition, find_markers=False)
    seen = whole.read(scene.image).observation
    few = _only_cards(scene.image, np.array([c.centre_px for c in seen.cards]), [7, 15, 18])
    alone = HexelReader(scene.edition, find_markers=False).read(few).observation
    assert len(alone.cards) == 3 and not any(INK_DOUBT in n for n in alone.notes), alone
    assert alone.ink_doubt == "" and seen.ink_doubt == "Y"
    assert score_table(alone.cards, scene.truth).misreads == 0
    assert all("Y" not in c.symbols for c in alone.cards), alone.cards
    obs = whole.read(few).observation
    s = score_table(obs.cards, scene.truth)
    assert len(obs.cards) == 3 and s.misreads == 0, s
    assert any(n.startswith(INK_DOUBT) for n in obs.notes) and obs.ink_doubt == "Y"


def test_a_doubt_is_forgotten_after_its_reads():
    reader = HexelReader("web")
    assert reader._held_doubt("Y") == "Y"
    for _ in range(DOUBT_READS - 1):
        assert reader._held_doubt("") == "Y"
    assert reader._held_doubt("") == ""
    assert reader._held_doubt("R") == "R"


def test_runs_split_at_the_gap_and_join_across_the_circle():
    deg = np.radians
    hues = deg(np.array([-179.0, 178.0, 10.0, 21.0, 40.0]))
    runs = [sorted(r.tolist()) for r in _runs(hues, deg(12.0), 2.0 * math.pi)]
    assert sorted(runs) == [[0, 1], [2, 3], [4]]
    # an ink straddling +-180 degrees is one run, not two letters' worth
    card = [("B", 179, 0.5), ("B", -179, 0.5), ("R", 30, 0.6), ("B", 178, 0.5),
            ("B", -178, 0.5), ("R", 31, 0.6)]
    model = builtin_model("web")
    cores, read = _table([card] * 3)
    assert confused_letters(model, cores, read) == ""
    assert [len(r) for r in _runs(np.array([0.3, 0.1]), 0.5)] == [2]   # no period: one run


def test_blanking_a_letter_leaves_the_others():
    read = CardRead("RYBYRB", (0.9, 0.8, 0.7, 0.6, 0.5, 0.4), 0.95, 0.9, True, (200.0, 210, 220),
                    (False,) * 6)
    out = _blanked(read, "Y")
    assert out.symbols == "R?B?RB" and out.edge_confidence == (0.9, 0.0, 0.7, 0.0, 0.5, 0.4)
    assert (out.paper_ok, out.white_bgr, out.crossed) == (read.paper_ok, read.white_bgr,
                                                           read.crossed)
    assert _blanked(read, "V") is read


def test_cores_are_given_only_for_cards_all_in_the_frame():
    frame = np.full((200, 300, 3), 230, np.uint8)
    poses = [Pose((100.0, 100.0), 30.0, 0.0), Pose((295.0, 100.0), 30.0, 0.0),
             Pose((200.0, 100.0), 30.0, 0.0)]
    cores, inside = symbol_cores(frame, poses, np.full((3, 3), 230.0), TableView())
    assert inside.tolist() == [True, False, True] and cores.shape == (12, 3)
    assert np.allclose(cores, 1.0)


def test_a_card_found_by_probing_is_judged_too():
    """A three-card table of the seed-31 print: on the two plainly-card hexagons red reads '?',
    so their cores show no doubt, but the third, found by probing the lattice, was reported
    whole with its reds read as yellow. The probed cards' cores are judged as well."""
    scene = heldout.heldout_scene(31, max_cards=3, variant=heldout.Variant(printer=30.0))
    s, _ = heldout.scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s


def test_a_letter_filled_in_by_the_lamp_re_read_faces_the_ink_doubt():
    """A held-out table printed with hues turned 30° (a blue printed violet), the cards in
    glossy sleeves: one card's first read left a violet blue '?', and the re-read by the lamp
    its own band shows (`symbol_lamp`, `CardRead.unlamped`) filled it in as the grey ring V,
    a whole card misread, since the table-wide ink doubt judged only first reads. The final
    reads are judged too (`HexelReader._confused`), and no card is misread. (Which letters
    the re-read fills in rests on the last bit of the arithmetic, so on the CPU's own SIMD
    code paths: on one machine a V, put in doubt; on an AVX-512 one two R's, and the violet
    disc is left unread as no ring, `ring_shape`. The check is that every letter the re-read
    changed was judged.)"""
    judged: list[list[str]] = []

    def spying(real):
        def spy(model, cores, read, whites=None):
            judged.append(list(read))
            return real(model, cores, read, whites)
        return spy

    scene = heldout.heldout_scene(18, variant=heldout.Variant(printer=30.0, sleeves=True))
    with replaced("confused_letters", spying):
        res = HexelReader(scene.edition).read(scene.image)
    s = score_table(res.observation.cards, scene.truth)
    assert s.misreads == 0 and s.false_cards == 0, s
    # (the re-read this is about: it changed a card's letters)
    changed = [r for r in res.reads if r.unlamped is not None and r.by_colour != r.colour_symbols]
    assert changed
    # (judged in each card's own order, reported in the lattice's: the same up to a turn)
    seen = {text[k:] + text[:k] for call in judged for text in call for k in range(6)}
    seen |= {text[::-1] for text in seen}
    # each such card was judged as the re-read left it: every letter it reports, the filled
    # in ones among them (a later check may still leave one unread: `ring_shape`)
    for r in changed:
        assert any(all(c in ("?", t) for c, t in zip(r.colour_symbols, text, strict=True))
                   for text in seen), (r.unlamped, r.symbols)


def test_a_violet_beside_the_rings_on_a_card_with_a_symbol_unread_puts_the_ring_in_doubt():
    # an opening card of a blue printed violet: three dark discs of chroma 0.21 read as the
    # ring beside a ring's pale hole, another symbol left unread; a grey letter's two inks on
    # one card need no whole card (a fingertip or shadow weakens a coloured ink: not a grey's)
    cores, read = _table([[("V", -47, 0.21, 0.51), ("V", -47, 0.21, 0.54), ("V", -47, 0.21, 0.54),
                          ("R", 13, 0.41, 0.61), ("?", -90, 0.02, 0.87), ("V", -90, 0.04, 0.97)]])
    assert confused_letters(HOLODEX, cores, read) == "V"
    # a ring blurred grey (as pale in chroma) beside a sharp one, a symbol unread: one ink
    cores, read = _table([[("V", -47, 0.05, 0.62), ("V", -90, 0.02, 0.97), ("R", 13, 0.56, 0.34),
                          ("?", -100, 0.01, 0.98), ("V", -80, 0.03, 0.97), ("B", -110, 0.5, 0.5)]])
    assert confused_letters(HOLODEX, cores, read) == ""
