"""Per symbol, a letter or '?' from its samples' ink kinds and fractions (`decide`). A symbol is
read only when its samples agree clearly: enough of one ink, almost none of another, few
unexplained samples. A grey ring must be closed and dark either side of its centre, whether
sharp, blurred into a blob, faint, or without hue anywhere (`hueless_ring`); no coloured
symbol is hollow. On a card whose paper clipped, pale blends are judged by what the clip can
explain (`darker_than_allowed`, `clipped_rim`, `split_print`, `match_prints`; a solid print
washed pale is no ring's blend, `solid_wash`); on any card a
weak reading is weighed against a strong twin of its ink, one print under one lamp
(`thinner_than_twins`, `twin_mean`); a symbol washed pale all over stands by a big, pure vote
where its halo is bare paper (`washed_pure`); a coloured symbol left unread whose unclipped
samples all show one ink's chroma is that ink (`symbol_chroma.chroma_read`). Pure functions of
arrays: no image, no pose.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .colour import (
    CLIP_HIGH,
    CLIP_LOW,
    OTHER,
    PAPER_K,
    ColourModel,
    clip,
)
from .fast_reduce import (
    along1,
    as_strings,
    fast_mean,
)
from .symbol_chroma import chroma_read
from .symbol_samples import (
    MIN_TURN_LETTERS,
)
from .symbol_wash import wash_read

# A grey ring blurred into a blob: the ink it spreads over the symbol's samples. A sharp ring
# covers ~0.63 of them (up to ~0.75 on a small card, where the pixels round its hole) and blur
# only lowers that; a solid dark blob (a shadow, a dark object) covers nearly all of them.
BLURRED_RING_DARK = (0.2, 0.8)
BLURRED_RING_CONTRAST = 0.2   # and stands this much darker than the paper beside it
# Smeared flat, a ring's ink (~0.63 of its samples' area) is spread evenly over them: no
# sample need be darker than about 0.4 of the ink, so the blob's strongest sample is held to
# that, the same as a pale coloured symbol's; its mean, contrast and middle tests still apply.
BLURRED_RING_PEAK = 0.38
# A ring's middle is its hole: blur mixes ink into it, but at most the ring's share (~0.6 under
# the hard band's worst blur, ~0.77 for a 44 px card smeared by 7 px); a solid disc of dark ink
# whose hue is lost (navy printed heavy, under dim light) is dark right through its middle
# (0.87-0.95), even where sharpening darkens its rim.
BLURRED_RING_MIDDLE = 0.82
OPEN_HOLE = 0.15              # a ring's band this much darker than its middle shows its hole
# A coloured symbol read by its mean colour (see `decide`): the mean's ink fraction, and how much
# stronger the ink is in the symbol's middle (7 inner samples) than around it (12 outer ones).
FALLBACK_ALPHA = 0.3
FALLBACK_CENTRED = 0.08
FALLBACK_PEAK = 0.45          # and its strongest sample's (defocus and 5 px of motion leave a
                              # 36 px card's triangle no sample above ~0.5: test_symbol_pale)
# A coloured-ink sample this faint and this grey, inside a ring, is the ring's fringe (`decide`).
FAINT_ALPHA = 0.45
FAINT_DARK = 0.2
PALE_MIDDLE, PALE_OUTER = 0.35, 0.15   # a pale symbol's ink in its middle and around it
# A coloured symbol washed pale all over (a sleeve's haze, a phone's flat tone curve) keeps its
# samples on its ink's line, only nearer the paper: its strongest falls below the vote's 0.55
# (held-out `sleeves` 0-99: a peak of 0.37-0.55, the vote's one failing test, was the commonest
# reason a symbol left its card unread: 100 of about 250) while its vote stays big and pure.
# Such a symbol stands at PURE_PEAK (`washed_pure`) when its vote reaches PURE_VOTE, the
# runner-up ink holds at most PURE_SECOND and at most PURE_OTHER samples are unexplained, and its
# halo is bare paper all round (`decide`'s `bare_halo`); and it stands beside a strong twin (a
# sheen or a glare washes one symbol of a card, not its twin). Without the middle's checks a
# uniform warm tint over a blue diamond read red (hard table 316); without the halo's, a pale
# pink fingertip over a blue diamond read red (tests/vision/test_thumb_over_symbol.py: the
# fingertip's samples lie on the red ink's line as a washed red disc's do, but it lies over part
# of the halo: 21 of its 252 crafted thumbs read without the halo's check, none with it).
# Held-out `sleeves` 0-99 1789 -> 1841 cards (1828 with a vote of 4), never-seen and fresh
# hundreds +46 to +66, hard tables 0-699 +3, no misread on those nor any other held-out variant.
PURE_VOTE, PURE_SECOND, PURE_OTHER, PURE_PEAK = 3.0, 0.3, 2, 0.45
HOLLOW_MIDDLE = 0.2           # a symbol's middle this little dark (of ink's ~0.8) is bare paper
# Printed ink peaks in a coloured symbol's middle; a ring's band smeared over its hole leaves the
# middle far paler than the band round it: held-out `office-lowlight-fingers` 42 and 14024 (an
# office print in a dim room, smeared), three void rings read as the blue disc on cards in full
# view, their middles 0, 0 and 0.05 of ink against 0.26, 0.54 and 0.58 round them, that ink on
# both sides of the middle (0.39, 0.26 and 0.18 of it one-sided, `_lopsided`). A pose a little
# off a disc leaves its middle on paper too, its ink all on one side (held-out `sleeves` 61: a
# red disc at a search's pose, 1.0 one-sided), and a card read there is read as its disc's
# colour, rightly. A hole is paper (HOLLOW_PAPER of the 7 middle samples; those rings' 6, 7 and
# 6): a diamond a warm, dim lamp dulls until most of its samples fit no ink's line is weak in its
# middle too, but not paper there (tests/vision/test_symbol_twin_mean.py: its mean colour is its
# twins', and they read it).
HOLLOW_SHARE = 0.25
HOLLOW_PAPER = 5
SOLID_CORE_ALPHA = 0.7        # a coloured disc's 7 middle samples, all at least this much ink
# On a card whose paper clipped, a weak coloured reading's samples may be darker (along the
# grey line) than its ink at their fitted fraction makes them by at most this much on average
# (`darker_than_allowed`): a printed disc's blends are seen brighter there, not darker (at most 0.05
# in a crafted sweep of seven lamps), while a grey ring's blends, their hue pulled towards the
# clipped channels, keep the grey ink's darkness (0.08-0.3; 0.03 under the heaviest blur).
CLIPPED_GREY_EXCESS = 0.065
# A glossy sleeve's sheen over a card whose paper clipped washes a red disc pink past the clip:
# weak, and 0.06-0.1 darker than red's blends (held-out `sleeves` 22: four cards left unread
# so). A ring's blends are hollow, paper in the middle; the washed disc is ink right through.
# A reading whose 7 middle samples are all its ink at SOLID_WASH_MIN at least, that middle
# within SOLID_WASH_FLAT of the samples round it or stronger (`solid_wash`), on a card where
# a grey ring reads with its hole open, is no ring's blend: neither `darker_than_allowed` nor
# `_outshone` sets it aside. One card, one blur: blur fills a ring's middle until its blends
# look solid too (crafted rings blurred by 2 px on 50 px cards read blue beside a blue disc,
# tests/vision/test_symbol_clip2.py), and a ring left open beside it shows the card's blur did
# not. Of the grey rings read as a coloured ink on held-out `sleeves`, `harsh`, `phone-photo`,
# `lowlight`, `fingers`, `portrait` 0-99 and hard 0-699 (19), none had more than one middle
# sample of that ink; of the coloured readings left '?' with all 7, 42 were their ink and 2
# not (a phone photo's ring read blue, a blue read red: left '?' by other tests, which still
# judge them). Held-out `sleeves` 0-99 1859 -> 1874 cards with `symbol_pose`, no misread on any
# held-out variant nor hard 0-699.
SOLID_WASH_MIN, SOLID_WASH_FLAT = 0.3, 0.05
# A weak coloured reading is also judged against a strong read symbol of the same ink on its
# card (its twin; `_outshone` on such a card, `thinner_than_twins` on every card): on 600 crafted
# cards under seven lamps, twin discs' mean excesses differed by at most 0.05 and their strongest
# samples by a factor of at least 0.68, while a tinted ring's excess exceeded its card's blue
# disc's by 0.06-0.17 and a ring read red under a warm lamp peaked at 0.43-0.51 of its card's
# red disc; a yellow triangle under a hand's blurred edge, read red, at 0.43 of its red twins.
TWIN_EXCESS_GAP = 0.06
TWIN_PEAK_SHARE = 0.6
# Where the paper clipped in every channel, the white reference says nothing of the lamp, and a
# strong ink's sample clipped with it in one channel and crushed towards black in another is
# known by the third alone; the inks' fits to such bounds can split one printed disc between two
# letters (a web red disc seen at (1-18, 59-87, 250-255) BGR on paper at the clip in all three:
# 3-4 of its 19 samples, most in its middle, fit yellow as well as red, though the card's yellow
# triangles read 160-220 in green, the one channel that tells the two inks apart there). One
# print under one lamp shows an ink alike on every symbol of a card: a rival sample that clipped
# at white in some channel and lies within TWIN_MATCH (paper-relative RGB, a channel in which
# it clipped taken as a bound) of a strong sample of the symbol's ink on a twin (`_twins`) is
# that print, unless a strong sample of the rival ink on the card lies within TWIN_APART of it
# (`split_print`). On the cards of hard tables 0-199 and 400-499 whose paper clipped in every
# channel, a strong sample of a read coloured symbol lay that close to its ink's samples on the
# card's other symbols of that ink for 95 % within 0.068, 99 % within 0.113 (the rest blends at
# a symbol's rim), and never nearer than 0.275 to a strong sample of another coloured ink on its
# card (0.1 % below 0.32-0.38); the rival samples of table 405's six split red discs lay 0.006-
# 0.084 from their card's red print, 0.40-0.47 from its yellow one where it had one.
TWIN_MATCH = 0.12
TWIN_APART = 0.24
# The same one print under one light, for a whole symbol (`twin_mean`): a warm, dim lamp
# (2800-3900 K at 0.6-1.3 exposure) darkens and dulls a blue diamond until most of its samples
# fit no ink's line and the vote falls short, though its mean colour stays its twins' (hard
# tables 161, 437, 509: 0.03-0.12 from the card's strong blue symbols, 0.44-0.66 from its other
# letters). A coloured reading left unread is its ink when it holds TWIN_MEAN_VOTE of that ink's
# samples, no sample of another coloured ink, its mean lies within TWIN_MEAN_MATCH of a twin's
# (`_read_twins`) and TWIN_MEAN_APART or more from every symbol the card reads as another letter, on
# a card reading MIN_TURN_LETTERS other symbols whose paper reads as paper (MIN_TURN_PAPER: a
# pose a little off its card, as the probe tries, sees the table in its paper and blends of
# half a symbol in its samples; held-out `harsh` 67). Judged so in every pass, with the two
# distances at 0.25 and 0.1, hard tables 0-699 still read no misread; at 0.3 and 0.05 with no
# vote needed, three (37, 599, 628). Only a card's first read at its own pose is judged so: a
# re-read (turned, shaded, by the lamp) stands only where complete, and completed by twins it
# could carry what its own samples misread (a navy coin on a red disc, crafted, read blue
# turned by 4 degrees; tests/vision/test_symbol_twin_mean.py).
TWIN_MEAN_VOTE = 0.5
TWIN_MEAN_MATCH = 0.12
TWIN_MEAN_APART = 0.24
# A twin for `twin_mean` is a read coloured symbol of the ink whose strongest sample reaches
# what the vote asks of a coloured symbol (`decide`'s 0.55), not only one at SOLID_CORE_ALPHA:
# the lamp that dulls one diamond below the vote dulls its twins alike, and under it all of a
# card's diamonds can peak at 0.55-0.7 (hard table 437: a card's read blue diamonds at 0.60-0.69,
# its unread one's mean 0.02-0.05 from theirs, 0.57-0.60 from its red discs'). The match asked of
# the mean (TWIN_MEAN_MATCH, TWIN_MEAN_APART) is the same.
TWIN_MEAN_PEAK = 0.55
SPLIT_SHARE = 0.5    # the rival ink's samples' share of the symbol's own ink's, at most
# A printed ring is closed and centred: its band is darker than its middle all the way round,
# and blur keeps it point-symmetric (defocus and motion smear every point alike, so each side
# of a diameter gets the same ink: motion thins the band along the motion on both ends). A disc
# partly under an object (a coin, a sleeve) whose uncovered rim has lost its hue leaves a
# crescent, dark on one side only. A ring's lopsidedness: over its six diameters, the part of
# its band's darkness beyond the middle that the opposite end lacks (0 symmetric, 1 one-sided):
# rings read in rendered hard scenes 0.07 median, 95 % at most 0.41 (the few near 1 lie half
# under a hand or a shadow's edge); the two crescents of covered blue discs crafted, 0.98.
RING_LOPSIDED = 0.7
# Blur spreads a ring's ink evenly over its samples only when it is as wide as the ring: a card
# is a few centimetres across, so one defocus and one motion smear act on all its symbols, and
# a twin ring left with its hole open was not blurred that far. Blurring the printed face by
# Gaussian defocus (0.3-5 px) and motion (0-16 px, any direction) at 15-55 px apothems, a ring
# whose 19 samples' darkness spans less than FLAT_BLOB leaves every other ring of the card with
# its band at most 0.13 darker than its middle (0.15 on the reader's darkness scale); on the
# rendered hard tables and held-out `fingers` ones, rings read flat so (under 0.25) have twins
# at most 0.13 hollow. A pen or a sleeve lying over a symbol is one flat grey however sharp the
# card (held-out `fingers` 192: two pens' blobs spanning 0.08 and 0.2, a twin ring 0.36 hollow).
FLAT_BLOB = 0.25
OPEN_RING = 0.25
FAINT_RING_DARK = 3.0         # a ring band's summed grey-ink fraction (12 samples) ...
FAINT_RING_VOTE = 2.0         # ... that lets it stand with this vote (see `decide`)
HOLLOW_INK = 0.1              # a symbol's ink this much weaker in its middle than around it
# Every edge of a card carries a printed symbol, and in an edition with one grey ink (holodex's
# void ring) every other symbol is a solid disc of saturated ink: blur, a dim or a clipped lamp
# pale a coloured disc or darken it, but its samples keep fitting its coloured ink's line (or
# fall off every line, unexplained). A whole card's symbol whose every sample is paper or the
# grey ink, not one of them a coloured ink's or unexplained, is the grey ring however faint,
# when it shows the ring's shape (`hueless_ring`): its darkest sample lies in its band, not in
# its middle (blur spreads a ring's band into its hole, never more ink than the band keeps,
# while a disc, a coin or a border band seen from a pose off the card are darkest inside), it is
# dark alike on both sides of its centre (RING_LOPSIDED), not flat (FLAT_BLOB: a pen or a sleeve
# lying over it is one grey), and it stands out from the paper beside it (a shadow darkens
# both). Smeared by 5-6 px of motion on a 50-70 px card under a bright lamp, such a ring keeps
# the grey ink of one or two samples' worth in its band (hard tables 182, 186, 372, 386, 532),
# below the vote a ring needs; HUELESS_VOTE is one whole sample's grey ink, HUELESS_CONTRAST
# the noise of a sample's darkness on bare paper.
HUELESS_VOTE = 1.0
HUELESS_CONTRAST = 0.05


# The grey-ink-plus-paper-tint fit of symbol samples for `decide`: (alpha, ok) for every
# sample (cards x 6 x 19 each), or a function giving them for the symbols a mask selects.
Bleed = tuple[np.ndarray, np.ndarray] | Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
# `split_print`'s test of rival samples against a card's print (`match_prints`, bound to the
# samples of one read): card and symbol indices (k), rival samples (k x 19), the card's print of
# the symbol's ink and of the rival ink (k x 6 x 19 each) -> whether the rival samples are the
# print's (k).
PrintMatch = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def decide(kind: np.ndarray, alpha: np.ndarray, dark: np.ndarray, model: ColourModel,
           flank_dark: np.ndarray | None = None,
           mean_fit: tuple[np.ndarray, np.ndarray] | None = None,
           allow: np.ndarray | None = None,
           bleed: Bleed | None = None,
           paper_clipped: np.ndarray | None = None,
           in_shade: np.ndarray | None = None,
           clip_rivals: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
           print_match: PrintMatch | None = None,
           twin: tuple[np.ndarray, np.ndarray] | None = None,
           hues: tuple[np.ndarray, np.ndarray] | None = None,
           bare_halo: np.ndarray | None = None
           ) -> tuple[list[str], np.ndarray]:
    """Letters (one string per card, '?' where unsure) and per-edge confidences from the sample
    kinds, ink fractions and grey-ink fractions (each cards x 6 x 19). A symbol is read when one
    ink clearly dominates (enough ink, a saturated core, almost none of any other ink, few
    unexplained samples); a grey ink must also be a ring — paper in its middle, and a band
    dark on both sides of its centre (`RING_LOPSIDED`) — so a shadow, a dark fingertip or a
    disc's rim left beside an object lying over it is not read as one. Blur (defocus, motion)
    fills a small ring's middle: a grey blob is still read as the ring when it stands out from
    the paper beside it (`flank_dark`, cards x 6: a shadow darkens both), is no darker in the
    middle than around it, and holds about as much ink as a ring and far less than a solid
    blob (`BLURRED_RING_DARK`); a ring's middle is never ink right through
    (`BLURRED_RING_MIDDLE`). A closed ring smeared thin by motion, its band still holding the
    grey ink of three samples (`FAINT_RING_DARK`), stands with a smaller vote
    (`FAINT_RING_VOTE`). A coloured symbol washed pale all over, its vote big and pure, its
    middle all its ink and its halo bare paper all round (`bare_halo`, cards x 6: None, no
    such symbol stands), stands at a paler peak and beside a strong twin (`washed_pure`).
    Faint coloured samples in a ring's fringe and grey samples in a solid disc's rim do not
    count as rivals.
    One card has one blur: a grey blob blurred flat is no ring where a twin ring on the card
    keeps its hole open (`flat_beside_open`; a pen or a coin lying over a disc). Every edge
    carries a symbol, and only the grey ink's has no hue: a symbol of paper and grey-ink
    samples alone, ring-shaped, is the grey ring however faint (`hueless_ring`).
    `allow` (cards), when given, limits the blurred-ring, disc-rim and mean-colour readings to
    those cards. `bleed` (alpha, ok; each cards x 6 x 19, from `ColourModel.grey_with_bleed`;
    or a function giving them for the symbols a cards x 6 mask selects, k x 19) gives a
    ring-shaped symbol's samples that are the grey ink tinted by JPEG's coarse colour to the
    grey ink (`_ring_bleed`). `paper_clipped` (cards) marks cards whose white reference is
    clipped: their grey rings' paper-ink blends may carry the lamp's tint (see the two
    mean-colour readings below), and a coloured reading there that is too dark for its ink
    (`darker_than_allowed`), or weak and darker than a strong symbol of its ink on the card
    (`_outshone`), is left '?', unless it is a solid print washed pale (`solid_wash`); a pale
    one read by its mean colour there needs a core of strong ink
    unless no other ink explains its mean, nor that of any symbol the card reads, with the clipped
    channels scaled back (`clip_rivals`: whether one does, for the symbols a cards x 6 mask
    selects, each named by the letters given, from `rival_explains`), and
    a solid symbol's faint rim samples of another coloured ink are not its rivals
    (`clipped_rim`); on every card, a weak coloured reading far thinner than that strong
    symbol is '?' (`thinner_than_twins`). `in_shade` (cards x 6) marks symbols whose surround is not
    paper but looks like paper in shade: no blurred ring is read there (a grey object lying over the
    symbol looks like that shade beside it and like a grey blob on it). `print_match` (see
    `split_print`; given only where some card's paper clipped in every channel) tells which
    coloured symbols whose samples split between their ink and one other coloured ink have
    every rival sample clipped and within TWIN_MATCH of the card's own print of their ink (and
    not near its print of the rival): those rival samples are the print's, and the symbol is
    judged as if they were not there. `twin` (the symbols' samples, cards x 6 x 19 x 3
    paper-relative RGB, the cards judged so, and those judged so against their rings) lets a
    coloured symbol left unread be its ink where its mean colour is its twin's on the card
    (`twin_mean`; a twin is a read symbol of its ink peaking at TWIN_MEAN_PEAK), and a symbol
    left unread be the grey ring where its middle and band are a read ring's (`twin_ring`).
    `hues` (the symbols' samples as sampled, cards x 6 x 19 x 3 BGR, and each card's white,
    cards x 3 BGR) lets a coloured symbol left unread on a whole card, not set aside as unsure
    nor surrounded only by shade, be the ink whose chroma its unclipped samples show
    (`symbol_chroma.chroma_read`: a sheen or a phone's saturation boost keeps their channel
    differences), or the ink a wash past the clip leaves in the channels that did not clip
    (`symbol_wash.wash_read`; a red or a yellow only with its halo bare)."""
    letters = model.letters
    middle = fast_mean(dark[..., :7])
    hollow = fast_mean(dark[..., 7:]) - middle   # outer ring minus middle
    ring = open_ring(dark)
    if bleed is not None:
        kind, alpha = _ring_bleed(kind, alpha, ring, model, bleed, allow)
    member = kind[..., None] == np.arange(len(letters))     # cards x 6 x 19 x letters
    a = clip(alpha, 0.0, 1.2)[..., None]
    score = (member * a).sum(-2)                            # cards x 6 x letters
    other = (kind == OTHER).sum(-1)
    srt = np.sort(score, axis=-1)
    top, second = srt[..., -1], srt[..., -2]
    best = score.argmax(-1)
    is_best = kind == best[..., None]
    # the strongest sample of the winning ink: the per-letter peak, for `best` only (alpha is
    # finite, as `ColourModel.explain` gives it, so the samples of other inks count as 0)
    top_peak = np.where(is_best, a[..., 0], 0.0).max(-1)
    blurred = np.zeros_like(ring)
    if flank_dark is not None:
        lo, hi = BLURRED_RING_DARK
        mean_dark = fast_mean(dark)
        blurred = (~ring & (mean_dark - flank_dark >= BLURRED_RING_CONTRAST)
                   & (hollow >= -0.2) & (mean_dark >= lo) & (mean_dark <= hi)
                   & (middle <= BLURRED_RING_MIDDLE))
        if allow is not None:
            blurred &= allow[:, None]
        if in_shade is not None:
            blurred &= ~in_shade
    closed = _lopsided(dark, middle) <= RING_LOPSIDED
    grey = model.neutral[best]
    ring_ok = ~grey | (ring & closed) | blurred
    # and no printed coloured symbol is hollow (discs, diamonds and triangles are solid ink):
    # a coloured-looking ring around a bare-paper middle is a grey ring tinted by the lamp (see
    # the hollow fallback below) or something lying over the card, never a coloured symbol
    ring_ok &= grey | ~ring | (middle >= HOLLOW_MIDDLE)
    # Dim light lifts bare paper's darkness to that bound, and motion smears a ring's band
    # over its hole: a coloured reading whose middle holds at most HOLLOW_SHARE of the ink its
    # outer samples do (mean ink fractions), that ink round it on both sides (RING_LOPSIDED),
    # and HOLLOW_PAPER of its middle samples paper, is hollow all the same (see HOLLOW_SHARE)
    # (the winning ink's fraction per sample, 0 for the others; `pale_centred` below too)
    alpha01 = clip(alpha, 0.0, 1.0)
    best_alpha = np.where(is_best, alpha01, 0.0)
    own_middle, own_outer = fast_mean(best_alpha[..., :7]), fast_mean(best_alpha[..., 7:])
    ring_ok &= grey | (own_middle > HOLLOW_SHARE * own_outer) | (
        _lopsided(best_alpha, own_middle) > RING_LOPSIDED) | (
        np.count_nonzero(kind[..., :7] == PAPER_K, -1) < HOLLOW_PAPER)
    # A ring's blurred fringe — paper mixed with a little grey ink under a slight colour cast —
    # can fit a coloured ink's line at a low fraction as well as the grey one. In a ring those
    # faint, greyish samples are the ring's own, not a rival symbol's: a coloured symbol shows
    # itself by a solid core of strong ink, which a ring's middle cannot have.
    coloured = (kind >= 0) & ~model.neutral[np.maximum(kind, 0)]   # a coloured ink's sample
    grey_ring = grey & ring
    if grey_ring.any():   # (none in an edition without a grey ink: the rest is not needed)
        faint = coloured & (alpha < FAINT_ALPHA) & (dark >= FAINT_DARK)
        if (faint & grey_ring[..., None]).any():
            solid = (member & ~faint[..., None]) * a
            srt_ring = np.sort(solid.sum(-2), axis=-1)
            second = np.where(grey_ring, srt_ring[..., -2], second)
    # A solid coloured disc whose rim, darkened and blurred into the paper, has lost its hue
    # (dark blue under dim light or a heavy print): grey samples around a core that is all
    # strong coloured ink are the disc's rim, not a rival ring — a ring's middle is paper.
    # (An edition without a grey ink has no grey samples to discount.)
    core = is_best[..., :7].all(-1) & (alpha[..., :7].min(-1) >= SOLID_CORE_ALPHA)
    solid = ~grey & core
    if allow is not None:   # whole cards only, like the blurred ring
        solid &= allow[:, None]
    disc = solid & model.neutral.any()
    greys_outer: np.ndarray | float = 0.0
    if disc.any():
        greys_outer = ((member[..., 7:, :] & model.neutral) * a[..., 7:, :]).sum(-2)
        rim = np.sort(score - np.where(disc[..., None], greys_outer, 0.0), axis=-1)
        second = np.where(disc, rim[..., -2], second)
    if paper_clipped is not None:
        second = clipped_rim(second, score, member, kind, alpha, a,
                              solid & paper_clipped[:, None], greys_outer, model)
    # a ring's ink, spread thin by defocus or blur, leaves its samples paler than sharp ink;
    # so does a small coloured symbol's (a triangle, a diamond) smeared by motion, and it is
    # still read when its ink is all in its middle and the ring of samples around it is
    # bare paper: printed ink peaks there, a fingertip's or a stain's tint spreads evenly
    pale_centred = ~grey & (own_middle >= PALE_MIDDLE) & (own_outer <= PALE_OUTER)
    if allow is not None:   # whole cards only
        pale_centred &= allow[:, None]
    peak_ok = top_peak >= np.where(pale_centred, 0.38,
                                   np.where(grey_ring, 0.45,
                                            np.where(grey & blurred, BLURRED_RING_PEAK, 0.55)))
    # a coloured symbol washed pale all over is still read by a big, pure vote where its halo
    # is bare paper all round (`washed_pure`: a fingertip over it lies over part of the halo)
    washed = (np.zeros_like(peak_ok) if bare_halo is None else
              washed_pure(is_best, alpha, top, second, other, top_peak, grey, allow, bare_halo))
    peak_ok |= washed
    margin = clip((top - 4.0 * second - 0.5 * other) / 5.0, 0.0, 1.0)
    # a thin ring smeared by motion spreads its ink below the per-sample threshold, so fewer
    # of its samples vote, but its band keeps its darkness: a closed ring whose band holds the
    # grey ink of three samples needs a smaller vote
    faint_ring = grey_ring & closed & (dark[..., 7:].sum(-1) >= FAINT_RING_DARK)
    ok = (top >= np.where(faint_ring, FAINT_RING_VOTE, 2.5)) & peak_ok \
        & (second <= 0.12 * top + 0.3) & (other <= 5) & (margin > 0) & ring_ok
    # one card, one blur: a grey blob blurred flat is no ring where a twin ring keeps its hole
    ok &= ~flat_beside_open(dark, hollow, grey & blurred, ok & grey_ring & closed)
    conf = np.where(ok, 0.5 + 0.5 * margin, 0.0)
    if print_match is not None:
        # a coloured symbol that fails only for one coloured rival ink's samples, where the
        # paper clipped in every channel: judged without them where they are its own print's
        # (`split_print`); every other test as above
        # (the rival: the strongest other ink, at most SPLIT_SHARE of the symbol's own; the
        # rest judged as the first test judges the runner-up)
        mine = best[..., None] == np.arange(len(letters))
        rival = np.where(mine, -np.inf, score).argmax(-1)
        third = np.sort(np.where(mine | (rival[..., None] == np.arange(len(letters))), 0.0,
                                 score), axis=-1)[..., -1]
        margin3 = clip((top - 4.0 * third - 0.5 * other) / 5.0, 0.0, 1.0)
        rivals = np.take_along_axis(score, rival[..., None], -1)[..., 0]
        may = (~ok & ~grey & ~model.neutral[rival] & (rivals <= SPLIT_SHARE * top)
               & (top >= 2.5) & peak_ok & (third <= 0.12 * top + 0.3) & (other <= 5)
               & (margin3 > 0) & ring_ok)
        if allow is not None:   # whole cards only
            may &= allow[:, None]
        if may.any():
            split = split_print(kind, alpha, best, rival, ok, may, model, print_match)
            ok |= split
            conf = np.where(split, 0.5 + 0.5 * margin3, conf)
    if mean_fit is not None and _may_fall_back(ok, mean_fit, allow):
        # Blur, noise and JPEG spread a small coloured symbol: its samples fall below the ink
        # threshold or drift towards grey (dark blue under dim light), though the symbol's mean
        # colour still lies clearly on one ink's line. Read it then, if its samples do not
        # contradict that ink: no rival colour ink, and grey samples only as a solid symbol's
        # darkened ones (a grey ring is told by its mean, which is grey, not coloured).
        mk, ma = mean_fit
        mk0 = np.maximum(mk, 0)
        chroma = (mk >= 0) & ~model.neutral[mk0]
        own = np.take_along_axis(score, mk0[..., None], -1)[..., 0]
        greys = (score * model.neutral).sum(-1)
        rival = score.sum(-1) - own - greys
        # and the ink must peak where the symbol's middle is: blur keeps a printed symbol's
        # centre strongest, while a fingertip or a stain lying over it tints it evenly
        own_alpha = np.where(kind == mk0[..., None], alpha01, 0.0)
        centred = fast_mean(own_alpha[..., :7]) - fast_mean(own_alpha[..., 7:]) >= FALLBACK_CENTRED
        own_peak = own_alpha.max(-1)
        # On a card whose paper clipped the sensor, the white reference is darker than the
        # paper in the clipped channels, so every blend of paper and ink is seen too bright
        # there and its hue is pulled towards them: a blurred grey ring fits red and a
        # blurred red disc yellow at about half strength (peaks 0.51-0.59 measured). Only a
        # core of strong ink (SOLID_CORE_ALPHA), little paper in it, keeps its hue ...
        peak_at = np.full(len(kind), FALLBACK_PEAK)
        if paper_clipped is not None:
            peak_at = np.where(paper_clipped, SOLID_CORE_ALPHA, FALLBACK_PEAK)
        may = (~ok & chroma & (ma >= FALLBACK_ALPHA) & (own >= 1.0)
               & centred & (rival <= 0.12 * own + 0.3) & (greys <= 0.5 * own) & (other <= 12))
        if allow is not None:
            may &= allow[:, None]
        fb = may & (own_peak >= peak_at[:, None])
        if clip_rivals is not None and paper_clipped is not None:
            # ... unless no other ink explains its mean colour with the clipped channels seen
            # as bright as they may truly be (`clip_rivals`): the clip then made nothing of
            # it. One lamp and one clip for the whole card: where another ink explains any
            # symbol the card reads so, the clip may have changed hues on it (grey rings read
            # blue under a cyan lamp), and no pale symbol is filled in there.
            pale = may & ~fb & paper_clipped[:, None] & (own_peak >= FALLBACK_PEAK)
            if pale.any():
                read = ok | fb
                judged = pale | (read & pale.any(1)[:, None])
                rivalled = clip_rivals(judged, np.where(pale, mk0, np.where(ok, best, mk0)))
                fb |= pale & ~rivalled & ~(rivalled & read).any(1)[:, None]
        # A grey ring under clipped warm light can look faintly coloured all round (not just
        # at its fringe), so no ink wins the vote; its shape still says ring — paper in the
        # middle, a dark band around it standing out from the paper beside it — and its mean
        # colour lies on the grey ink's line. No printed coloured symbol is hollow, and none
        # of its samples may be strong coloured ink. Where the paper clipped the sensor, its
        # white reference is neutral though the lamp is not: a blend of that brighter-than-seen
        # paper and the ring's ink keeps the lamp's colour, so the ring's fringe fits a coloured
        # ink's line at up to about half strength (0.3-0.53 measured), while a printed coloured
        # disc reaches SOLID_CORE_ALPHA in its core; only that much counts as strong there.
        strong_at = np.full(len(kind), FAINT_ALPHA)
        if paper_clipped is not None:
            strong_at = np.where(paper_clipped, SOLID_CORE_ALPHA, FAINT_ALPHA)
        strong = (coloured & (alpha >= strong_at[:, None, None])).any(-1)
        ring_band = fast_mean(dark[..., 7:])
        hollow_fb = (~ok & ~fb & (mk >= 0) & model.neutral[mk0] & (ma >= FALLBACK_ALPHA)
                     & ring & closed & (ring_band >= 0.3) & ~strong & (other <= 5))
        if flank_dark is not None:
            hollow_fb &= ring_band - flank_dark >= BLURRED_RING_CONTRAST
        if allow is not None:
            hollow_fb &= allow[:, None]
        fb = fb | hollow_fb
        best = np.where(fb, mk0, best)
        conf = np.where(fb, 0.5, conf)
        ok = ok | fb
    # every edge carries a symbol: one of no hue at all, ring-shaped, is the grey ring however
    # faint (`hueless_ring`; an edition without a grey ink has no such symbol)
    if model.neutral.any():
        hueless = hueless_ring(kind, dark, top, middle, closed, flank_dark, ok, grey, coloured,
                                allow, in_shade)
        ok = ok | hueless
        conf = np.where(hueless, 0.5, conf)
    # (the judgements below from one measure of each reading's darkness and ink)
    excess, own_alpha = _ink_excess(kind, alpha, dark, best, model)
    unsure = np.zeros_like(ok)
    clipped_any = paper_clipped is not None and paper_clipped.any()
    solid = np.zeros_like(ok)
    if clipped_any:
        # (a solid print washed pale, on a card whose blur keeps a read ring's hole open: no
        # ring's blend, `solid_wash`)
        solid = solid_wash(own_alpha, kind, best) & (ok & grey & ring & closed).any(1)[:, None]
        unsure = (darker_than_allowed(excess, own_alpha, kind, best, model, solid)
                  & paper_clipped[:, None])
        ok &= ~unsure
    # the twins both judgements below compare weak readings with (`_outshone` sets only weak
    # readings aside, which are never twins, so one look serves both)
    twins = _twins(own_alpha, best, ok, model)
    if clipped_any:
        unsure |= _outshone(excess, twins, best, solid) & paper_clipped[:, None]
        ok &= ~unsure
    # on every card: a weak coloured reading far thinner than its strong twin is not that print
    # but something over it (a hand's blurred edge, a pale object: see `thinner_than_twins`),
    # unless it is the print washed pale all over (`washed_pure`, its halo bare paper): a glare
    # spot or a sleeve's sheen washes one symbol and not its twin
    thinner = thinner_than_twins(twins, best) & ~washed
    unsure |= thinner
    ok &= ~unsure
    conf = np.where(unsure, 0.0, conf)
    # one print under one light: a coloured symbol left unread whose mean colour is its twin's
    # (a read symbol of its ink peaking as a vote's do, TWIN_MEAN_PEAK), and no other ink's on
    # the card, is that ink (`twin_mean`)
    if twin is not None and twin[1].any():
        barred = unsure | ~ring_ok | ~twin[1][:, None]
        alike = twin_mean(score, best, ok, barred, _read_twins(twins[2], best, ok, model),
                           twin[0], model, allow, in_shade)
        if clipped_any and clip_rivals is not None and alike.any():
            alike &= ~clipped_weak_twins(alike, barred, score, best, ok, twins[1], twin[0],
                                         model, allow, in_shade, paper_clipped, clip_rivals)
        ok = ok | alike
        conf = np.where(alike, 0.5, conf)
    # one print under one light: a symbol left unread whose middle and band are a read grey
    # ring's on the card, colour for colour, is that ring (`twin_ring`)
    if twin is not None and model.grey_k is not None:
        rung = twin_ring(ok, thinner, ok & model.neutral[best], best, twin[0], twin[2], model,
                         allow, in_shade)
        ok = ok | rung
        best = np.where(rung, model.grey_k, best)
        conf = np.where(rung, 0.5, conf)
    # a coloured symbol left unread whose samples all show one ink's chroma, unclipped, is
    # that ink (`symbol_chroma`: a sheen or a phone's saturation boost takes it off the ink's
    # line but keeps its channel differences)
    if hues is not None:
        want = ~ok & ~unsure
        if allow is not None:
            want &= allow[:, None]
        if in_shade is not None:
            want &= ~in_shade
        k, got = chroma_read(hues[0], hues[1], want, model)   # (raw samples, white)
        # (and one washed by white light past the clip, read by the channels left: a red or
        # a yellow only with its halo bare paper, `symbol_wash`)
        kw, washed_out = wash_read(hues[0], hues[1], want & ~got, model, bare_halo)
        k = np.where(washed_out, kw, k)
        got |= washed_out
        ok = ok | got
        best = np.where(got, k, best)
        conf = np.where(got, 0.5, conf)
    names = np.array([*letters, "?"])
    return as_strings(np.where(ok, names[best], "?")), conf


def washed_pure(is_best: np.ndarray, alpha: np.ndarray, top: np.ndarray, second: np.ndarray,
                other: np.ndarray, top_peak: np.ndarray, grey: np.ndarray,
                allow: np.ndarray | None, bare_halo: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6), whether a coloured reading whose strongest sample falls short of
    the vote's peak is a print washed pale all over: its vote at least PURE_VOTE, the runner-up
    ink's at most PURE_SECOND, at most PURE_OTHER unexplained samples, its strongest sample at
    least PURE_PEAK, every one of its 7 middle samples its ink and that middle on average at least
    as strong as the ring around it (printed ink is never weaker in its middle; a tint lying
    over the symbol leaves paper or unexplained colour there), its halo bare paper all round
    (`bare_halo`, cards x 6: a fingertip over the symbol lies over part of it), on a card read
    whole (`allow`). `is_best` (cards x 6 x 19) marks the samples of the reading's ink;
    `alpha` is as `decide` takes it; the rest are `decide`'s per-symbol vote, runner-up,
    unexplained count and peak, and whether the reading is a grey ink. (`decide` lets such a
    symbol stand beside a strong twin that `thinner_than_twins` would set it aside for: a
    sheen or a glare washes one symbol, not its twin.)"""
    own = np.where(is_best, alpha, 0.0)
    out = (bare_halo & ~grey & (top >= PURE_VOTE) & (second <= PURE_SECOND)
           & (other <= PURE_OTHER)
           & (top_peak >= PURE_PEAK) & is_best[..., :7].all(-1)
           & (fast_mean(own[..., :7]) >= fast_mean(own[..., 7:])))
    if allow is not None:
        out &= allow[:, None]
    return out


