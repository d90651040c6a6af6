"""What the reader reports about one frame: the contract between `vision` and the referee.

An observation lists every card the reader found, in *camera lattice* coordinates: axial cells on
the hex lattice fitted to the cards in the image, with E = the lattice direction nearest to
image-right, and each card's six symbols listed by that lattice's directions E, NE, NW, W, SW, SE
as they appear in the image. The lattice origin is arbitrary (the referee aligns the camera
lattice to the game's layout by a translation and a multiple of 60 degrees). A card the reader
cannot see whole (a hand over it, out of frame) is reported with `occluded=True` and its symbols
are not to be trusted: unreadable edges are written '?'. A card that lies off the lattice (laid
apart from the layout, or loose beside it) has no cell: it is listed apart (`loose`), its symbols
by its own edges, E the one facing nearest image-right, for the person at the table to see that it
was found and read; the referee takes no move from it, and waits while one lies apart.

For Hexapod the reader reports display cases instead (`HexapodObservation`): per case the player
its corner markers name, the visible code of every cell (rows top to bottom of the board as the
player sees it, the rules' codes `.`, `B`, `St`...) and per cell whether it was hidden (a hand, out
of frame): an occluded cell's code is `?` and is never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The reader's note for letters it left unread on every card because the table's print shows
# one of them for two inks, or two of them for one ink (`vision.inks.confused_letters`;
# `HexelObservation.ink_doubt` holds the letters): no hand over the cards will clear it; learning
# the print's colours (`companion calibrate colours`) or better light will.
INK_DOUBT = "ink in doubt"


def ink_doubt_note(letters: str, by_shape: bool = False) -> str:
    """The note for the letters `letters` in doubt (see INK_DOUBT); `by_shape`: on web cards,
    whose symbols of those letters are read where their printed shape shows the letter
    (`vision.shape_ink.shape_kept`)."""
    return (f"{INK_DOUBT}: {', '.join(letters)} (the print shows one letter for two inks, or "
            "two letters for one), left unread"
            + (" where the symbol's printed shape does not show the letter" if by_shape else "")
            + "; learn this print's colours with `companion calibrate colours`, or check the "
            "light")


# The reader's note for cards whose symbols of one ink it left unread because no letter of its
# colour model names that ink (`vision.unnamed_ink`; `HexelObservation.unnamed_ink` counts the
# cards): a pale print in dim light, say. No hand over the cards explains it, and none lifting
# will clear it; more light, or learning the print's colours, will.
UNNAMED_INK = "ink not named"


# The reader's note for cards left with symbols unread on a table whose ink it learned faint
# (`vision.inks.faint_inks`: a pale print in dim light keeps a fifth of an ink's chroma): it
# reads that ink where it shows plainly, and a card left with a '?' there is taken to be left so
# by the light, as an unnamed ink's are (`HexelObservation.unnamed_ink` counts them too): more
# light reads it, or shows the hand over it.
FAINT_INK = "ink faint"


def faint_ink_note(cards: int, letters: str) -> str:
    """The note for `cards` cards left with symbols unread under the faint ink of `letters`
    (see FAINT_INK)."""
    return (f"{FAINT_INK}: {letters} printed far paler than ours, read where its symbols show "
            f"it plainly; {cards} card(s) left with symbols unread; more light on the table, "
            "or this print's colours learned (`companion calibrate colours`), will read them")


def unnamed_ink_note(cards: int) -> str:
    """The note for `cards` cards showing an ink no letter names (see UNNAMED_INK)."""
    return (f"{UNNAMED_INK}: {cards} card(s) show symbols of one colour that no letter's ink "
            "fits (a pale print, or dim or coloured light), left unread; more light on the "
            "table, or this print's colours learned (`companion calibrate colours`), will read "
            "them")


# The reader's note for web symbols read by their printed shape (`vision.shape_ink`): symbols of
# an ink no letter's colour fits, symbols of a letter in ink doubt whose shape shows it, and
# symbols washed pale by a sheen or a glare whose shape and hue agree. The
# cards are read; the note says how, and that more light would read them by colour as well.
SHAPE_READ = "read by shape"


def shape_read_note(named: int, kept: int, washed: int = 0, holodex: bool = False) -> str:
    """The note for `named` symbols of an ink no letter names read by their shape, `kept`
    symbols of a letter in doubt kept by theirs and `washed` symbols read by their shape and
    hue together (washed pale, or their ink seen past their outline: `shape_confirmed`; see
    SHAPE_READ); `holodex`: on holodex cards, whose discs only their hue tells apart."""
    parts = ([f"{named} symbol(s) of an ink no letter's colour fits"] if named else []) + (
        [f"{kept} symbol(s) of a letter in ink doubt"] if kept else []) + (
        [f"{washed} symbol(s) washed pale by a sheen or a glare (or their ink seen past their "
         "outline)"] if washed else [])
    shapes = ("(V the ring, R and B discs told apart by their faint hue), which shows the "
              "symbol plainly" if holodex else
              "(B the diamond, Y the triangle, R the disc), which shows the letter plainly")
    return (f"{SHAPE_READ}: {' and '.join(parts)} read by their printed shape {shapes}; more "
            "light on the table (without a glare), or this print's colours learned (`companion "
            "calibrate colours`), reads them by colour too")


# The reader's note for holodex symbols whose colour read them as the grey ring while their
# picture shows a solid disc (`vision.ring_shape`): a pale blue disc in dim light, its colour lost.
# They are left unread; more light, or learning the print's colours, reads them.
NO_RING = "no ring"


def no_ring_note(symbols: int) -> str:
    """The note for `symbols` symbols read as the ring that show a disc (see NO_RING)."""
    return (f"{NO_RING}: {symbols} symbol(s) whose colour reads as the grey ring show a solid "
            "disc (a pale print's blue in dim light?), left unread; more light on the table, or "
            "this print's colours learned (`companion calibrate colours`), will read them")


# The reader's note for holodex symbols whose colour read them as a coloured disc while their
# picture shows the ring (`vision.ring_shape.disc_contradicted`): the grey ring tinted by a dim
# room's cast. They are left unread; more light, or learning the print's colours, reads them.
NO_DISC = "no disc"


def no_disc_note(symbols: int) -> str:
    """The note for `symbols` symbols read as a coloured disc that show the ring (NO_DISC)."""
    return (f"{NO_DISC}: {symbols} symbol(s) whose colour reads as a coloured disc show the "
            "grey ring's hole (the ring tinted by the light?), left unread; more light on the "
            "table, or this print's colours learned (`companion calibrate colours`), will read "
            "them")


# The reader's note for a picture without colour (`vision.colourless`): a greyscale photo or a
# camera in a monochrome mode. The cards' inks cannot be told, so nothing is read
# (`HexelObservation.no_colour`, `HexapodObservation.no_colour`); no hand and no light will
# change that, a colour picture will.
NO_COLOUR = "no colour"
NO_COLOUR_NOTE = (f"{NO_COLOUR}: the picture is grey all over (a greyscale photo, or a camera in "
                  "a monochrome mode), and the cards are told by their inks: nothing read; use "
                  "a colour picture")
# what `companion calibrate colours` says of such a photo (both games)
NO_COLOUR_LEARN = ("the photo has no colour (a greyscale photo, or a camera in a monochrome "
                   "mode): no ink can be learned from it; take a colour photo")
# and what the referee says then (both games)
NO_COLOUR_SAY = ("The camera gives a picture without colour (a greyscale photo, or a camera in a "
                 "monochrome mode): the cards' inks cannot be told, so nothing is read. Set the "
                 "camera to colour.")


# The readers' note for cards printed without colour (`vision.colourless`: `grey_symbols` for a
# Hex'el table, `grey_tiles` for a Hexapod case): the picture has colour, but the cards show
# none, a black-and-white printer's print. Both games' cards are told by their inks (a Hexapod
# blue tile printed grey is a dung beetle's black; a holodex red disc printed grey a blob beside
# the grey ring), so none is read (`HexelObservation.grey_print`,
# `HexapodObservation.grey_print`); no hand, light or calibration changes that, a colour print
# will.
GREY_PRINT = "no colour in the print"
GREY_PRINT_NOTE = (f"{GREY_PRINT}: the cards show no colour where the picture does (printed in "
                   "black and white?), and they are told by their inks: nothing read; print the "
                   "cards in colour")
# ... and its word, on a Hex'el table, for the holodex edition (the web edition's cards printed
# without colour are read by their shapes: `BY_SHAPE`)
GREY_PRINT_WEB = ("or print the web edition (`companion cards export --edition web`), whose "
                  "symbols differ in shape and read in black and white too")
# ... and its note where a web reader's table without colour shows the holodex edition's cards
# (rings, or discs only: `grey_shapes.holodex_print`), which no shape reads
HOLODEX_GREY_NOTE = ("these cards look like the holodex edition's (rings, or nothing but "
                     "discs): printed without colour its R and B discs cannot be told apart")
# The Hex'el reader's note for web cards read by their symbols' shapes alone
# (`vision.grey_shapes`): printed without colour, or seen by a camera without it. Read, with a
# symbol whose shape is not plain left unread (`HexelObservation.by_shape`).
BY_SHAPE = "read by shape alone"
BY_SHAPE_NOTE = (f"{BY_SHAPE}: the cards show no colour (printed in black and white, or a "
                 "camera without colour), so their symbols are read by their printed shapes "
                 "(R the disc, B the diamond, Y the triangle); a symbol whose shape is not "
                 "plain is left unread")
# and what the referee says then (both games)
GREY_PRINT_SAY = ("The cards show no colour: they look printed in black and white, and the "
                  "camera tells them by their inks, so nothing is read. Print the cards in "
                  "colour (`companion cards export`).")
# ... and on a Hex'el table, where the web edition's cards would be read by their shapes
GREY_PRINT_SAY_HEXEL = (f"{GREY_PRINT_SAY} Or print the web edition (`companion cards export "
                        "--edition web`): its symbols differ in shape, and read in black and "
                        "white too.")

# The Hexapod reader's note for a board whose white paper the camera clips in two of its three
# colours (`hexapod.OVER_EXPOSED_CHANNELS`), and the scoreboard's camera line from its notes.
OVER_EXPOSED = "over-exposed"
# ... and its note for a case located by three of its markers, which the camera line repeats
MARKER_UNSEEN = "not seen, case located by the other three"


def marker_unseen_note(player: int, marker: int) -> str:
    """The reader's note for the case of `player` whose marker `marker` it did not see."""
    return f"player {player}: marker {marker} {MARKER_UNSEEN}"


