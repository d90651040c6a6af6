"""A picture without colour: a greyscale photo, or a camera set to a monochrome mode. Both
games' cards are told by their inks, and a grey picture of them reads wrong where it reads at
all (a Hexapod blue card's grey is a dung beetle's black; a holodex red disc is a grey blob
beside the grey ring), so neither reader reads one: it reports what it found unread, with a
note saying why (`observation.NO_COLOUR`), and the referee asks for a colour camera. A colour
camera never gives one, even of a grey table: sensor noise, demosaicing and the white balance
leave a little colour in every region of its picture, and the cards' inks far more. So a frame
is colourless where, on a grid of its pixels (about THUMB_PX across, so that it costs next to
nothing on every full read), all but ALLOWED_SHARE of them hold their three channels within
GREY_SPREAD grey levels of each other: a grey picture's JPEG keeps them so, while a colour
camera's noise alone takes many of its pixels further apart. A blank frame (a lens cap, a
camera looking at a wall: less than MIN_DETAIL of spread in its levels) is no grey picture of
a table, and is not called one.

A print without colour (a black-and-white printer's cards) in a colour picture is told as much,
per case or table, by what the reader measured of its cards. A Hexapod case is one of grey cards
(`grey_tiles`: printed grey, a blue tile is a dung beetle's black, and the case reads dung
beetles where no card shows any) when its canvas holds GREY_TILE_CELLS cells' worth or more of
dark neutral pixels (a tile's black or grey: DARK and DIM labels), at most GREY_TILE_INK of its
pixels other than light fill are as saturated as a kind's ink, it reads a dung beetle in some
cell and GREY_TILE_KINDS times as many as cells of other kinds (a phone's saturation boost
lifts a grey tile to a kind's hue now and then; a card of the deck holds one dung beetle at
most, beside five coloured cells); pixels an occluder's mask covers are not counted (a hand's
skin is saturated, a black sleeve dark). Measured on the canvases the reader labels: the hard
cases 0-699 (colour prints) holding two cells' worth of dark neutral have 0.05 of those pixels
inked at the least (an arm's dark sleeve the masks missed, reading no dung beetle), most
0.5-0.8, and pale office prints 0.43; cases of cards printed grey (held-out `mono`, under a
lamp, in a dim room, sleeved and through a phone) 0.00-0.16.

A Hex'el table is told so by its symbols' cores (`grey_symbols`, as `inks.symbol_cores` measures
them on the hexagons whose paper and border band say they are cards, whatever their symbols
read): GREY_SYMBOLS or more of them darker than their card's paper by GREY_SYMBOL_DARK, of which
at most GREY_SYMBOL_INK are coloured (chroma `inks.MIN_CHROMA` or more). A colour print's discs,
diamonds and triangles are coloured; only the holodex grey ring is not, and its core is its
hole, paper (blurred, a third of the symbols at most). Measured per frame: the hard tables 0-699
show 0.41 coloured at least, most 0.7-1; held-out `office-lowlight` (its blues grey in the dim
room) 0.63, a print paler still in that light 0.33; tables of cards printed grey (held-out
`mono`, `mono-lamp`, in a dim room, with a phone's lens) 0.00-0.02, under glossy sleeves (their
sheen tints a grey) mostly below 0.2, now and then up to 0.5 (left unflagged).

A camera that clips the paper in some channel (a warm lamp's red and green, a sleeve's sheen's
blue and green) makes every grey core tinted that way against its clipped white reference, the
same tint on every symbol: held-out `mono-harsh` 227's cores read red 1.45 times their blue,
and that print was taken for a colour one whose red came out pale (three cards read RRRRRR
whole; `mono-sleeves` 255, one). The cores are first taken back by the gain the dark cores
show (`unclipped`), where most cards' paper is clipped in a channel but not in all three and
the dark cores agree on that gain. Grey prints so clipped agree (`mono-harsh` 200-399, 45
tables: 97 % of their ratios or more within GAIN_SPREAD of the median); a colour print's inks
do not (hard 0-699, 159 tables: 83 % at most; held-out `office-lowlight` 36, a holodex table of
reds beside blues gone grey in a dim room, 74 %, and taken back it fell from 0.74 to 0.40
coloured). Measured on the tables whose paper is so clipped: hard 0-699 (259), held-out
`default`, `harsh`, `sleeves`, `phone-photo`, `lowlight`, `office-lowlight`, `lamp`,
`printer`, `deep-shadowed` (0-99): coloured as before, 0.62 at least; `mono-harsh` 200-399
0.00 (227 now told grey)."""

from __future__ import annotations

import cv2
import numpy as np

THUMB_PX = 160        # pixels across the grid looked at (about)
GREY_SPREAD = 2       # grey levels between a pixel's channels, at most, in a grey picture
ALLOWED_SHARE = 0.001  # of the grid's pixels, those allowed more
MIN_DETAIL = 8.0      # grey levels of standard deviation: a picture of something, not a blank
GREY_TILE_CELLS = 1.0  # cells' worth of dark neutral pixels on a Hexapod case, at least
GREY_TILE_INK = 0.25   # of its uncovered pixels but light fill, at most this share inked
GREY_TILE_KINDS = 4    # cells read as dung beetles, at least this many times those of other kinds
GREY_SYMBOL_DARK = 0.2  # a Hex'el symbol's core this much darker than its card's paper, at least
GREY_SYMBOLS = 12       # such cores on a table, at least (two cards' worth)
GREY_SYMBOL_INK = 0.2   # of them, at most this share coloured
CLIP_LEVEL = 250.0      # a card's paper this bright in a channel (0-255), or more: clipped
MAX_CLIP_GAIN = 2.0     # the paper taken as at most this many times brighter there
GAIN_SPREAD = 0.15      # a dark core's ratio this near the median's (a share of it)...
GAIN_AGREE = 0.9        # ... on this share of them, at least: one tint on every symbol