def hueless_ring(kind: np.ndarray, dark: np.ndarray, top: np.ndarray, middle: np.ndarray,
                  closed: np.ndarray, flank_dark: np.ndarray | None, ok: np.ndarray,
                  grey: np.ndarray, coloured: np.ndarray, allow: np.ndarray | None,
                  in_shade: np.ndarray | None) -> np.ndarray:
    """Per symbol (cards x 6), whether a grey reading `decide` left unread is the edition's grey
    ring all the same (see HUELESS_VOTE): on a whole card (`allow`; never where `flank_dark`
    is not given), its surround not only excused as shade (`in_shade`), every sample paper or
    the grey ink (`kind`: no coloured sample, `coloured`, and none unexplained), the grey ink
    of HUELESS_VOTE samples (`top`), its darkest sample (`dark`, cards x 6 x 19) in its band,
    its darkness spanning FLAT_BLOB, `closed` (RING_LOPSIDED), its middle not ink right through
    (BLURRED_RING_MIDDLE) and its mean HUELESS_CONTRAST darker than its flanking paper's
    (`flank_dark`). `ok`, `grey`: `decide`'s readings and which of them name a grey ink."""
    want = ~ok & grey & (top >= HUELESS_VOTE)
    if allow is not None:
        want &= allow[:, None]
    if in_shade is not None:
        want &= ~in_shade
    if flank_dark is None or not want.any():   # (nearly always: the rest is not needed)
        return np.zeros_like(ok)
    return (want & ~coloured.any(-1) & ~(kind == OTHER).any(-1) & closed
            & (middle <= BLURRED_RING_MIDDLE)
            & (dark[..., 7:].max(-1) >= dark[..., :7].max(-1))
            & (dark.max(-1) - dark.min(-1) >= FLAT_BLOB)
            & (fast_mean(dark) - flank_dark >= HUELESS_CONTRAST))


