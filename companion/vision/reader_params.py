"""The Hex'el reader's tunables (`ReaderParams`): what a hexagon must show to count as a card, a
whole card or a partly seen one, and when a free lattice cell is searched for a card the paper
mask lost. Kept apart from the reader so that the stages it calls (`probe`, `far_cells`) share
them without importing the reader. Each threshold's comment records what it guards against.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import DetectParams


@dataclass(frozen=True)
class ReaderParams:
    """Tunables of the verdict stage."""

    detect: DetectParams = field(default_factory=DetectParams)
    max_offset: float = 0.3        # a card's centre within this many spacings of its cell
    max_turn_deg: float = 10.0     # and its orientation within this of the lattice's
    min_card_symbols: int = 4      # a hexagon is a card if it shows this many symbols
    min_card_paper: float = 0.6    # and this much bare paper
    min_card_border: float = 0.5   # and this much dark border band
    # an outline `_reseat` found again (see `cards.reseat_paper`) is trusted only when the card
    # shows itself whole: nearly all its paper and border band where the print puts them (a
    # hand's blurred edge over a card passes a lower threshold as paper too, and its hull
    # is then still a hexagon)
    min_reseat_paper: float = 0.88
    min_reseat_border: float = 0.88
    min_paper_ok: float = 0.65     # paper samples that must look like paper for a whole card
                                   # (each symbol also needs paper beside it: `symbols`)
    min_border_ok: float = 0.55    # border samples that must look dark (the band is a few px
                                   # wide: blur gives it a saturated table's hue beside it)
    min_smeared_paper: float = 0.88  # or, with all six symbols read and this much of its paper
                                     # (16 of 18 places), min_card_border of its band
                                     # (`probe.smeared_band`)
    min_partial_area: float = 0.2  # a partial blob covers at least this much of a card face
    max_partial_steps: int = 3     # and lies at most this many cells from a placed card
    min_partial_symbols: int = 2   # and shows at least this many readable symbols
    min_partial_border: float = 0.35  # and this much of its dark border band
    min_partial_paper: float = 0.35   # and this much bare paper
    min_partial_face: float = 0.9     # and both together at least this much (of 2): the part
                                      # of a card a hand leaves in view shows its band with the
                                      # paper inside it (0.94 or more in 791 such reads on
                                      # held-out hands, busy, fingers and harsh tables; 3 of
                                      # 886 covered cards on hard 0-699 show less); a bright
                                      # object read as a few symbols shows scraps of both (a
                                      # spoon's highlights on a saucer, 0.39 + 0.44) and would
                                      # hold the referee waiting for a clear view
    probe_paper: float = 0.5       # a free cell next to the cards is searched for a card whose
                                   # outline was lost (merged with the table) when the cell's
                                   # predicted pose shows this much paper and border, 4 symbols
                                   # (or nearly all its paper and band, 2 symbols: `searched`)
    probe_mask: float = 0.3        # (read only where this much of its paper is on the mask,
                                   # or the frame shows a card's contrast: `paper_in_border`)
    probe_mask_far: float = 0.85   # a free cell two steps out is read only where its paper is
                                   # nearly all on the mask: a card merged with a hand or cloth
                                   # whose neighbours are hidden (each probe costs a read)
    min_probe_ok: float = 0.85     # a probed card is whole when this much of its paper and of
                                   # its border band look right at the best pose, all six read
    min_probe_lit: float = 0.75    # (or this much of its band, the places missing all lit:
                                   # `band_lit`)


LOOSE_FIT_IOU = 0.95   # a card's outline matching its hexagon less than this may be pulled off
