"""The referee's judgement of a stable observation (issue 4 "Referee"; RULES.md H2, H3)."""

import dataclasses

import pytest

from companion.referee.align import Alignment
from companion.referee.proposal import propose
from companion.referee.simtable import observe
from companion.rules.hexel import GAME, HexelOptions, orient
from companion.rules.hexel.game import Hedge, LayLine, Place, Shuffle
from companion.rules.hexel.layout import EdgeMismatch
from companion.vision.observation import (
    GREY_PRINT_NOTE,
    GREY_PRINT_SAY_HEXEL,
    NO_COLOUR_NOTE,
    NO_COLOUR_SAY,
    ink_doubt_note,
    no_disc_note,
    no_ring_note,
    unnamed_ink_note,
)

CAMERA = Alignment(2, (3, -1))


def playing(seed=5, seats=3):
    """A tracked game in its play phase, every seat hedged once."""
    state, _ = GAME.apply(GAME.initial_state(HexelOptions(seats=seats, stake=2)), Shuffle(seed))
    for s in range(seats):
        state, _ = GAME.apply(state, Hedge(s, 1))
    assert state.phase == "play"
    return state


def table(state, extra=(), camera=CAMERA, hand=None):
    cards = [(p.cell, p.oriented) for p in state.layout.placements] + list(extra)
    return observe(cards, camera, hand)


def a_legal_place(state):
    return next(a for a in GAME.legal_actions(state) if isinstance(a, Place))


@pytest.mark.parametrize("k", range(6))
def test_one_new_card_becomes_a_legal_place_in_game_coordinates(k):
    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))], Alignment(k, (k, -k)))
    p = propose(state, obs)
    assert p.kind == "move" and p.legal, p.message
    assert isinstance(p.action, Place)
    assert (p.action.seat, p.action.card, p.action.cell) == (move.seat, move.card, move.cell)
    assert orient(p.action.card, p.action.rotation) == orient(move.card, move.rotation)
    assert p.name in ("Hexba", "Hexel", "Hexla", "Hexven", "Hox'la!")


def wrong_edge(state):
    """A card from the hand to play, on a legal cell but turned so that an edge mismatches."""
    for move in GAME.legal_actions(state):
        if isinstance(move, Place):
            for k in range(6):
                try:
                    state.layout.check(move.card, move.cell, k)
                except EdgeMismatch:
                    return move, k
    raise AssertionError("no wrong rotation found")


def test_a_wrong_edge_is_shown_with_the_rules_message_and_not_legal():
    state = playing()
    move, k = wrong_edge(state)
    p = propose(state, table(state, [(move.cell, orient(move.card, k))]))
    assert p.kind == "move" and not p.legal
    assert p.error_code == "edge_mismatch"
    assert "does not match" in p.error and "not legal" in p.message
    # (the card and cell named once: the rules' own wording repeats them)
    assert p.message.count(move.card) == 1 and "its edges do not match: " in p.message, p.message
    assert " edge shows " in p.message.split("its edges do not match: ")[1], p.message


def test_no_change_is_idle_and_two_new_cards_are_a_problem():
    state = playing()
    assert propose(state, table(state)).kind == "idle"
    frontier = state.layout.frontier()
    p = propose(state, table(state, [(frontier[0], "RRRRRR"), (frontier[1], "BBBBBB")]))
    assert p.kind == "problem" and "2 new cards" in p.message and p.action is None


def test_a_moved_or_removed_card_is_a_problem():
    state = playing()
    cards = [(p.cell, p.oriented) for p in state.layout.placements]
    removed = observe([*cards[:-1], (state.layout.frontier()[0], cards[-1][1])], CAMERA)
    p = propose(state, removed)
    assert p.kind == "problem" and "moved or removed" in p.message


def test_symbols_of_no_deck_card_and_a_card_already_on_the_table_are_problems():
    state = playing()
    cell = state.layout.frontier()[0]
    chiral = next(c for c in state.options.cards
                  if all(orient(c, k) != c[::-1] for k in range(6)))
    p = propose(state, table(state, [(cell, chiral[::-1])]))
    assert p.kind == "problem" and "no card of the deck" in p.message
    on_table = state.layout.placements[0].card
    p = propose(state, table(state, [(cell, on_table)]))
    assert p.kind == "problem" and "already on the table" in p.message