def colourless(frame: np.ndarray) -> bool:
    """Whether the BGR `frame` holds no colour (see the module docstring)."""
    h, w = frame.shape[:2]
    if w <= 0 or h <= 0:
        return False
    step = max(1, w // THUMB_PX)
    b, g, r = cv2.split(np.ascontiguousarray(frame[step // 2::step, step // 2::step]))
    top = cv2.max(cv2.max(b, g), r)
    spread = cv2.subtract(top, cv2.min(cv2.min(b, g), r))
    return (float(cv2.meanStdDev(top)[1][0, 0]) >= MIN_DETAIL
            and cv2.countNonZero(cv2.compare(spread, GREY_SPREAD, cv2.CMP_GT))
            <= ALLOWED_SHARE * spread.size)


def grey_tiles(labels: np.ndarray, sat: np.ndarray, covered: np.ndarray, px: int, margin: int,
               rows: int, cols: int, codes: list[str], ink_sat: float) -> bool:
    """Whether a Hexapod case's cards are printed without colour (see the module docstring):
    `labels` and `sat`, the case canvas's pixel labels (`hexapod_colour.label_pixels`) and
    saturation, `px` per cell, the grid `margin` px in from the canvas's edge, `rows` x `cols`
    cells; `covered`, a uint8 mask of the canvas's pixels an occluder covers (a hand's skin is
    saturated, a sleeve's black dark: neither is counted); `codes`, the code every cell
    reads; `ink_sat`, the saturation from which a pixel is a kind's ink."""
    from .hexapod_colour import DARK, DIM, LIGHT

    dung = codes.count("K")
    if not dung or GREY_TILE_KINDS * (len(codes) - dung - codes.count(".") -
                                      codes.count("?")) > dung:
        return False
    inner = (slice(margin, margin + rows * px), slice(margin, margin + cols * px))
    grid, clear = labels[inner], cv2.compare(covered[inner], 0, cv2.CMP_EQ)
    if cv2.countNonZero(cv2.inRange(grid, DARK, DIM) & clear) < GREY_TILE_CELLS * px * px:
        return False
    tile = cv2.compare(grid, LIGHT, cv2.CMP_NE) & clear
    inked = cv2.compare(np.ascontiguousarray(sat[inner], np.float32), ink_sat,
                        cv2.CMP_GE) & tile
    return cv2.countNonZero(inked) <= GREY_TILE_INK * cv2.countNonZero(tile)


def grey_symbols(cores: np.ndarray, whites: np.ndarray | None = None) -> bool:
    """Whether a Hex'el table's cards are printed without colour (see the module docstring):
    `cores`, the paper-normalised RGB of the symbols' cores on its cards (… x 3, paper 1);
    `whites`, the cards' white references (cards x 3 BGR, as `cores` were normalised by), taken
    for the channels the camera clips on the paper (`unclipped`)."""
    from .inks import MIN_CHROMA, chroma

    if whites is not None:
        cores = unclipped(cores, whites)
    cores = np.asarray(cores, np.float64).reshape(-1, 3)
    dark = cores[cores.mean(axis=1) <= 1.0 - GREY_SYMBOL_DARK]
    if len(dark) < GREY_SYMBOLS:
        return False
    return np.count_nonzero(chroma(dark)[0] >= MIN_CHROMA) <= GREY_SYMBOL_INK * len(dark)


def unclipped(cores: np.ndarray, whites: np.ndarray) -> np.ndarray:
    """The symbols' cores (cards x 6 x 3 paper-normalised RGB) of cards whose white references
    (`whites`, cards x 3 BGR) the camera clipped in some channel (CLIP_LEVEL or brighter, on
    most cards; not in all three): the paper is brighter there than the reference says, by a
    gain no frame shows, and each core's value in that channel was divided by too little. A
    grey ink reflects every channel alike, so its cores' ratio of that channel to the unclipped
    ones is the gain, the same on every symbol; a colour print's inks give ratios far apart.
    Each clipped channel is divided by the median ratio of the dark cores (GREY_SYMBOL_DARK) on
    the cards clipped there, taken between 1 and MAX_CLIP_GAIN, where GAIN_AGREE of those
    ratios lie within GAIN_SPREAD of it: a grey print's cores come out grey again, a colour
    print's are left as they are. Returns new cores."""
    rgb = np.asarray(whites, np.float64).reshape(-1, 3)[:, ::-1]
    cores = np.array(cores, np.float64).reshape(len(rgb), 6, 3)
    if not len(rgb):
        return cores
    clipped = rgb >= CLIP_LEVEL
    table = clipped.mean(axis=0) > 0.5
    if not table.any() or table.all():
        return cores
    flat = cores.reshape(-1, 3)
    base = flat[:, ~table].mean(axis=1)
    dark = (flat.mean(axis=1) <= 1.0 - GREY_SYMBOL_DARK) & (base > 0.0)
    for ch in np.flatnonzero(table):
        on = np.repeat(clipped[:, ch], 6) & dark
        if np.count_nonzero(on) < GREY_SYMBOLS:
            continue
        ratio = flat[on, ch] / base[on]
        median = float(np.median(ratio))
        if np.mean(np.abs(ratio / median - 1.0) <= GAIN_SPREAD) < GAIN_AGREE:
            continue      # (the inks' own ratios, far apart: a colour print)
        cores[clipped[:, ch], :, ch] /= float(np.clip(median, 1.0, MAX_CLIP_GAIN))
    return cores


__all__ = ["colourless", "grey_symbols", "grey_tiles", "unclipped"]