def twin_mean(score: np.ndarray, best: np.ndarray, ok: np.ndarray, barred: np.ndarray,
               twin: np.ndarray, samples: np.ndarray, model: ColourModel,
               allow: np.ndarray | None, in_shade: np.ndarray | None) -> np.ndarray:
    """Per symbol (cards x 6), whether a coloured reading `best` that `decide` left unread
    (`ok`), and did not bar (`barred`: set aside as unsure, hollow, or on a card not judged
    so), is its ink all the same because it looks like its card's strong print of that ink
    (see TWIN_MEAN_VOTE): on a whole card (`allow`) reading MIN_TURN_LETTERS other symbols,
    its surround not only excused as shade (`in_shade`), TWIN_MEAN_VOTE of that ink's samples
    (`score`, cards x 6 x letters), not one sample of another coloured ink and grey ink at most
    as `decide` allows a rival, and its mean colour (of `samples`, cards x 6 x 19 x 3,
    paper-relative) within TWIN_MEAN_MATCH of a twin's (`twin`, `_read_twins`'s cards x 6 x
    letters) and TWIN_MEAN_APART or more from every symbol the card reads as another letter."""
    want = ~ok & ~barred & ~model.neutral[best] & (ok.sum(1) >= MIN_TURN_LETTERS)[:, None]
    if not want.any():   # (nearly always: the rest is not needed)
        return want
    own = np.take_along_axis(score, best[..., None], -1)[..., 0]
    greys = (score * model.neutral).sum(-1)
    rival = score.sum(-1) - own - greys
    want &= (own >= TWIN_MEAN_VOTE) & (rival <= 0.0) & (greys <= 0.12 * own + 0.3)
    if allow is not None:
        want &= allow[:, None]
    if in_shade is not None:
        want &= ~in_shade
    if not want.any():
        return want
    apart = _apart(fast_mean(samples, 2))
    # [c, s, t]: symbol t of card c is a twin of the ink symbol s's reading names; symbol t
    # reads as another letter
    alike = twin[np.arange(len(best))[:, None, None], np.arange(6), best[..., None]]
    other = ok[:, None, :] & (best[:, None, :] != best[:, :, None])
    near = np.where(alike, apart, np.inf).min(-1)
    rival_near = np.where(other, apart, np.inf).min(-1)
    return want & (near <= TWIN_MEAN_MATCH) & (rival_near >= TWIN_MEAN_APART)