def test_occluded_or_faint_cards_make_the_referee_wait():
    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))], hand=move.cell)
    assert propose(state, obs).kind == "wait"
    faint = dataclasses.replace(obs, cards=tuple(dataclasses.replace(c, occluded=False,
                                                 symbols="RRRRRR", confidence=0.2)
                                                 for c in obs.cards))
    p = propose(state, faint)
    assert p.kind == "wait" and "cannot be read" in p.message


def test_a_wait_on_an_over_exposed_table_says_to_lower_the_exposure():
    # the reader finds the cards' paper at the camera's clip in two colours
    # (`HexelObservation.over_exposed`): cards left unread there may be the exposure's doing,
    # and the wait says how to mend it; a clear table is judged all the same
    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))], hand=move.cell)
    covered = propose(state, obs)
    assert covered.kind == "wait" and "exposure_ev" not in covered.message
    hot = dataclasses.replace(obs, over_exposed=len(obs.cards))
    p = propose(state, hot)
    assert p.kind == "wait" and "covered" in p.message and "exposure_ev" in p.message
    faint = dataclasses.replace(hot, cards=tuple(dataclasses.replace(c, occluded=False,
                                                 symbols="RRRR?R", confidence=0.0)
                                                 for c in obs.cards))
    p = propose(state, faint)
    assert p.kind == "wait" and "cannot be read" in p.message and "exposure_ev" in p.message
    clear = table(state, [(move.cell, orient(move.card, move.rotation))])
    judged = propose(state, dataclasses.replace(clear, over_exposed=len(clear.cards)))
    assert judged.kind == "move" and judged == propose(state, clear)
    # a committed card the camera no longer finds (on such a table, lost to the clip as
    # often as under a hand): the wait says so too
    played, _ = GAME.apply(state, move)
    laid = table(played)
    gone = dataclasses.replace(laid, cards=laid.cards[1:])
    missing = propose(played, gone)
    assert missing.kind == "wait" and "No card seen" in missing.message
    assert "exposure_ev" not in missing.message
    hot_gone = propose(played, dataclasses.replace(gone, over_exposed=len(gone.cards)))
    assert hot_gone.kind == "wait" and "exposure_ev" in hot_gone.message
    assert hot_gone.cells == missing.cells


def test_a_card_during_the_stake_phase_is_refused():
    state, _ = GAME.apply(GAME.initial_state(HexelOptions(seats=2)), Shuffle(1))
    p = propose(state, table(state, [(state.layout.frontier()[0], "RRRRRR")]))
    assert p.kind == "problem" and "Stakes first" in p.message


@pytest.mark.parametrize("k", [0, 3, 5])
def test_the_opening_line_is_read_from_the_camera(k):
    ref, _ = GAME.apply(GAME.initial_state(HexelOptions(seats=2)), Shuffle(9))
    setup = GAME.initial_state(HexelOptions(seats=2))
    obs = table(ref, camera=Alignment(k, (4, 1)))
    p = propose(setup, obs)
    assert p.kind == "move" and p.legal, p.message
    assert isinstance(p.action, LayLine)
    state, _ = GAME.apply(setup, p.action)
    assert {(q.cell, q.oriented) for q in state.layout.placements} in (
        {(q.cell, q.oriented) for q in ref.layout.placements},
        # the same physical line read from its other end
        {((2 - q.cell[0], 0), orient(q.oriented, 3)) for q in ref.layout.placements},
    )
    two = observe([(c.cell, c.symbols) for c in obs.cards[:2]])
    assert propose(setup, two).kind == "wait"


def test_a_garbage_observation_is_a_problem_not_a_crash():
    state = playing()
    obs = observe([((0, 0), "XYZXYZ"), ((9, 9), "RRRRRR")])
    assert propose(state, obs).kind == "problem"


