"""Scenarios: Hex'el tables and Hexapod display cases built by legal play and rendered as
synthetic camera scenes. This module composes the rules engine (which layouts are legal) with
`synth` (how they look), so that tests, benchmarks and the demo all see tables a real game could
produce. Everything is deterministic by seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from .rules.hexapod import Card as HexapodCard
from .rules.hexapod import empty_case, legal_positions, place, score_case
from .rules.hexapod import load_deck as load_hexapod_deck
from .rules.hexel import EDITIONS, Layout, Placement, propose_line, standard_deck
from .synth.effects import Hand
from .synth.hexapod_scene import CaseCard, HexapodTruth, SceneCase, render_cases
from .synth.scene import SceneCard, SceneParams, SceneTruth, render_scene, sample_params


def hexel_layout(seed: int, n_cards: int = 20, edition: str = "holodex",
                 deck: tuple[str, ...] | None = None) -> list[SceneCard]:
    """`n_cards` cards laid by random legal play (RULES.md H2, H3): a valid opening line of
    three, then repeatedly a random legal (card, cell, rotation) from the rest of the shuffled
    deck, favouring placements that touch many cards as players do. Stops early if nothing
    fits (rare) or the deck runs out."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: choose from {', '.join(EDITIONS)}")
    rng = random.Random(seed)
    pile = list(deck or standard_deck(EDITIONS[edition].symbols))
    if n_cards > len(pile):
        raise ValueError(f"the deck has {len(pile)} cards, cannot lay {n_cards}")
    rng.shuffle(pile)
    layout = _opening(pile, rng) if n_cards >= 3 else Layout()
    while len(layout) < n_cards and pile:
        if not layout:
            layout = layout.with_placement(Placement(pile.pop(), (0, 0), rng.randrange(6)))
            continue
        options = list(layout.placements_for(pile))
        if not options:
            break
        # players like placements that match many edges: weight by count cubed (compact tables)
        card, cell, k, _ = rng.choices(options, weights=[c ** 3 for *_, c in options])[0]
        pile.remove(card)
        layout = layout.with_placement(Placement(card, cell, k))
    return [SceneCard(p.cell, p.card, p.rotation) for p in layout.placements]


def _opening(pile: list[str], rng: random.Random) -> Layout:
    """The H3 opening line from the top of `pile` (cards that do not fit go to the bottom)."""
    for _ in range(len(pile)):
        cards = (pile[-1], pile[-2], pile[-3])
        ks = propose_line(cards)
        if ks is not None:
            del pile[-3:]
            return Layout(tuple(Placement(c, (i, 0), k)
                                for i, (c, k) in enumerate(zip(cards, ks, strict=True))))
        pile.insert(0, pile.pop(-3))
    # no valid line at all: just lay three (never happens with the standard deck)
    cards = (pile.pop(), pile.pop(), pile.pop())
    return Layout(tuple(Placement(c, (i, 0), 0) for i, c in enumerate(cards)))


def hexel_scene(seed: int, band: str = "easy", n_cards: int = 20, edition: str = "holodex",
                params: SceneParams | None = None, frame: int = 0
                ) -> tuple[np.ndarray, SceneTruth]:
    """A rendered table of `n_cards` legally laid cards: (BGR image, ground truth). `frame` > 0
    renders the same still table again with fresh sensor noise (the next video frame)."""
    cards = hexel_layout(seed, n_cards, edition)
    return render_scene(cards, edition, params or sample_params(seed, band), frame=frame)