# The same one print under one light for the grey ring (`twin_ring`): a lamp tinting a card's
# rings brown, its paper clipped, may leave one of them short of the vote, or set it aside as a
# red too dark for its ink, while its twins read (hard tables 186, 228, 304); a ring blurred
# short of the vote reads no letter either. A symbol left unread is the ring where its middle's
# mean colour and its band's each lie within RING_TWIN_MATCH of a ring the card reads
# (paper-relative RGB), and its mean RING_TWIN_APART or more from every symbol the card reads as
# another letter. Over every decision the reader makes on hard tables 0-199 (the holodex ones,
# probe poses included), a read ring lies within 0.1 of another read ring of its card in 82 %
# of cases (median 0.042), and a read disc never within 0.2 of a read ring (0.1 % within 0.34).
# A coin or a pen lying over a symbol is as dark in its middle as at its rim: no ring's hole.
RING_TWIN_MATCH = 0.1
RING_TWIN_APART = TWIN_MEAN_APART


def twin_ring(ok: np.ndarray, thinner: np.ndarray, rings: np.ndarray, best: np.ndarray,
              samples: np.ndarray, judged: np.ndarray, model: ColourModel,
              allow: np.ndarray | None, in_shade: np.ndarray | None) -> np.ndarray:
    """Per symbol (cards x 6), whether a symbol `decide` left unread (`ok`), and did not set
    aside as thinner than a strong twin of its reading's ink (`thinner`: something lying over
    it), is the grey ring all the same (see RING_TWIN_MATCH): on a whole card (`allow`) judged
    so (`judged`, cards: a card's first read at its own pose, its paper nearly all paper),
    reading MIN_TURN_LETTERS symbols, its surround not only excused as shade (`in_shade`), the
    mean colours of its 7 middle and of its 12 band samples (`samples`, cards x 6 x 19 x 3,
    paper-relative) each within RING_TWIN_MATCH of those of a ring the card reads (`rings`),
    and its mean RING_TWIN_APART or more from every symbol it reads as another letter (`best`,
    `model`'s). A clipped paper does not bar it, as it bars `twin_mean`: a ring is told from a
    washed disc by its hole, which no clip fills."""
    want = ~ok & ~thinner & judged[:, None] & rings.any(1)[:, None] \
        & (ok.sum(1) >= MIN_TURN_LETTERS)[:, None]
    if allow is not None:
        want &= allow[:, None]
    if in_shade is not None:
        want &= ~in_shade
    if not want.any():   # (nearly always: the rest is not needed)
        return want
    middle, band = fast_mean(samples[..., :7, :], 2), fast_mean(samples[..., 7:, :], 2)
    twin = np.maximum(_apart(middle), _apart(band))
    near = np.where(rings[:, None, :], twin, np.inf).min(-1)
    other = ok & ~model.neutral[best]
    rival = np.where(other[:, None, :], _apart(fast_mean(samples, 2)), np.inf).min(-1)
    return want & (near <= RING_TWIN_MATCH) & (rival >= RING_TWIN_APART)