# ... what mends it, in the notes and the referee's words (`LOWER_EXPOSURE`), and on the
# scoreboard's camera line (`LOWER_EXPOSURE_LINE`)
LOWER_EXPOSURE = ("lower the exposure (`exposure_ev` in the config's [camera], e.g. -1) or move "
                  "the lamp")
LOWER_EXPOSURE_LINE = "lower exposure_ev (config [camera])"


def over_exposed_note(players: list[int]) -> str:
    """The reader's note for the cases of `players` whose paper the exposure clips."""
    which = (f"board of player {players[0]}" if len(players) == 1 else
             "boards of players " + ", ".join(str(p) for p in players[:-1]) +
             f" and {players[-1]}")
    return (f"{OVER_EXPOSED}: the white paper of the {which} lies at the "
            "camera's clip in two of its three colours, so the light's colour is lost (cells "
            f"may be left '?'): {LOWER_EXPOSURE}")


def over_exposed_cards_note(clipped: int, cards: int) -> str:
    """The Hex'el reader's note for a table where `clipped` of its `cards` whole cards show
    white paper at the camera's clip in two of its three colours (`symbol_lamp.over_exposed`)."""
    return (f"{OVER_EXPOSED}: the white paper of {clipped} of {cards} card(s) lies at the "
            "camera's clip in two of its three colours, so the light's colour is lost (symbols "
            f"may be left '?', cards unread): {LOWER_EXPOSURE}")