def hexel_frames(seed: int, band: str = "easy", n_frames: int = 24, n_cards: int = 12,
                 edition: str = "holodex") -> Iterator[tuple[np.ndarray, SceneTruth]]:
    """A short clip for the demo and the temporal filter: one camera, a hand reaching in from
    outside the view with a card, laying it, and withdrawing. The card is on the table from
    the middle frame on (layout of `n_cards - 1` before, `n_cards` after)."""
    after = hexel_layout(seed, n_cards, edition)
    before = after[:-1]
    params = sample_params(seed, band)
    if params.band == "topdown":
        params = SceneParams(seed=seed, band="topdown", width=params.width, height=params.height)
    from .synth.scene import HEXEL_FACE, lattice_point

    pitch = HEXEL_FACE.flat_to_flat_mm + params.gap_mm
    pts = np.array([lattice_point(c.cell, pitch) for c in after])
    area = ((*(pts.min(axis=0) - 60.0),), (*(pts.max(axis=0) + 60.0),))
    target = lattice_point(after[-1].cell, pitch)
    rng = np.random.default_rng([seed, 11])
    ang = rng.uniform(0, 2 * np.pi)
    far = target + 700.0 * np.array([np.cos(ang), np.sin(ang)])
    entry = target + 1200.0 * np.array([np.cos(ang), np.sin(ang)])
    half = n_frames // 2
    for i in range(n_frames):
        t = 1.0 - abs(i - half) / max(half, 1)  # 0 -> 1 (laying) -> 0
        palm = far + (target - far) * t
        hand = Hand(entry_mm=tuple(entry), palm_mm=tuple(palm))
        cards = after if i >= half else before
        yield render_scene(cards, edition, params, hands=(hand,), area_mm=area, frame=i)


# -- Hexapod -----------------------------------------------------------------------------------

HEXAPOD_DECK = Path(__file__).resolve().parent.parent / "models" / "hexapod-deck.json"


def hexapod_cases(seed: int, n_cards: int = 12, players: int = 2,
                  deck: tuple[HexapodCard, ...] | None = None) -> tuple[SceneCase, ...]:
    """Display cases (6 x 6) of `players` players, built by legal play (RULES.md P2): the
    players take turns drawing from one shuffled deck (so no card is in two cases) and each
    places the drawn card at a random legal position, favouring positions that raise the case's
    P4 score most and cover most cells, as players do; a card with no legal position goes
    under the pile. Stops at `n_cards` per case or when no card fits. Deterministic by seed."""
    cards = list(deck or load_hexapod_deck(HEXAPOD_DECK))
    if n_cards < 0 or players < 1 or n_cards * players > len(cards):
        raise ValueError(f"the deck has {len(cards)} cards: cannot lay {n_cards} in each of "
                         f"{players} cases")
    rng = random.Random(seed)
    rng.shuffle(cards)
    grids = [empty_case(6, 6) for _ in range(players)]
    laid: list[list[CaseCard]] = [[] for _ in range(players)]
    stuck = [False] * players
    while not all(stuck):
        for p in range(players):
            if stuck[p] or len(laid[p]) >= n_cards:
                stuck[p] = True
                continue
            for _ in range(len(cards)):
                card = cards.pop(0)
                options = legal_positions(grids[p], card)
                if options:
                    break
                cards.append(card)
            else:
                stuck[p] = True
                continue
            before = score_case(grids[p]).total
            weights = []
            for col, row in options:
                after = place(grids[p], card, col, row)
                covered = sum(grids[p][row + r][col + c] != "."
                              for r in range(card.height) for c in range(card.cols))
                weights.append((1.0 + max(score_case(after).total - before, 0)) ** 2
                               * (1.0 + covered))
            col, row = rng.choices(options, weights)[0]
            grids[p] = place(grids[p], card, col, row)
            laid[p].append(CaseCard(card.name, card.rows, col, row))
    return tuple(SceneCase(p + 1, tuple(laid[p])) for p in range(players))


def hexapod_scene(seed: int, band: str = "easy", n_cards: int | None = None,
                  players: int | None = None, params: SceneParams | None = None,
                  frame: int = 0) -> tuple[np.ndarray, HexapodTruth]:
    """A rendered table of `players` display cases (default: 2, sometimes 1) with `n_cards`
    legally placed cards each (default: 3-16 by seed): (BGR image, ground truth). `frame` > 0
    renders the same table again with fresh sensor noise (the next video frame)."""
    rng = random.Random(seed * 7919 + 5)
    players = players or (1 if rng.random() < 0.2 else 2)
    n_cards = rng.randint(3, 16) if n_cards is None else n_cards
    cases = hexapod_cases(seed, n_cards, players)
    # Framing stays fitted to the boards (the camera frames the two boards, 25-40 px cells at
    # 1280 x 720): the decision in companion.vision.hexapod, "Framing". A real lens from
    # 0.6-1.2 m (pass params, or `bench vision --game hexapod --lens [--size 2304x1296]`) gives
    # 20-35 px cells at 1280 x 720.
    return render_cases(cases, params or replace(sample_params(seed, band), hfov_deg=0.0),
                        frame=frame)