def _apart(colours: np.ndarray) -> np.ndarray:
    """The distance between every two of each card's symbols' colours (cards x 6 x 3):
    cards x 6 x 6."""
    return np.linalg.norm(colours[:, :, None] - colours[:, None, :], axis=-1)


def clipped_rim(second: np.ndarray, score: np.ndarray, member: np.ndarray, kind: np.ndarray,
                 alpha: np.ndarray, a: np.ndarray, blend: np.ndarray,
                 greys_outer: np.ndarray | float, model: ColourModel) -> np.ndarray:
    """`decide`'s runner-up score (cards x 6) with, for the symbols `blend` marks (solid
    coloured symbols on cards whose paper clipped), faint rim samples of another coloured ink
    (below FAINT_ALPHA, in its 12 outer samples) left out. Where the paper clipped, its white
    reference is darker than the paper in the clipped channels, so a blend of paper and the
    symbol's ink at its blurred rim is seen too bright there and its hue is pulled towards them
    (a red disc's rim fits a pale yellow): those samples are the print's own blends when its
    core is all strong ink (every middle sample its ink at SOLID_CORE_ALPHA). A rival symbol
    or an object of another colour shows strong ink, which still counts. The grey rim samples
    (`greys_outer`, as the disc rule in `decide` computed them; 0 where it found no disc)
    stay left out, as that rule leaves them."""
    if not blend.any():
        return second
    coloured = (kind >= 0) & ~model.neutral[np.maximum(kind, 0)]
    best = score.argmax(-1)
    faint = coloured & (alpha < FAINT_ALPHA) & (kind != best[..., None])
    faint[..., :7] = False
    drop = ((member & faint[..., None]) * a).sum(-2) + greys_outer   # cards x 6 x letters
    rim = np.sort(score - drop, axis=-1)
    return np.where(blend, rim[..., -2], second)


