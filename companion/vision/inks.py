"""The table's own inks, measured from the cards in view. Another printer (or paper, or a
camera's colour matrix) prints our red a little towards magenta or orange and our blue towards
violet or cyan: after the white reference that is a turn of the ink's hue about the grey axis,
which no white reference undoes. A turn of 15-20° leaves a human reading every card and the
built-in model none of that ink. So the symbol cores of the hexagons that are plainly cards
(their paper and border band nearly all there) are gathered, each core coloured beyond
MIN_CHROMA is given to the coloured ink whose hue is nearest, and an ink whose cores agree on a
hue (MIN_CORES of them at least, within MAX_SPREAD_DEG) that lies off the built-in one by more
than noise (MIN_TURN_DEG) yet well short of the way to the next coloured ink (MAX_SHARE of
their gap) is turned to that hue (`adapt_inks`). Some strength and darkness the colour fit
absorbs (ink fraction and shade), but a printer on plain paper lays so much less ink that its
red and blue come out with half to three quarters of our chroma, lighter: an ink whose cores
agree on a chroma well below ours is faded to them, its hue kept (`ink_fades`). Grey inks
are never turned or faded, no ink changes its letter, two inks turned towards each other keep
KEEP_GAP of their gap or neither is turned, and no turn may bring any inked core nearer
another ink than it was (or none is taken). Whether a frame is read with the table's inks is
the reader's choice (`HexelReader._table_inks`). A printer turned further than that can put
one ink where our model reads another: the letters whose cores show two inks (or two letters
one ink) are then in doubt (`confused_letters`), and the reader leaves them unread rather
than guess. An office print photographed in a dim room can keep so little of one ink that its
cores fall short of MIN_CHROMA on every card (a holodex blue disc shows a dark grey with a
fifth of our blue's chroma): that ink is learned from its faint cores (`faint_inks`), only
where the letter shows at full strength nowhere on the table, and only from symbols the first
read did not read as a coloured letter."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from ..faces import SYMBOLS
from .calibration import TableView
from .colour import NEUTRAL_SPREAD, ColourModel, builtin_model, normalise
from .symbol_samples import CLIP_NEAR, N_CORE, SYMBOL_PTS, Pose, pose_points, sample

MIN_CHROMA = 0.15       # a core this far from grey (normalised RGB, see `chroma`) is inked
MIN_CORES = 6           # cores one ink needs, at least one card's worth
MAX_SPREAD_DEG = 10.0   # their hues' median absolute deviation
MIN_TURN_DEG = 6.0      # a turn below this is noise: the ink stays as it is
FIRM_TURN_DEG = 12.0    # below this, a turn is taken only where some card reads a '?'
MAX_SHARE = 0.35        # of the hue gap to the nearest other coloured ink, the largest turn
# The other edition's cards can lie on the table too (printed for the other game, or the reader
# told the wrong edition): an ink of theirs that ours lacks (the web edition's yellow triangle
# on a holodex table) is no ink of ours turned. A turn towards such a foreign ink stops short of
# FOREIGN_SHARE of the way to it: a core nearer their ink than ours is theirs, not ours turned.
FOREIGN_SHARE = 0.5
KEEP_GAP = 0.5          # of their gap, what any two coloured inks keep between them, turned
# A printer on plain paper lays less ink than our colours ask for: its red and blue come out
# paler (less chroma, lighter), an office inkjet's blue at 0.6-0.75 of ours. Below 0.7 of the
# chroma our fit reaches (ink fraction and shade: paper mixed in and darkened) the cores read
# as no ink. An ink whose cores keep less than FADE_BELOW of its chroma, agreeing within
# MAX_FADE_SPREAD of it (median absolute deviation), is faded to them (`ink_fades`); only
# when FADE_SHARE of the cores given to that ink lie at its hue (within MAX_SPREAD_DEG).
FADE_BELOW = 0.8
MAX_FADE_SPREAD = 0.15
FADE_SHARE = 2.0 / 3.0
# A core's chroma from which its hue counts as a cue (below it, its hue is noise): a washed
# symbol's faint hue names its letter with its shape (`shape_ink.hue_named`), and a symbol
# read as a faded ink's letter whose core's hue lies nearer another coloured ink's is left
# unread (`faded_off_hue`: smeared in a dim room, a web table's red faded to 0.35 of ours,
# its yellow triangles too faint for their own ink read as that red, held-out
# `office-lowlight-motion` 30029, eight cards in full view read wrong; their cores lay at
# 61-84°, chroma 0.10-0.16, the yellow ink's 76°, its red discs' at 22-41°, the red ink 31°).
HUE_CHROMA = 0.08
# A core this near the paper in its ink's brightest channel stands at the clip (`at_clip`),
# which turns a washed ink's hue: a sleeve's sheen lifts a red disc's red to the clip first
# and its green and blue on past it, turning its hue towards yellow. Such a disc is read red
# by its shape (`shape_ink.hue_named`), and keeps its red read by a faded red
# (`faded_off_hue`; held-out `sleeves` 55: (1.00, 0.91, 0.77) of the paper, 66°, read red by
# the red faded to 0.8 of ours), while those smeared yellows stood at 0.81-0.89 in red.
CLIP_TURNED = 0.97
# One ink prints alike on one card, whatever the printer, and alike over the table but for a
# slow drift (two lamps of different colour over it: up to 15° of hue in the hard band, from
# one side to the other). So the cores of the plain cards' symbols read as one letter are cut
# into runs wherever their hues lie SPLIT_DEG apart (a grey letter's chroma SPLIT_CHROMA): two
# runs (each of MIN_SIDE cores on two cards at least) of one letter, both on MIN_BOTH cards,
# are two inks read as that letter: the printer's red turned so far towards yellow that our
# model reads it as yellow, a blue turned to violet read as the grey ring. (On 700 hard and 800
# held-out tables the widest such gap is 6.5° and 0.04; on 40 tables printed with hues turned
# by up to 30° the three that misread red as yellow show 23-34°, the one reading violet-blue as
# the ring 0.23.) Two letters sharing one run share one ink (the closest two inks of a hard table
# lie 19° apart). Such a letter is in doubt wherever it is read on that frame
# (`confused_letters`).
SPLIT_DEG = 12.0
SPLIT_CHROMA = 0.1
MIN_SIDE = 3
MIN_BOTH = 2
# The opening cards of a game are too few for those runs, yet one card can show both inks: a
# card is printed in one pass and lit by one lamp, so its symbols of one ink share one hue and
# one lightness but for a shade across it, which dims them without turning their hue much. Two
# of a letter's cores on one card ONE_CARD_DEG apart in hue (a grey letter's: ONE_CARD_CHROMA
# apart in chroma), the darker side's lightness (the mean of the channels) below ONE_CARD_LIGHT
# of the other's, are two inks: a red printed towards yellow is as dark as a red, far darker
# than the yellow beside it; a blue printed violet is a dark disc, the ring's core its pale
# hole. A coloured letter only on a card read whole, and only its cores with ONE_CARD_STRENGTH
# of the chroma of its strongest on the card at least: a fingertip, a shadow's edge or a glare
# spot over one symbol turns and darkens it too, but weakens its ink or leaves a symbol of the
# card unread (rendered hard tables 103 and 331 without markers: 0.68 on a card with four '?',
# 0.52; held-out `fingers` 221, a fingertip: 0.41 on a card with a '?'; two printed inks: 0.86
# and more). Tables printed with hues turned by up to 30°, cut to one to six cards: the red
# read as yellow lies 24-33° from the yellows on its card, at 0.52-0.65 of their lightness,
# the violet read as the ring 0.31 in chroma from the rings, at 0.46 of theirs; on 200
# rendered hard tables and 600 held-out ones (shadowed, harsh, lamp, hands, fingers, printer)
# a coloured letter's cores on one card lie at most 22° apart, those 12° apart or more at 0.68
# of the lightness at the least, and on 100 hard holodex tables the ring's at most 0.17 apart
# in chroma, at 0.93 of the lightness.
# A grey letter's two inks need no card read whole: a violet disc read as the ring is dark
# and strong in chroma beside the ring's pale hole, and a symbol left unread elsewhere on the
# card takes nothing from that (held-out tables printed 30° off, sleeved: 36 cut to 4 cards
# and 46 read the violet as the ring beside a card showing both inks that read a '?'; hard
# 0-699 and held-out fingers, hands, busy: unchanged). Its darker cores must then be the
# stronger in chroma too: a phone's saturation boost tints a ring's pale hole while a smear
# darkens another's, the pale core the strong one (held-out `phone-photo` 20016: 0.16 at 0.91
# of the paper beside 0.01 at 0.58, one ink; every ring of the table had been left unread).
ONE_CARD_DEG = 18.0
ONE_CARD_CHROMA = 0.15
ONE_CARD_LIGHT = 0.75
ONE_CARD_STRENGTH = 0.7
# A coloured letter's two sides on one card are one ink where the table's other cards fill
# the hue between them (FILL_CARDS of them, no step of FILL_SHARE of ONE_CARD_DEG left): a
# phone's tone mapping and saturation boost spread one ink's cores over 30° of hue, darker
# where more orange (held-out `phone-photo` 20027: its yellows at 64-95°, one card 64° at
# 0.49-0.57 beside 84-87° at 0.76-0.78, every step between filled by other cards'), where a
# second ink read as the letter leaves the hue between the two empty.
FILL_CARDS = 2
FILL_SHARE = 0.5
# A core whose channel (nearly) clipped (its mean at CLIP_NEAR or above: a sleeve's sheen or a
# glare over the symbol, a phone exposing bright) shows that channel too low by an unknown
# amount: its true colour lies further along that channel, its hue anywhere between the one it
# shows and that channel's own (`_clip_arc`). A card whose cores of a coloured letter would
# fall into one run of hue had their clipped channels shown brighter (`_bridged`) shows no
# two inks: on held-out phone photos a yellow under a sleeve's sheen, its red at 247-254,
# reads 20-27° off the yellows beside it (a blue clipped in blue alike), and lighter.
# Only where the darker side shows the ink's own hue: a printer's red turned towards yellow
# and read as yellow is the darker side, 16-23° off yellow (up to 30° of turn), while the
# printer's true yellows beside it clip in red under a sleeve's sheen as readily (held-out
# tables printed 30° off, sleeved: 23 read two cards with red as yellow without this), and a
# sheen's darker side, the symbols it misses, lies within 10° (held-out phone photos 0-99).
SHEEN_INK_DEG = 12.0
# A turn (`ink_turns`) may not bring an inked core nearer another ink than it was given (two inks
# printed towards each other: turning one would take the other's symbols), but for a core
# whose lightness says it is the taking ink's: nearer the median lightness of that ink's cores
# than of its first ink's by TAKEN_LIGHT of the paper at least (each ink MIN_CORES cores). A
# printer's red turned towards yellow stays as dark as a red; a pale yellow triangle whose hue
# noise put halfway between our red and yellow is as light as the yellows (held-out
# `office-lowlight` 43: at 53°, 0.61 of the paper, its yellows at 0.64-0.73, its reds 0.36-0.48;
# the yellows turned 13°, the blues 30°, or every yellow of the table left unread).
TAKEN_LIGHT = 0.08
_PRIMARY_HUE = (math.radians(30.0), math.radians(150.0), math.radians(-90.0))   # R, G, B
CORE_PTS = np.ascontiguousarray(SYMBOL_PTS[:, :N_CORE].reshape(-1, 2))   # card frame

# an orthonormal basis of the plane of chroma (normal to the grey axis), RGB order
_U = np.array([1.0, -1.0, 0.0]) / math.sqrt(2.0)
_V = np.array([1.0, 1.0, -2.0]) / math.sqrt(6.0)


def chroma(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(length, hue in radians) of each colour's chroma (… x 3, paper-normalised RGB): its
    part normal to the grey axis."""
    x = np.asarray(rgb, np.float64)
    u, v = x @ _U, x @ _V
    return np.hypot(u, v), np.arctan2(v, u)