def cases_camera_setup(obs: HexapodObservation) -> str:
    """What the reader's notes say of how the camera sees the cases, shortly, for the
    scoreboard's camera line ('' when nothing is to be said)."""
    said = []
    for n in obs.notes:
        if n.startswith(OVER_EXPOSED):
            said.append(f"board paper over-exposed: {LOWER_EXPOSURE_LINE}")
        elif n.endswith(MARKER_UNSEEN):
            said.append(n.split(",")[0])
    return "; ".join(said)


@dataclass(frozen=True)
class SeenCard:
    """One card as read from the image."""

    cell: tuple[int, int]
    symbols: str
    confidence: float
    occluded: bool = False
    centre_px: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class LooseCard:
    """A card read whole or in part that lies off the lattice the other cards fit (`cells`
    are the lattice's, so it has none): its symbols listed by its own edges, E the edge facing
    nearest image-right, NE, NW, W, SW, SE on from it as they appear in the image."""

    symbols: str
    confidence: float
    occluded: bool
    centre_px: tuple[float, float]


@dataclass(frozen=True)
class HexelObservation:
    """Every Hex'el card read from one frame (or a stable run of frames)."""

    cards: tuple[SeenCard, ...] = ()
    calibrated: bool = False
    t: float = 0.0
    frame_seq: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)
    ink_doubt: str = ""   # letters left unread on every card for the print's inks (INK_DOUBT)
    loose: tuple[LooseCard, ...] = ()   # the cards off the lattice (never the referee's)
    # cards showing an ink no letter names (UNNAMED_INK), or left unread under a faint ink
    # (FAINT_INK)
    unnamed_ink: int = 0
    no_colour: bool = False   # a picture without colour: nothing read (NO_COLOUR)
    grey_print: bool = False   # cards printed without colour: nothing read (GREY_PRINT)
    # web cards without colour (a print or a picture) read by their shapes alone (BY_SHAPE)
    by_shape: bool = False
    no_ring: int = 0   # symbols read as the ring that show a disc, left unread (NO_RING)
    no_disc: int = 0   # symbols read as a coloured disc that show the ring, unread (NO_DISC)
    # whole cards whose paper the camera clips in two of three colours (`over_exposed_cards_note`)
    over_exposed: int = 0
    # the other edition, where the cards read clearly better with its colours than with the
    # edition read with: the cards on the table are that edition's (`edition.EditionWatch`)
    other_edition: str = ""

    def to_json(self) -> dict:
        """The `companion recognize --json` form."""
        return {
            "cards": [
                {"cell": list(c.cell), "symbols": c.symbols, "confidence": round(c.confidence, 4),
                 "occluded": c.occluded}
                for c in self.cards
            ],
            "loose": [
                {"symbols": c.symbols, "confidence": round(c.confidence, 4),
                 "occluded": c.occluded,
                 "centre_px": [round(c.centre_px[0], 1), round(c.centre_px[1], 1)]}
                for c in self.loose
            ],
            "calibrated": self.calibrated,
            "notes": list(self.notes),
        }