def split_print(kind: np.ndarray, alpha: np.ndarray, best: np.ndarray, rival: np.ndarray,
                 ok: np.ndarray, may: np.ndarray, model: ColourModel, match: PrintMatch
                 ) -> np.ndarray:
    """Per symbol (cards x 6; True only where `may`), whether a coloured reading `best` whose
    samples split between its ink and the coloured ink `rival` is its ink's print: its card
    reads a twin of it (a read symbol of that ink with a sample at SOLID_CORE_ALPHA, as
    `_twins` takes them), and `match` finds every rival sample that print's (see TWIN_MATCH).
    The print's samples are the twins' samples of their ink at SOLID_CORE_ALPHA, and the rival
    ink's on the card those of its read symbols likewise; `match` (card and symbol indices,
    the rival samples: k x 19, the card's print of the symbol's ink and of the rival ink: k x 6
    x 19 each) decides, from the samples' colours, only on cards whose paper clipped in every
    channel. A symbol has its ink's print beside it or is not judged so."""
    ci, si = np.nonzero(may)
    letter, other = best[ci, si], rival[ci, si]
    coloured = ~model.neutral
    strong = ((alpha[ci] >= SOLID_CORE_ALPHA) & (kind[ci] == letter[:, None, None]))   # k x 6 x 19
    read = ok[ci] & coloured[best[ci]]
    twin = read & (best[ci] == letter[:, None]) & strong.any(-1)
    own = twin[..., None] & strong
    beside = (read & (best[ci] == other[:, None]))[..., None] & (
        (alpha[ci] >= SOLID_CORE_ALPHA) & (kind[ci] == other[:, None, None]))
    out = np.zeros_like(may)
    has = own.any((1, 2))
    if not has.any():
        return out
    ci, si, own, beside, other = ci[has], si[has], own[has], beside[has], other[has]
    out[ci, si] = match(ci, si, kind[ci, si] == other[:, None], own, beside)
    return out