def test_the_dealt_opening_line_not_yet_on_the_table_is_awaited_not_a_problem():
    """H3: with `shuffle` the engine deals the opening line; until the dealer has laid it, an
    empty or part-laid table is the dealer's work in progress, not a card moved away."""
    state, _ = GAME.apply(GAME.initial_state(HexelOptions(seats=2)), Shuffle(4))
    line = [(p.cell, p.oriented) for p in state.layout.placements]
    for laid in range(3):
        p = propose(state, observe(line[:laid], CAMERA))
        assert p.kind == "wait" and "opening line" in p.message, p.message
        assert f"{laid} of 3 cards seen" in p.message
        assert set(p.cells) == {c for c, _ in line}
    assert propose(state, observe(line, CAMERA)).kind == "idle"
    # a card of the line laid wrong is still a problem
    turned = next(orient(line[2][1], k) for k in range(1, 6)
                  if orient(line[2][1], k) != line[2][1])
    assert propose(state, observe([*line[:2], (line[2][0], turned)], CAMERA)).kind == "problem"


def test_an_empty_table_once_seats_have_played_is_a_problem():
    state = playing()
    state, _ = GAME.apply(state, a_legal_place(state))
    assert state.turns == 1
    p = propose(state, observe([], CAMERA))
    assert p.kind == "problem" and "sees no cards" in p.message and "has 4" in p.message
    cards = [(q.cell, q.oriented) for q in state.layout.placements]
    # one card unseen, nothing else changed: most often a hand resting over it
    p = propose(state, observe(cards[:-1], CAMERA))
    assert p.kind == "wait" and "No card seen where the game has one" in p.message, p.message
    assert p.cells == (cards[-1][0],) and p.action is None


def test_a_card_gone_from_a_line_the_camera_saw_laid_is_not_a_line_to_lay():
    """A line the dealer laid for the camera (`LayLine`, untracked) was on the table: a card
    of it unseen is under a hand or moved, not a line still to lay."""
    ref, _ = GAME.apply(GAME.initial_state(HexelOptions(seats=2)), Shuffle(9))
    setup = GAME.initial_state(HexelOptions(seats=2))
    p = propose(setup, table(ref, camera=Alignment(0, (4, 1))))
    state, _ = GAME.apply(setup, p.action)
    assert not state.tracked and state.turns == 0
    line = [(q.cell, q.oriented) for q in state.layout.placements]
    p = propose(state, observe(line[:2], CAMERA))
    assert p.kind == "wait" and "No card seen where the game has one" in p.message, p.message
    assert "dealt" not in p.message
    p = propose(state, observe([], CAMERA))
    assert p.kind == "problem" and "sees no cards" in p.message, p.message


def test_a_print_whose_inks_the_camera_cannot_tell_apart_asks_for_its_colours():
    """The reader leaves letters unread on every card when the table's print shows one for two
    inks or two for one (`vision.inks.confused_letters`): the cards look covered, but no hand
    will clear them, so the referee says what will (and never takes it for a move)."""
    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))])
    for letters in ("Y", "RY"):
        blanked = dataclasses.replace(
            obs, notes=(ink_doubt_note(letters),), ink_doubt=letters,
            cards=tuple(dataclasses.replace(
                c, occluded=True, symbols="".join("?" if x in letters else x for x in c.symbols))
                for c in obs.cards))
        p = propose(state, blanked)
        assert p.kind == "problem" and p.action is None
        assert "calibrate colours" in p.message
        assert f"(letters in doubt: {', '.join(letters)})" in p.message
        assert propose(state, dataclasses.replace(blanked, ink_doubt="")).kind == "wait"
        # (web cards whose symbols of those letters each show their letter by their printed
        # shape read whole: the referee judges them, `vision.shape_ink.shape_kept`)
        whole = dataclasses.replace(obs, notes=(ink_doubt_note(letters),), ink_doubt=letters)
        p = propose(state, whole)
        assert p.kind == propose(state, obs).kind != "problem", p
        assert p.action == propose(state, obs).action is not None, p