UNKNOWN = "?"


@dataclass(frozen=True)
class SeenCase:
    """One Hexapod display case as read from the image."""

    player: int
    grid: tuple[tuple[str, ...], ...]
    occluded: tuple[tuple[bool, ...], ...]
    confidence: float = 1.0
    corners_px: tuple[tuple[float, float], ...] = ()   # grid TL, TR, BR, BL in the image

    @property
    def complete(self) -> bool:
        """True when every cell was read (none occluded)."""
        return not any(any(row) for row in self.occluded)


@dataclass(frozen=True)
class HexapodObservation:
    """Every Hexapod display case read from one frame."""

    cases: tuple[SeenCase, ...] = ()
    t: float = 0.0
    frame_seq: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)
    no_colour: bool = False   # a picture without colour: nothing read (NO_COLOUR)
    grey_print: bool = False   # cards printed without colour: nothing read (GREY_PRINT)

    def case(self, player: int) -> SeenCase | None:
        """The case of `player`, if it was seen."""
        return next((c for c in self.cases if c.player == player), None)

    def to_json(self) -> dict:
        """The `companion recognize --game hexapod --json` form."""
        return {
            "cases": [
                {"player": c.player, "grid": [list(r) for r in c.grid],
                 "occluded": [list(r) for r in c.occluded],
                 "confidence": round(c.confidence, 4)}
                for c in self.cases
            ],
            "notes": list(self.notes),
        }