def match_prints(norm: np.ndarray, raw: np.ndarray, every: np.ndarray, ci: np.ndarray,
                 si: np.ndarray, rival: np.ndarray, own: np.ndarray, beside: np.ndarray
                 ) -> np.ndarray:
    """`split_print`'s test (k symbols: card `ci`, symbol `si`) of the symbol samples' colours
    (`norm`: cards x 6 x 19 x 3 paper-normalised RGB; `raw`: the same BGR as seen): on a card
    whose paper clipped in every channel (`every`, cards), whether each rival sample (`rival`,
    k x 19; at least one) clipped in some channel (CLIP_HIGH) and lies within TWIN_MATCH of
    some sample of the card's print of the symbol's ink (`own`, k x 6 x 19), and no sample of
    its print of the rival ink (`beside`) lies within TWIN_APART of it. A channel in which the
    rival sample clipped is a bound: at or past the clip at white (the print's sample may be as
    bright, not darker), at or below it at black (as dark, not brighter)."""
    k = len(ci)
    x = norm[ci, si]                                        # k x 19 x 3
    seen = raw[ci, si][..., ::-1]                           # RGB, as `norm`
    high, low = seen >= CLIP_HIGH, seen <= CLIP_LOW
    pts = norm[ci].reshape(k, 1, -1, 3)                     # k x 1 x 114 x 3
    diff = pts - x[:, :, None, :]                           # the print's minus the sample's
    d = np.where(high[:, :, None, :], np.maximum(-diff, 0.0),
                 np.where(low[:, :, None, :], np.maximum(diff, 0.0), np.abs(diff)))
    dist = np.sqrt((d * d).sum(-1))                         # k x 19 x 114
    near = np.where(own.reshape(k, 1, -1), dist, np.inf).min(-1) <= TWIN_MATCH
    apart = np.where(beside.reshape(k, 1, -1), dist, np.inf).min(-1) >= TWIN_APART
    good = near & apart & high.any(-1)
    return every[ci] & rival.any(-1) & (good | ~rival).all(-1)