def test_a_print_whose_ink_the_camera_cannot_name_asks_for_its_colours():
    """A pale print in dim light shows an ink no letter's colour fits: the reader leaves those
    symbols unread and the cards look covered (`HexelObservation.unnamed_ink`). No hand lifting
    will clear that, so the referee says what will, never "waiting for a clear view", and never
    takes the table for a move."""
    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))])
    blanked = dataclasses.replace(
        obs, notes=(unnamed_ink_note(len(obs.cards)),), unnamed_ink=len(obs.cards),
        cards=tuple(dataclasses.replace(c, occluded=True, symbols="?" + c.symbols[1:])
                    for c in obs.cards))
    p = propose(state, blanked)
    assert p.kind == "problem" and p.action is None, p
    assert "calibrate colours" in p.message and "cannot name" in p.message, p.message
    assert f"on {len(obs.cards)} card(s)" in p.message, p.message
    waiting = propose(state, dataclasses.replace(blanked, unnamed_ink=0))
    assert waiting.kind == "wait" and "calibrate" not in waiting.message, waiting.message


@pytest.mark.parametrize("flag, note, say", [
    ("no_ring", no_ring_note(3), "solid disc"), ("no_disc", no_disc_note(3), "grey ring's hole")])
def test_symbols_whose_colour_and_shape_disagree_ask_for_light(flag, note, say):
    """A pale print's blue discs in dim light read as the grey ring by colour, their shape a
    solid disc (`HexelObservation.no_ring`); or a grey ring tinted by the light reads as a blue
    disc, its hole showing (`HexelObservation.no_disc`): the reader leaves them unread, no hand
    lifting will clear that, and the referee says so rather than waiting for a clear view."""
    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))])
    blanked = dataclasses.replace(
        obs, notes=(note,), **{flag: 3},
        cards=tuple(dataclasses.replace(c, occluded=True, symbols="?" + c.symbols[1:])
                    for c in obs.cards))
    p = propose(state, blanked)
    assert p.kind == "problem" and p.action is None, p
    assert "3 symbol(s)" in p.message and say in p.message, p.message
    assert "calibrate colours" in p.message and "light" in p.message, p.message
    waiting = propose(state, dataclasses.replace(blanked, **{flag: 0}))
    assert waiting.kind == "wait" and say not in waiting.message, waiting.message


@pytest.mark.parametrize("flag, note, say, hints", [
    ("no_colour", NO_COLOUR_NOTE, NO_COLOUR_SAY, ("colour", "Set the camera")),
    ("grey_print", GREY_PRINT_NOTE, GREY_PRINT_SAY_HEXEL,
     ("black and white", "in colour", "--edition web")),
])
def test_a_picture_or_print_without_colour_says_what_will_help(flag, note, say, hints):
    """A greyscale photo, or a camera in a monochrome mode (`HexelObservation.no_colour`), and
    a black-and-white printer's cards (`HexelObservation.grey_print`) show no ink: the reader
    reports the cards unread, and the referee says what will help (a colour camera, a colour
    print), never "waiting for a clear view"."""
    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))])
    grey = dataclasses.replace(obs, notes=(note,), cards=tuple(
        dataclasses.replace(c, symbols="??????", occluded=True, confidence=0.0)
        for c in obs.cards), **{flag: True})
    p = propose(state, grey)
    assert p.kind == "problem" and p.message == say and p.action is None
    assert all(hint in p.message for hint in hints), p.message
    assert propose(state, dataclasses.replace(grey, **{flag: False})).kind == "wait"


def test_a_card_off_the_lattice_makes_the_referee_wait_with_what_to_do():
    """A card laid too far from its neighbours lies off the lattice (`HexelObservation.loose`):
    it has no cell, so the move cannot be judged. The referee waits and says to lay it against
    its neighbours, instead of judging the table without it (it may be the card just laid, or
    one of the layout's the lattice could not place surely)."""
    from companion.vision.observation import LooseCard

    state = playing()
    move = a_legal_place(state)
    obs = table(state, [(move.cell, orient(move.card, move.rotation))])
    assert propose(state, obs).kind == "move"
    apart = dataclasses.replace(obs, loose=(LooseCard("RRVBBB", 1.0, False, (900.0, 200.0)),))
    p = propose(state, apart)
    assert p.kind == "wait" and p.action is None
    assert "1 card(s) lie apart" in p.message and "against its neighbours" in p.message
    # and without the new card: still waiting, the layout's own cards unjudged
    before = dataclasses.replace(table(state), loose=apart.loose)
    assert propose(state, before).kind == "wait"