def wrap_angle(a: np.ndarray | float) -> np.ndarray:
    """Angles folded into (-pi, pi]."""
    return np.angle(np.exp(1j * np.asarray(a, np.float64)))


def turn_ink(rgb: tuple[float, float, float] | np.ndarray, turn: float) -> np.ndarray:
    """The colour with its chroma turned by `turn` radians about the grey axis (lightness,
    as the mean of the channels, and chroma length kept, but for a channel that the turn
    takes below 0, clipped there)."""
    x = np.asarray(rgb, np.float64)
    grey = x.mean()
    length, hue = chroma(x)
    h = hue + turn
    c = length * (math.cos(h) * _U + math.sin(h) * _V)
    return np.clip(grey + c, 0.0, None)


def symbol_cores(bgr: np.ndarray, poses: list[Pose], whites: np.ndarray, view: TableView
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The mean paper-normalised RGB of every symbol's core (its N_CORE middle samples) on the
    cards at `poses`, each against its white reference (`whites`, cards x 3 BGR, as the
    cards' reads found it), leaving out cards not all in the frame (k x 3); and which cards
    are all in the frame (a bool per pose)."""
    if not poses:
        return np.zeros((0, 3)), np.zeros(0, bool)
    plane = pose_points(poses, CORE_PTS)
    vals, inside = sample(bgr, view.to_image(plane.reshape(-1, 2)).reshape(plane.shape))
    ok = inside.all(1)
    core = vals[ok].reshape(-1, 6, N_CORE, 3)
    return (normalise(core, np.asarray(whites, np.float32)[ok, None, None, :]).mean(2)
            .reshape(-1, 3), ok)


class _Given(NamedTuple):
    """The inked cores of a table (coloured beyond MIN_CHROMA), each given to the coloured ink
    of nearest hue."""

    col: np.ndarray       # the coloured inks, as indices into the model's letters
    ink_len: np.ndarray   # their chroma length and hue
    ink_hue: np.ndarray
    rgb: np.ndarray       # the inked cores (k x 3), their chroma length and hue
    length: np.ndarray
    hue: np.ndarray
    off: np.ndarray       # each one's hue less each coloured ink's (k x coloured inks)
    nearest: np.ndarray   # the coloured ink each one is given to (index into `col`)


def _given(model: ColourModel, cores: np.ndarray) -> _Given | None:
    """`cores` (n x 3, the mean paper-normalised RGB of symbol cores on whole cards) given to
    `model`'s coloured inks; None when it has none, or fewer than MIN_CORES cores, none inked."""
    cores = np.asarray(cores, np.float64).reshape(-1, 3)
    col = np.flatnonzero(~model.neutral)
    if len(col) == 0 or len(cores) < MIN_CORES:
        return None
    ink_len, ink_hue = chroma(model.inks.astype(np.float64)[col])
    length, hue = chroma(cores)
    inked = length >= MIN_CHROMA
    if not inked.any():
        return None
    off = wrap_angle(hue[inked, None] - ink_hue[None, :])
    return _Given(col, ink_len, ink_hue, cores[inked], length[inked], hue[inked], off,
                  np.abs(off).argmin(1))


def ink_turns(model: ColourModel, cores: np.ndarray) -> dict[str, float]:
    """Per coloured letter whose cores among `cores` (n x 3, the mean paper-normalised RGB of
    symbol cores on whole cards) show it turned (see the module docstring), the turn in
    radians; letters that stay as they are are left out."""
    given = _given(model, cores)
    if given is None:
        return {}
    col, ink_hue, hue, off, nearest = (given.col, given.ink_hue, given.hue, given.off,
                                       given.nearest)
    turns = {}
    foreign = foreign_hues(model)
    for k, letter_at in enumerate(col):
        limit = _turn_limit(ink_hue, k)
        mine = off[nearest == k, k]
        if len(mine) < MIN_CORES:
            continue
        turn = float(np.median(mine))
        spread = float(np.median(np.abs(mine - turn)))
        if (abs(turn) < math.radians(MIN_TURN_DEG) or abs(turn) > limit
                or spread > math.radians(MAX_SPREAD_DEG)):
            continue
        if _towards_foreign(foreign, ink_hue[k], turn):
            continue
        turns[model.letters[letter_at]] = turn
    # (two inks each turned towards the other could meet: then neither is turned; and a turn
    # under which any inked core lies nearer another ink than before is no turn of one ink:
    # two inks printed towards each other, one turned beyond reach, the other turned would
    # take the first one's symbols)
    turned = ink_hue + np.array([turns.get(model.letters[i], 0.0) for i in col])
    if _takes_cores(hue, turned, nearest, given.rgb.mean(1)):
        return {}
    for i in range(len(col)):
        for j in range(i + 1, len(col)):
            if (abs(wrap_angle(turned[i] - turned[j]))
                    < KEEP_GAP * abs(wrap_angle(ink_hue[i] - ink_hue[j]))):
                return {}
    return turns


def _turn_limit(ink_hue: np.ndarray, k: int) -> float:
    """The largest turn (radians) of the coloured ink `k` of `ink_hue`: MAX_SHARE of the hue
    gap to the nearest other coloured ink."""
    gaps = np.abs(wrap_angle(ink_hue[k] - np.delete(ink_hue, k)))
    return MAX_SHARE * (float(gaps.min()) if len(gaps) else math.pi)


def _towards_foreign(foreign: np.ndarray, ink_hue: float, turn: float) -> bool:
    """Whether turning an ink of hue `ink_hue` by `turn` goes FOREIGN_SHARE of the way or more
    to one of the `foreign` inks' hues (`foreign_hues`) lying on that side."""
    towards = wrap_angle(foreign - ink_hue)         # the way to each foreign ink, signed
    ahead = np.sign(towards) == np.sign(turn)
    return bool((np.abs(towards[ahead]) * FOREIGN_SHARE <= abs(turn)).any())


def _takes_cores(hue: np.ndarray, turned: np.ndarray, nearest: np.ndarray,
                 light: np.ndarray | None = None) -> bool:
    """Whether, with the coloured inks at the hues `turned`, any inked core of hue `hue` lies
    nearest another ink than the one it was given (`nearest`), but for a core whose lightness
    (`light`: the mean of its channels, when given) says it is the taking ink's (see
    TAKEN_LIGHT)."""
    now = np.abs(wrap_angle(hue[:, None] - turned[None, :])).argmin(1)
    taken = np.flatnonzero(now != nearest)
    if light is None or len(taken) == 0:
        return len(taken) > 0
    light = np.asarray(light, np.float64)
    stay = now == nearest                     # (the cores each ink keeps: their lightness)
    for i in taken:
        was = light[stay & (nearest == nearest[i])]
        goes = light[stay & (nearest == now[i])]
        if (len(was) < MIN_CORES or len(goes) < MIN_CORES
                or abs(light[i] - float(np.median(was))) - abs(light[i] - float(np.median(goes)))
                < TAKEN_LIGHT):
            return True
    return False


def foreign_hues(model: ColourModel) -> np.ndarray:
    """The hues (radians, as `chroma` gives them) of the coloured inks that another edition
    prints and `model` lacks (by letter; see FOREIGN_SHARE)."""
    ours = set(model.letters)
    hues = []
    for edition in SYMBOLS:
        other = builtin_model(edition)
        for i in np.flatnonzero(~other.neutral):
            if other.letters[i] not in ours:
                hues.append(float(chroma(other.inks.astype(np.float64)[i])[1]))
    return np.asarray(hues, np.float64)


def ink_fades(model: ColourModel, cores: np.ndarray, turns: dict[str, float] | None = None
              ) -> dict[str, tuple[float, float]]:
    """Per coloured letter whose cores among `cores` (n x 3, as `ink_turns` takes them) show
    its ink printed paler (see FADE_BELOW), (the share of the model's chroma the cores keep,
    their lightness: the mean of their channels); letters printed as strong as ours are left
    out. Each inked core goes to the coloured ink of nearest hue, as in `ink_turns`; the
    letter's own are those within MAX_SPREAD_DEG of its hue (as `turns` turns it), FADE_SHARE
    of the cores it was given at least (cores given to it but printed at another hue are
    another ink: a red printed towards yellow is no paler yellow), MIN_CORES of them at least,
    their chroma agreeing within MAX_FADE_SPREAD."""
    given = _given(model, cores)
    if given is None:
        return {}
    turns = turns or {}
    fades = {}
    for k, letter_at in enumerate(given.col):
        letter = model.letters[letter_at]
        mine = given.nearest == k
        own = mine & (np.abs(wrap_angle(given.off[:, k] - turns.get(letter, 0.0)))
                      <= math.radians(MAX_SPREAD_DEG))
        if own.sum() < max(MIN_CORES, FADE_SHARE * mine.sum()):
            continue
        strength = given.length[own]
        kept = float(np.median(strength))
        if (kept >= FADE_BELOW * given.ink_len[k]
                or float(np.median(np.abs(strength - kept))) > MAX_FADE_SPREAD * kept):
            continue
        light = float(np.median(given.rgb[own].mean(1)))
        fades[letter] = (kept / float(given.ink_len[k]), light)
    return fades


# A faint ink: cores coloured beyond FAINT_CHROMA but short of MIN_CHROMA (chroma that the
# camera's colour noise does not give paper or a grey ring's hole in this light), darker than
# FAINT_LIGHT of the paper (ink, not paper tinted by a lamp or bled colour). At so little
# chroma their hue scatters more than a full ink's: the window that gathers one ink's cores
# widens as MIN_CHROMA over their chroma (MAX_SPREAD_DEG at MIN_CHROMA).
FAINT_CHROMA = 0.07
FAINT_LIGHT = 0.75


def faint_inks(model: ColourModel, cores: np.ndarray, unread: np.ndarray,
               turns: dict[str, float], fades: dict[str, tuple[float, float]]
               ) -> tuple[dict[str, float], dict[str, tuple[float, float]]]:
    """`turns` and `fades` (as `ink_turns` and `ink_fades` give them) with each coloured
    letter that shows no ink at full strength learned from its faint cores instead: a print
    whose ink keeps too little chroma for MIN_CHROMA on every card. `cores` (n x 3, as
    `ink_turns` takes them) and `unread` (n bools: the symbol was not read as a coloured
    letter). A letter is learned so only where fewer than MIN_CORES inked cores lie within
    MAX_SHARE of the hue gap to the next coloured ink of its hue (the letter is nowhere on the
    table at full strength), and MIN_CORES faint cores (FAINT_CHROMA, FAINT_LIGHT) of unread
    symbols lie there, FADE_SHARE of them on one hue (within the widened window), their chroma
    agreeing within MAX_FADE_SPREAD. The turn to that hue obeys `ink_turns`' rules (no turn
    towards a foreign ink, none bringing an inked core nearer another ink), and the ink faded
    so must stay a colour (`ColourModel.neutral`: a second grey ink would read as the ring)."""
    cores = np.asarray(cores, np.float64).reshape(-1, 3)
    unread = np.asarray(unread, bool).reshape(-1)
    col = np.flatnonzero(~model.neutral)
    if len(col) == 0 or len(cores) < MIN_CORES:
        return turns, fades
    inks = model.inks.astype(np.float64)
    ink_len, ink_hue = chroma(inks[col])
    length, hue = chroma(cores)
    inked = length >= MIN_CHROMA
    faint = (length >= FAINT_CHROMA) & ~inked & unread & (cores.mean(1) <= FAINT_LIGHT)
    nearest = np.abs(wrap_angle(hue[inked, None] - ink_hue[None, :])).argmin(1)
    foreign = foreign_hues(model)
    turns, fades = dict(turns), dict(fades)
    for k, letter_at in enumerate(col):
        letter = model.letters[letter_at]
        if letter in fades:
            continue
        off = wrap_angle(hue - ink_hue[k])
        near = np.abs(off) <= _turn_limit(ink_hue, k)
        mine = faint & near
        if (inked & near).sum() >= MIN_CORES or mine.sum() < MIN_CORES:
            continue
        width = math.radians(MAX_SPREAD_DEG) * MIN_CHROMA / float(np.median(length[mine]))
        own = mine & (np.abs(wrap_angle(off - float(np.median(off[mine])))) <= width)
        if own.sum() < max(MIN_CORES, FADE_SHARE * mine.sum()):
            continue
        turn, kept = float(np.median(off[own])), float(np.median(length[own]))
        if float(np.median(np.abs(length[own] - kept))) > MAX_FADE_SPREAD * kept:
            continue
        turned = ink_hue + np.array([turns.get(model.letters[i], 0.0) for i in col])
        turned[k] += turn
        if (_towards_foreign(foreign, ink_hue[k], turn)
                or _takes_cores(hue[inked], turned, nearest)):
            continue
        share, light = kept / float(ink_len[k]), float(np.median(cores[own].mean(1)))
        x = fade_ink(turn_ink(inks[letter_at], turn), share, light)
        if float(x.max() - x.min()) < NEUTRAL_SPREAD:
            continue
        if abs(turn) >= math.radians(MIN_TURN_DEG):
            turns[letter] = turn
        fades[letter] = (share, light)
    return turns, fades


def faint_letters(model: ColourModel) -> frozenset[str]:
    """The coloured letters whose ink in `model` keeps less chroma than MIN_CHROMA: learned
    from a faint print's cores (`faint_inks`). A symbol read as one is weak evidence of a
    card: so faint an ink lies close to the shades of a dark table."""
    length, _ = chroma(model.inks.astype(np.float64))
    return frozenset(n for n, c, grey in zip(model.letters, length, model.neutral, strict=True)
                     if not grey and c < MIN_CHROMA)


def faded_letters(model: ColourModel) -> frozenset[str]:
    """The coloured letters whose ink in `model` keeps less than FADE_BELOW of the chroma of the
    built-in model's (faded to a paler print's cores, `ink_fades`) and MIN_CHROMA or more
    (fainter ones: `faint_letters`). A symbol read as one is read by a weaker colour cue: a
    paler ink lies nearer every faint core, the washed or smeared symbols of the other inks
    among them."""
    length, _ = chroma(model.inks.astype(np.float64))
    ours = builtin_model(model.edition)
    full, _ = chroma(ours.inks.astype(np.float64))
    by_letter = dict(zip(ours.letters, full.tolist(), strict=True))
    return frozenset(n for n, c, grey in zip(model.letters, length.tolist(), model.neutral,
                                             strict=True)
                     if not grey and n in by_letter and MIN_CHROMA <= c < FADE_BELOW
                     * by_letter[n])


def at_clip(core: np.ndarray, ink: np.ndarray) -> bool:
    """Whether a symbol's `core` (paper-normalised RGB) stands at CLIP_TURNED of the paper or
    more in the brightest channel of `ink` (its letter's, RGB): its hue may be the clip's
    turn of that ink."""
    return bool(core[int(np.argmax(ink))] >= CLIP_TURNED)


def faded_off_hue(symbols: str, cores: np.ndarray, model: ColourModel,
                  faded: frozenset[str] | str) -> list[bool]:
    """Per symbol of a card read `symbols` (its cores: 6 x 3, paper-normalised RGB, as
    `symbol_cores` measures them), whether it was read as a letter of an ink the table faded
    (`faded`: `faded_letters`) while its core's hue, with HUE_CHROMA or more of chroma, lies
    nearer another coloured ink's hue in `model` than that letter's, unless the core stands
    at the clip in that ink's brightest channel (`at_clip`: the clip turns a washed ink's
    hue). A paler ink is nearer every faint core than the full inks are, those
    of the other inks washed or smeared too faint for their own among them; but a faint core
    keeps its own ink's hue."""
    length, hue = chroma(np.asarray(cores, np.float64))
    _, ink_hue = chroma(model.inks.astype(np.float64))
    coloured = [k for k, grey in enumerate(model.neutral) if not grey]
    out = []
    for d, (c, n, h) in enumerate(zip(symbols, length.tolist(), hue.tolist(), strict=True)):
        if c not in faded or c not in model.letters or n < HUE_CHROMA:
            out.append(False)
            continue
        own = model.letters.index(c)
        if at_clip(cores[d], model.inks[own]):
            out.append(False)
            continue
        off = {k: abs(float(wrap_angle(h - ink_hue[k]))) for k in coloured}
        out.append(min(v for k, v in off.items() if k != own) < off[own])
    return out


def fade_ink(rgb: tuple[float, float, float] | np.ndarray, share: float, light: float
             ) -> np.ndarray:
    """The colour with `share` of its chroma (its hue kept) at lightness `light` (the mean of
    its channels; a channel taken below 0 clipped there)."""
    x = np.asarray(rgb, np.float64)
    return np.clip(light + share * (x - x.mean()), 0.0, None)


def adapt_inks(model: ColourModel, cores: np.ndarray, doubt: bool = True, fade: bool = True,
               unread: np.ndarray | None = None) -> ColourModel | None:
    """`model` with each coloured ink that `ink_turns` finds turned, turned so, and (with
    `fade`), on a table where some card reads a '?' (`doubt`), each that `ink_fades` finds
    printed paler, faded so, and, given which symbols the first read did not read as a
    coloured letter (`unread`, one bool per core), each that `faint_inks` learns from its
    faint cores; None when every ink stays as it is, or when no card reads a '?'
    and no turn reaches FIRM_TURN_DEG: so small a turn the colour fits reach across, and on a
    table where every card reads whole it changes no letter."""
    turns = ink_turns(model, cores)
    fades = ink_fades(model, cores, turns) if doubt and fade else {}
    if doubt and fade and unread is not None:
        turns, fades = faint_inks(model, cores, unread, turns, fades)
    if not fades and (not turns or (not doubt and max(map(abs, turns.values()))
                                    < math.radians(FIRM_TURN_DEG))):
        return None
    protos = []
    for n, p in zip(model.names, model.protos, strict=True):
        x = turn_ink(p, turns[n]) if n in turns else np.asarray(p, np.float64)
        x = fade_ink(x, *fades[n]) if n in fades else x
        protos.append(tuple(float(v) for v in x) if n in turns or n in fades else p)
    said = [f"{n} {math.degrees(t):+.0f}°" for n, t in turns.items()]
    said += [f"{n} paler ({share:.2f} of its chroma)" for n, (share, _) in fades.items()]
    return replace(model, protos=tuple(protos),
                   source=f"{model.source}, inks turned to the table's: " + ", ".join(said))


def _runs(values: np.ndarray, gap: float, period: float | None = None) -> list[np.ndarray]:
    """The indices of `values` in runs: sorted, split wherever two neighbours lie `gap` apart
    or more (up to rounding; on a circle of `period` when given, the run across the wrap
    joined)."""
    order = np.argsort(values, kind="stable")
    v = values[order]
    if len(v) == 0:
        return []
    cuts = np.flatnonzero(np.diff(v) >= gap) + 1
    runs = np.split(order, cuts)
    if period is not None and len(runs) > 1 and v[0] + period - v[-1] < gap:
        runs = [np.concatenate([runs[-1], runs[0]]), *runs[1:-1]]
    return runs


def _claims(letters: np.ndarray, cards: np.ndarray) -> dict[str, set[int]]:
    """The letters among one run's cores (`letters`, each core's card in `cards`) that claim
    the run: MIN_SIDE cores at least, on two cards at least; each with its cards."""
    out = {}
    for n in np.unique(letters):
        mine = cards[letters == n]
        if mine.size >= MIN_SIDE and np.unique(mine).size >= 2:
            out[str(n)] = set(mine.tolist())
    return out


def confused_letters(model: ColourModel, cores: np.ndarray, read: list[str],
                     whites: np.ndarray | None = None) -> str:
    """The letters that `model`'s reading gives to two of the table's inks, or that share one
    ink with another letter (see the comment above SPLIT_DEG); `cores` (cards x 6 x 3) are the
    symbol cores of the cards read `read` (a 6-letter string per card, '?' for a symbol not
    read), both as `symbol_cores` and the cards' own reads give them; `whites` (cards x 3
    BGR) the white references they were normalised by, to tell the cores that clipped
    (`_bridged`; none without them)."""
    letters = np.array([c for text in read for c in text], dtype="<U1")
    if len(letters) == 0:
        return ""
    card = np.repeat(np.arange(len(read)), 6)
    length, hue = chroma(np.asarray(cores, np.float64).reshape(-1, 3))
    coloured = [n for n, g in zip(model.letters, model.neutral, strict=True) if not g]
    grey = [n for n, g in zip(model.letters, model.neutral, strict=True) if g]
    sel = np.flatnonzero(np.isin(letters, coloured) & (length >= MIN_CHROMA))
    runs = [sel[r] for r in _runs(hue[sel], math.radians(SPLIT_DEG), 2.0 * math.pi)]
    sel = np.flatnonzero(np.isin(letters, grey))
    runs += [sel[r] for r in _runs(length[sel], SPLIT_CHROMA)]
    claims = [_claims(letters[run], card[run]) for run in runs]
    confused = set().union(*(set(c) for c in claims if len(c) > 1))
    rgb = np.asarray(cores, np.float64).reshape(-1, 6, 3)
    clipped = (np.zeros(rgb.shape, bool) if whites is None else
               rgb * np.asarray(whites, np.float64).reshape(-1, 1, 3)[..., ::-1] >= CLIP_NEAR)
    confused |= _two_on_one_card(model, rgb, letters.reshape(-1, 6), length.reshape(-1, 6),
                                 hue.reshape(-1, 6), clipped)
    for i, a in enumerate(claims):
        for b in claims[i + 1:]:
            # (a grey letter's two runs need not share cards: a grey ink has no hue for a lamp
            # to turn, and its cores, each against its own card's white, lie within 0.04 of
            # each other over a table, so a second run is a coloured ink read as the grey one
            # wherever it lies: a blue printed violet, read as the ring on cards without one)
            confused |= {n for n in a.keys() & b.keys()
                         if len(a[n] & b[n]) >= MIN_BOTH or n in grey}
    return "".join(sorted(confused))


def _two_on_one_card(model: ColourModel, cores: np.ndarray, letters: np.ndarray,
                     length: np.ndarray, hue: np.ndarray, clipped: np.ndarray) -> set[str]:
    """The letters read for two inks on one card (see ONE_CARD_DEG): `cores` (cards x 6 x 3),
    `letters` their reads and `length`, `hue` their chroma (cards x 6 each), `clipped` which
    of their channels clipped (cards x 6 x 3, RGB)."""
    out = set()
    light = cores.mean(-1)
    whole = (letters != "?").all(1, keepdims=True)
    for k, n in enumerate(model.letters):
        grey = bool(model.neutral[k])
        mine = (letters == n) & (whole | grey)
        if not grey:   # (at near the strength of the letter's strongest core on the card)
            mine &= length >= ONE_CARD_STRENGTH * np.where(mine, length, 0.0).max(
                1, keepdims=True)
        if not (mine.sum(1) >= 2).any():
            continue
        # (a grey ink's cores by their chroma, a coloured one's by their hue about its own)
        ink_hue = float(chroma(model.inks[k])[1])
        at = np.where(mine, length if grey else wrap_angle(hue - ink_hue), np.nan)
        order = np.argsort(at, axis=1)                             # (other places last)
        step = np.diff(np.take_along_axis(at, order, 1), axis=1)
        cut = np.nanargmax(np.where(np.isnan(step), -1.0, step), axis=1)
        gap = ONE_CARD_CHROMA if grey else math.radians(ONE_CARD_DEG)
        for c in np.flatnonzero(step[np.arange(len(step)), cut] >= gap):
            lit = light[c, order[c]]
            low, high = lit[:cut[c] + 1].mean(), lit[cut[c] + 1:mine[c].sum()].mean()
            if min(low, high) >= ONE_CARD_LIGHT * max(low, high):
                continue
            if grey and low < high:
                continue   # (a grey letter's paler cores the stronger: no violet, see above)
            # (the darker side: the cores below the cut, or above it)
            dark = order[c][:cut[c] + 1] if low < high else order[c][cut[c] + 1:mine[c].sum()]
            if grey or not (_bridged(at[c][mine[c]], clipped[c][mine[c]], gap, ink_hue,
                                     at[c][dark])
                            or _filled(at, c, at[c, order[c][cut[c]]],
                                       at[c, order[c][cut[c] + 1]], gap)):
                out.add(n)
    return out


def _filled(at: np.ndarray, c: int, below: float, above: float, gap: float) -> bool:
    """Whether the letter's cores on the table's other cards (`at`: cards x 6, their hues
    about the ink, NaN at the other places) fill card `c`'s gap in hue from `below` to
    `above`: cores of FILL_CARDS cards at least lie in it, and with its two sides they leave
    no step of FILL_SHARE of the one-card `gap` or more (see ONE_CARD_DEG)."""
    other = np.delete(at, c, axis=0)
    inside = (other > below) & (other < above)
    if np.count_nonzero(inside.any(1)) < FILL_CARDS:
        return False
    seq = np.sort(np.concatenate([[below], other[inside], [above]]))
    return bool(np.diff(seq).max() < FILL_SHARE * gap)


def _clip_arc(at: np.ndarray, clipped: np.ndarray, ink_hue: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) hue about the ink (radians, as `at`) each core (`at`, k; `clipped`, k x 3
    RGB) may truly have: the arc from the hue it shows to the hues of its clipped channels."""
    low, high = at.copy(), at.copy()
    for ch, h in enumerate(_PRIMARY_HUE):
        d = np.where(clipped[:, ch], wrap_angle(h - ink_hue - at), 0.0)
        low, high = np.minimum(low, at + d), np.maximum(high, at + d)
    return low, high


def _bridged(at: np.ndarray, clipped: np.ndarray, gap: float, ink_hue: float,
             dark: np.ndarray) -> bool:
    """Whether one card's cores of a coloured letter (`at`: their hues about the letter's ink,
    of hue `ink_hue`; `clipped` their clipped channels) would all lie in one run, no two
    neighbours `gap` apart, had their clipped channels shown brighter (`_clip_arc`), the
    darker of the two sides the run was cut into (`dark`: their hues) showing the ink's own
    hue (within SHEEN_INK_DEG)."""
    if not clipped.any() or (np.abs(dark) > math.radians(SHEEN_INK_DEG)).any():
        return False
    low, high = _clip_arc(at, clipped, ink_hue)
    order = np.argsort(low)
    reach = np.maximum.accumulate(high[order])
    return bool((low[order][1:] - reach[:-1] < gap).all())


__all__ = ["adapt_inks", "chroma", "confused_letters", "fade_ink", "ink_fades", "ink_turns",
           "symbol_cores", "turn_ink"]