def flat_beside_open(dark: np.ndarray, hollow: np.ndarray, blob: np.ndarray,
                      rings: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6): a grey blob (`blob`: read as a blurred ring) whose samples'
    darkness (`dark`, cards x 6 x 19) spans less than FLAT_BLOB, on a card where another symbol
    read as a ring (`rings`) keeps its hole open by OPEN_RING (`hollow`: its band's darkness
    beyond its middle's)."""
    if not blob.any():   # (nearly always: the rest is not needed)
        return blob
    flat = blob & (dark.max(-1) - dark.min(-1) < FLAT_BLOB)
    if not flat.any():
        return flat
    return flat & (rings & (hollow >= OPEN_RING)).any(-1, keepdims=True)


def open_ring(dark: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6): a ring whose hole shows, as `decide` takes it: a band darker
    (`dark`, cards x 6 x 19, the grey-ink fraction) by OPEN_HOLE than a middle that is not ink
    right through (a sharpened solid disc has a darker rim too, see BLURRED_RING_MIDDLE)."""
    middle = fast_mean(dark[..., :7])
    return (fast_mean(dark[..., 7:]) - middle >= OPEN_HOLE) & (middle <= BLURRED_RING_MIDDLE)


def _lopsided(dark: np.ndarray, middle: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6): of its outer samples' darkness beyond its middle's (`dark`:
    cards x 6 x 19, the 12 outer samples last, each opposite the one 6 places on), the share
    that the sample across the centre lacks: 0 for a band dark alike on both ends of every
    diameter, 1 for darkness on one side only."""
    excess = np.maximum(dark[..., 7:] - middle[..., None], 0.0)
    one, other = excess[..., :6], excess[..., 6:]
    return np.abs(one - other).sum(-1) / np.maximum((one + other).sum(-1), 1e-9)


def darker_than_allowed(mean_excess: np.ndarray, own_alpha: np.ndarray, kind: np.ndarray,
            best: np.ndarray, model: ColourModel, solid: np.ndarray | None = None
            ) -> np.ndarray:
    """Per symbol (cards x 6), whether a coloured reading `best` is darker than its ink allows
    (CLIPPED_GREY_EXCESS): the mean, over the samples of that ink, of their grey-ink fraction
    (`dark`) beyond what that ink's fraction gives (`ColourModel.ink_dark`). Paper mixed with
    a coloured ink is only as dark as the ink's share makes it; where the paper clipped, the
    white reference is too dark and every blend is seen brighter than it is, not darker; what
    is darker holds grey ink, a grey ring whose blends the clipped white has tinted. Only a
    weak reading (no sample of its ink at SOLID_CORE_ALPHA) or a hollow one (its ink
    HOLLOW_INK weaker in its middle, `_middle_ink`, than around it) is judged so, and not a
    weak one that `solid` (cards x 6; None: none) marks a solid print washed pale
    (`solid_wash`). `mean_excess` and `own_alpha` are `_ink_excess`'s."""
    # a heavy print is darker than the model's ink too, but its core reaches full strength
    # and holds the most ink; a grey blend fitted as a colour stays near half strength
    # everywhere, or is strongest round the ring's hole
    faint = own_alpha.max(-1) < SOLID_CORE_ALPHA
    if solid is not None:
        faint &= ~solid
    weak = faint | (_middle_ink(own_alpha, kind) <= fast_mean(own_alpha[..., 7:]) - HOLLOW_INK)
    coloured = ~model.neutral[best]
    some = (kind == best[..., None]).any(-1)
    return coloured & weak & some & (mean_excess > CLIPPED_GREY_EXCESS)


def solid_wash(own_alpha: np.ndarray, kind: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6), whether a reading is a solid print washed pale: every one of its
    7 middle samples its ink at SOLID_WASH_MIN at least, and that middle on average within
    SOLID_WASH_FLAT of the ring around it or stronger. `own_alpha` (cards x 6 x 19) is
    `_ink_excess`'s, `kind` the samples' letters, `best` the reading's."""
    mid = own_alpha[..., :7]
    return ((kind[..., :7] == best[..., None]).all(-1) & (mid.min(-1) >= SOLID_WASH_MIN)
            & (fast_mean(mid) >= fast_mean(own_alpha[..., 7:]) - SOLID_WASH_FLAT))


def _middle_ink(own_alpha: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6), the mean ink of its 7 middle samples (`own_alpha`, cards x 6 x
    19, its reading's ink fraction per sample) over those a colour explains, where at most one
    is unexplained (`kind` OTHER); the mean over all 7 otherwise. A phone's saturation boost
    clips a saturated disc's red and crushes its green, and a sample or two of its core fall
    just off the ink's line: one such sample is no hole. A ring's hole is paper, which a
    colour explains, and stays a hole."""
    mid = own_alpha[..., :7]
    unexplained = np.count_nonzero(kind[..., :7] == OTHER, -1)
    one = unexplained == 1
    return np.where(one, mid.sum(-1) / 6.0, fast_mean(mid))


def _twins(own_alpha: np.ndarray, best: np.ndarray, ok: np.ndarray, model: ColourModel
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weak, twin, peak): per symbol (cards x 6) whether it is a weak coloured reading (no
    sample of its ink at SOLID_CORE_ALPHA) and its strongest sample; per card, symbol and ink
    (cards x 6 x letters) whether that symbol is a read coloured symbol of that ink with such
    a core: a twin, against which `_outshone` and `thinner_than_twins` judge the weak readings of
    its ink. `own_alpha` is `_ink_excess`'s."""
    peak = own_alpha.max(-1)
    strong = peak >= SOLID_CORE_ALPHA
    coloured = ~model.neutral[best]
    twin = (ok & coloured & strong)[..., None] & (
        best[..., None] == np.arange(len(model.letters)))          # cards x 6 x letters
    return ok & coloured & ~strong, twin, peak


def _read_twins(peak: np.ndarray, best: np.ndarray, ok: np.ndarray, model: ColourModel
                ) -> np.ndarray:
    """Per card, symbol and ink (cards x 6 x letters), whether that symbol is a read coloured
    symbol of that ink whose strongest sample (`peak`, `_twins`'s) reaches TWIN_MEAN_PEAK: a
    twin `twin_mean` judges an unread symbol of its ink against (see TWIN_MEAN_PEAK)."""
    read = ok & ~model.neutral[best] & (peak >= TWIN_MEAN_PEAK)
    return read[..., None] & (best[..., None] == np.arange(len(model.letters)))


def clipped_weak_twins(alike: np.ndarray, barred: np.ndarray, score: np.ndarray,
                       best: np.ndarray, ok: np.ndarray, strong: np.ndarray,
                       samples: np.ndarray, model: ColourModel, allow: np.ndarray | None,
                       in_shade: np.ndarray | None, paper_clipped: np.ndarray,
                       clip_rivals: Callable[[np.ndarray, np.ndarray], np.ndarray]
                       ) -> np.ndarray:
    """Per symbol (cards x 6), of those `twin_mean` reads (`alike`) on a card whose paper
    clipped, the ones alike no twin at SOLID_CORE_ALPHA (`strong`, `_twins`'s) on a card where
    another ink explains the mean colour of such a symbol or of any symbol it reads
    (`clip_rivals`, as `decide` asks it of a pale symbol read by its mean colour there): the
    clip may have changed hues on that card, and a twin short of full strength is itself a
    blend whose hue it may have pulled (a cyan lamp's grey rings read blue, their card's
    pale red discs each other's twins: tests/vision/test_flagged.py). `barred`, `score`,
    `samples`, `allow`, `in_shade`: as `twin_mean` takes them."""
    weak = alike & paper_clipped[:, None]
    if not weak.any():
        return weak
    weak &= ~twin_mean(score, best, ok, barred, strong, samples, model, allow, in_shade)
    if not weak.any():
        return weak
    judged = weak | (ok & weak.any(1)[:, None])
    rivalled = clip_rivals(judged, best)
    return weak & (rivalled & judged).any(1)[:, None]


def thinner_than_twins(twins: tuple[np.ndarray, np.ndarray, np.ndarray], best: np.ndarray
             ) -> np.ndarray:
    """Per symbol (cards x 6), whether a weak coloured reading's strongest sample reaches at
    most TWIN_PEAK_SHARE of its twin's (`_twins`). Every symbol of one ink on a card is the same
    printed shape under the same lamp and blur, so twins peak alike (at least 0.68 of each
    other on crafted cards under seven lamps); one far thinner is not the print but something
    lying over the symbol that the paper around it does not betray: a hand's blurred edge
    whose skin over a yellow triangle reads faintly red, a glare spot washing it out. `twins`
    is what `_twins` gives."""
    weak, twin, peak = twins
    twin_peak = np.where(twin, peak[..., None], 0.0).max(1)     # 0 where there is none
    return weak & (peak <= TWIN_PEAK_SHARE * along1(twin_peak, best))


def _outshone(excess: np.ndarray, twins: tuple[np.ndarray, np.ndarray, np.ndarray],
              best: np.ndarray, solid: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6) of a card whose paper clipped, whether a weak coloured reading
    is not its ink's print, judged against its twin (`_twins`): twins look alike, so a weak
    reading darker than its ink makes it (`_ink_excess` above 0) and TWIN_EXCESS_GAP darker than
    its twin holds grey ink, a grey ring's blends tinted by the clipped white (see `decide`;
    one far thinner than its twin is `thinner_than_twins`, on every card), unless `solid`
    (cards x 6) marks it a solid print washed pale (`solid_wash`). `excess` is
    `_ink_excess`'s, `twins` what `_twins` gives."""
    weak, twin, _ = twins
    # per card and ink: the least dark twin (inf where there is none)
    twin_excess = np.where(twin, excess[..., None], np.inf).min(1)
    return weak & (excess > 0.0) & (
        excess - along1(twin_excess, best) >= TWIN_EXCESS_GAP) & ~solid


def _ink_excess(kind: np.ndarray, alpha: np.ndarray, dark: np.ndarray, best: np.ndarray,
                model: ColourModel) -> tuple[np.ndarray, np.ndarray]:
    """Per symbol (cards x 6), the mean over the samples of ink `best` of their grey-ink
    fraction beyond what that ink's fraction gives (`ColourModel.ink_dark`); and those
    samples' ink fractions clipped to 0-1, 0 for the others (cards x 6 x 19)."""
    own = kind == best[..., None]
    excess = dark - clip(alpha, 0.0, 1.2) * model.ink_dark[best][..., None]
    n = own.sum(-1)
    mean_excess = np.where(own, excess, 0.0).sum(-1) / np.maximum(n, 1)
    return mean_excess, np.where(own, clip(alpha, 0.0, 1.0), 0.0)


def _may_fall_back(ok: np.ndarray, mean_fit: tuple[np.ndarray, np.ndarray],
                   allow: np.ndarray | None) -> bool:
    """Whether any symbol (cards x 6) could be read by its mean colour in `decide`: both such
    readings need one not read yet, on an allowed card, whose mean fits an ink well (a cheap
    test that spares the rest of them on a card table read clean)."""
    mk, ma = mean_fit
    need = ~ok & (mk >= 0) & (ma >= FALLBACK_ALPHA)
    if allow is not None:
        need &= allow[:, None]
    return bool(need.any())


def _ring_bleed(kind: np.ndarray, alpha: np.ndarray, ring: np.ndarray, model: ColourModel,
                bleed: Bleed, allow: np.ndarray | None
                ) -> tuple[np.ndarray, np.ndarray]:
    """In a ring-shaped symbol (`ring`, cards x 6), samples seen as a coloured ink or as
    unexplained that are the grey ink plus chroma bled in from the paper (`bleed`: alpha, ok
    from `ColourModel.grey_with_bleed`) are given to the grey ink. JPEG and video keep colour
    at half resolution, so under a coloured lamp a thin dark ring takes on the paper's tint
    and fits a pale, shaded red or yellow; no printed coloured symbol is hollow, and a
    coloured ink's own samples do not lie on the grey-plus-paper-tint plane."""
    grey_k = model.grey_k
    if grey_k is None:
        return kind, alpha
    coloured_or_other = (kind == OTHER) | ((kind >= 0) & ~model.neutral[np.maximum(kind, 0)])
    where = ring if allow is None else ring & allow[:, None]
    if not callable(bleed):
        b_alpha, b_ok = bleed
        conv = b_ok & coloured_or_other & where[..., None]
        if not conv.any():
            return kind, alpha
        return np.where(conv, grey_k, kind), np.where(conv, b_alpha, alpha)
    # the bleed fit only for the ring-shaped symbols that have a sample to give
    where = where & coloured_or_other.any(-1)
    if not where.any():
        return kind, alpha
    b_alpha, b_ok = bleed(where)
    conv = b_ok & coloured_or_other[where]
    if not conv.any():
        return kind, alpha
    kind, alpha = kind.copy(), alpha.copy()
    kind[where] = np.where(conv, grey_k, kind[where])
    alpha[where] = np.where(conv, b_alpha, alpha[where])
    return kind, alpha
