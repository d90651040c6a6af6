"""What each pixel of a rectified Hexapod case shows, independent of the light. The board's own
white paper is the reference: its colour (the light's cast) comes from the quiet zones around
the markers that located the case (leaving out one whose glare clips it further than the
others), refined by the near-neutral paper and fill of the case; a channel that the light clips
(warm light over-exposes red first) is recovered from the grey things of the case (not from
pixels mixed from clipped readings, which keep the clipped white's false ratio: the clipped
paper and fill that such a white would leave unclipped refute it); a white clipped in all three
channels with no quiet zone below the clip takes the colour of the grid's board fill and card
paper lit below the clip (`fill_white`: printed near-white in every channel, they stay bright in
every channel where skin and ink do not; a lit arm running in from beyond the board, or from a
margin read as the table, is no evidence: `arm_entries`), and a pixel clipped in some
channels is read as the least saturated colour its reading allows (a clipped channel is only a
lower bound). A local grey gain (gradients, soft shadows, a hand's shadow) is the mean
brightness of the paper-like pixels within a cell and a half. Each pixel then gets one label
(`label_pixels`): one of the six inked kinds (blue, green, gold, red, violet stag, teal moth) at
ink level, in the insect's dark body or pale (highlights, blur); neutral DARK / DIM / MID /
LIGHT (a dung beetle's black tile, its grey beetle, paper and board fill); or OTHER, a colour
that is no kind's (skin, wood, a sleeve's odd hue); and, by saturation alone, a tint level
(`tint_levels`: unlit, greyish, faint or tinted) that tells grey surfaces from inked ones
whatever hue a cast gives them. Hue ranges were measured on rendered scenes; red and gold stop
short of skin tones (20-30 degrees). Everything is vectorised (NumPy / OpenCV), no per-pixel
loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..faces import HEXAPOD_INKS, PAPER_RGB
from .hexapod_markers import LAYOUT, CaseLayout, CasePose, printed_corners

# The printed inks (sRGB, `companion.faces`) of the kinds read by hue; K is read as a neutral.
INKS: dict[str, tuple[int, int, int]] = {k: v for k, v in HEXAPOD_INKS.items() if k != "K"}
KINDS = tuple(INKS)
NK = len(KINDS)
INK, BODY, PALE = 0, NK, 2 * NK       # a chromatic label is level + kind index
DARK, DIM, MID, LIGHT, OTHER = (3 * NK + i for i in range(5))
N_LABELS = 3 * NK + 5
CLIP = 250.0
PAPER_REF = 0.6      # paper is at least this share of the white in an unclipped channel
UNCLIP_SPAN = 0.8    # a clipped channel's ratio is searched up to this (log) above the white's
MAX_LIFT = 1.6       # a one-channel recovery of the white: at most this times the brighter
# unclipped channel. A warm lamp's paper reads red ~1.3-1.5 times green (a 0.5/0.8/1.2 cast: the
# reader test); a green sleeve passing for paper lifted it 1.7-2.4 times (held-out hand 91;
# 1.5 refused the lamp, 2.0 let a sleeve read a cell wrong: the two overlap a little)
KNEE = 0.9           # a reading below this share of the clip is far from clipping
ZONE_PAPER = 0.6     # quiet-zone paper is at least this share of its own zone's white: a hand
# over part of a zone reads 0.38-0.53 of it (hard 642), a soft shadow's edge across one 0.67 (559)
CHROMA_BIN = 0.02
PAPER_MODE = 0.25    # a chroma mode this share of the densest one may be the paper
CLIPPED_MODE = 0.05  # a mode this near (log) the clipped white's ratio may be its mixtures
REFUTE = 4.0         # a mode is refuted by this many times its pixels clipped warmer than it
CLIP_NOISE = 0.1     # a neutral this much below the clip may still read clipped (noise)
CLOSE_CELLS = 2.0    # gaps this wide between parts of an occluder are covered too
REACH_CELLS = 0.5    # clipped pixels this close to an occluder may be its lit part
LIT_RIM = 0.7        # an arm's skin beside its clipped middle is at least this share of clip
RIM_SHARE = 0.15     # and skin runs along at least this share of that middle's outline
GLARE_EDGE = 0.9     # glare on skin: this share of the skin touching it is lit near the clip
SLEEVE_KINDS = 4.0   # a region of one kind's ink this many tiles big is a sleeve
PINHOLE = 6          # px: a hole this small in a kind's labels is a noisy sensor's
LIT_CELLS = 0.5      # a lit hand that only its rim outlines covers this much of the grid,
LIT_SHARE = 0.1      # is clipped in all three channels over this share of it,
RIM_CELLS = 0.4      # and the board lies this close across most of its rim
PALM_CELLS = 3.0     # a palm covers at least this many cells' area
ACROSS = 0.9        # skin over this share of a table margin's line crosses it (an arm),
TABLE_SAT = 0.1     # hiding the table at the canvas's edge: saturation this far off the side's,
ARM_SIDE = 0.5      # over at most this share of the side (paper lit warm runs along it)
TABLE_SIDE = 0.8     # skin-like colour along this share of a side's margin is the table
FILL_SHARE = 0.6     # fill under a white clipped in all three: this share of the clip or more
FILL_MIN = 0.02      # and covering this share of the grid, it gives the light's colour
PAPER_TINT = np.array(PAPER_RGB[::-1], np.float32) / max(PAPER_RGB)   # BGR, card paper / white


def hue_deg(rgb: np.ndarray) -> np.ndarray:
    """Hue angle (degrees, -180..180) of RGB colours in the opponent plane."""
    rgb = np.asarray(rgb, np.float64)
    a = rgb[..., 0] - 0.5 * (rgb[..., 1] + rgb[..., 2])
    b = 0.8660254 * (rgb[..., 1] - rgb[..., 2])
    return np.degrees(np.arctan2(b, a))


_PROTO = np.array([INKS[k] for k in KINDS], np.float64) / 255.0
INK_HUES = hue_deg(_PROTO).astype(np.float32)
INK_V = _PROTO.max(axis=1).astype(np.float32)
HUE_LO = np.array([-25.0, -25.0, -14.0, -18.0, -25.0, -22.0], np.float32)
HUE_HI = np.array([25.0, 25.0, 20.0, 15.0, 45.0, 22.0], np.float32)


HUE_BINS = 256


def _hue_tables(hues: np.ndarray = INK_HUES) -> tuple[np.ndarray, np.ndarray]:
    """Per hue bin (256 over 360 degrees): the nearest kind, and 1 where the hue is within
    that kind's range, for the kinds' hue centres `hues` (degrees; default the design's)."""
    deg = (np.arange(HUE_BINS, dtype=np.float32) + 0.5) * 360.0 / HUE_BINS
    d = (deg[:, None] - hues + 180.0) % 360.0 - 180.0
    kind = np.abs(d).argmin(axis=1)
    dk = d[np.arange(HUE_BINS), kind]
    return kind.astype(np.uint8), ((dk >= HUE_LO[kind]) & (dk <= HUE_HI[kind])).astype(np.uint8)


HUE_KIND, HUE_NEAR = _hue_tables()


@lru_cache(maxsize=8)
def hue_tables(hues: tuple[float, ...] | None) -> tuple[np.ndarray, np.ndarray]:
    """`HUE_KIND`, `HUE_NEAR` for the kinds' hue centres `hues` (`ColourParams.hues`; None:
    the design's tables themselves), worked out once per set of hues."""
    if hues is None:
        return HUE_KIND, HUE_NEAR
    kind, near = _hue_tables(np.array(hues, np.float32))
    kind.flags.writeable = False
    near.flags.writeable = False
    return kind, near


def _gap_bins() -> tuple[int, int]:
    """The first and last hue bin (`Pixels.hue` rounds: bin b holds b - 0.5 to b + 0.5) wholly
    between red's ink range and gold's, the hues of no ink."""
    r, y = KINDS.index("R"), KINDS.index("Y")
    lo = float(INK_HUES[r] + HUE_HI[r]) * HUE_BINS / 360.0
    hi = float(INK_HUES[y] + HUE_LO[y]) * HUE_BINS / 360.0
    return int(np.ceil(lo + 0.5)), int(np.floor(hi - 0.5))


DEEP_HUES = _gap_bins()
INV_INK_V = np.zeros(256, np.float32)
INV_INK_V[:NK] = 1.0 / INK_V


@lru_cache(maxsize=8)
def inv_ink_v(ink_v: tuple[float, ...] | None) -> np.ndarray:
    """`INV_INK_V` for the kinds' ink brightness `ink_v` (`ColourParams.ink_v`; None: the
    design's table itself)."""
    if ink_v is None:
        return INV_INK_V
    out = np.zeros(256, np.float32)
    out[:NK] = 1.0 / np.array(ink_v, np.float32)
    out.flags.writeable = False
    return out


@dataclass(frozen=True)
class ColourParams:
    """Thresholds of the pixel labels (colours normalised so that white paper is 1)."""

    min_chroma: float = 0.06      # neutral below this chroma (plus 6 % of the brightness)
    min_sat: float = 0.2          # a kind's hue needs this saturation
    ink_sat: float = 0.45         # ink level needs this saturation...
    ink_level: float = 0.62       # ...and this share of the brightest same-kind pixel nearby
    body_level: float = 0.55      # the insect's body is at most this share
    dark_v: float = 0.3           # neutral DARK below, then DIM, MID, LIGHT
    dim_v: float = 0.5
    light_v: float = 0.72
    lit_v: float = 0.35           # tint levels (`tint_levels`): unlit below this brightness
    grey_sat: float = 0.2         # greyish up to this saturation, faint up to `faint_sat`
    faint_sat: float = 0.25
    # the kinds' hue centres (degrees, `KINDS` order) learned from a photo of the printed colour
    # chart (`hexapod_calibrate`, calibration/colours-hexapod.json); None: the design's INK_HUES
    hues: tuple[float, ...] | None = None
    # and their inks' brightness (largest channel, white paper = 1); None: the design's INK_V
    ink_v: tuple[float, ...] | None = None


Planes = tuple[np.ndarray, np.ndarray, np.ndarray]


@lru_cache(maxsize=8)
def _quiet_offsets(layout: CaseLayout) -> np.ndarray:
    """(n, 2) sample points (mm) in a marker's quiet zone, relative to its top-left corner."""
    m, q = layout.marker_mm, layout.quiet_mm
    t = np.linspace(0.1, 0.9, 5)
    pts = []
    for d in (0.3 * q, 0.7 * q):
        span = -d + t * (m + 2 * d)
        pts += [np.c_[span, np.full(5, -d)], np.c_[span, np.full(5, m + d)],
                np.c_[np.full(5, -d), span], np.c_[np.full(5, m + d), span]]
    return np.vstack(pts)


def _marker_points(pose: CasePose, offsets: np.ndarray, layout: CaseLayout) -> np.ndarray:
    """The image points (float32, markers x offsets, 2) of `offsets` (mm, from a marker's
    top-left corner) about each of the markers that located the case, in `pose.markers` order."""
    printed = printed_corners(layout, pose.player)
    pts = np.vstack([offsets + printed[mid][0] for mid in pose.markers])
    return pose.to_image(pts).astype(np.float32)


def case_white(frame: np.ndarray, pose: CasePose, layout: CaseLayout = LAYOUT) -> np.ndarray:
    """The board's white (BGR) from the quiet zones around the markers that located the case
    (seen; one found by its code alone may lie partly under a hand): the median of the brighter
    60 % of samples (`_quiet_white`), its colour taken from the samples well below the clip
    when it clipped in all three channels (`_dim_quiet_white`; only samples that are paper, not
    much darker than the rest of their own zone: `_zone_paper`); zeros when fewer than 12
    samples fall inside the frame. One marker whose quiet zone pushes the white into clipping
    in a channel that the others' paper keeps below the clip is left out (`_without_glare`)."""
    offsets = _quiet_offsets(layout)
    img = _marker_points(pose, offsets, layout)
    owner = np.repeat(np.arange(len(pose.markers)), len(offsets))
    h, w = frame.shape[:2]
    ok = (img[:, 0] >= 0) & (img[:, 0] <= w - 1) & (img[:, 1] >= 0) & (img[:, 1] <= h - 1)
    if ok.sum() < 12:
        return np.zeros(3, np.float32)
    s = cv2.remap(frame, img[ok, 0][None], img[ok, 1][None], cv2.INTER_LINEAR)[0]
    s = s.astype(np.float32)
    owner = owner[ok]
    s, white = _without_glare(s, owner)
    if clipped_channels(white) == 3:
        # (`_without_glare` keeps every sample of a white clipped in all three channels)
        lit = _lit_markers(frame, pose, layout)
        dim = ~lit[owner] & (s.max(axis=1) < KNEE * CLIP)
        if dim.sum() >= 12:      # (fewer: `_dim_quiet_white` keeps the white as it is)
            white = _dim_quiet_white(s[dim & _zone_paper(s, owner)], white)
    return white


def _zone_paper(samples: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """For each quiet-zone sample (`owner`: its marker), whether it is at least `ZONE_PAPER`
    of its own marker's quiet-zone white (`_quiet_white`, channel sums). A quiet zone is a few
    millimetres of one sheet under one lamp: a gradient or a broad shadow dims it whole, while
    a sample much darker than the paper beside it is something over the paper (a hand, a
    finger, its shadow), whose colour is not the light's."""
    lum = samples.sum(axis=1)
    keep = np.zeros(len(samples), bool)
    for i in np.unique(owner):
        own = owner == i
        keep[own] = lum[own] >= ZONE_PAPER * float(_quiet_white(samples[own]).sum())
    return keep


@lru_cache(maxsize=8)
def _module_offsets(layout: CaseLayout) -> np.ndarray:
    """(49, 2) sample points (mm) over a marker's inner modules (within its black border),
    relative to its top-left corner."""
    t = np.linspace(0.2, 0.8, 7) * layout.marker_mm
    return np.stack(np.meshgrid(t, t), axis=-1).reshape(-1, 2)


def _lit_markers(frame: np.ndarray, pose: CasePose, layout: CaseLayout = LAYOUT) -> np.ndarray:
    """For each of `pose.markers`, whether its own white modules read at the clip: the median
    of the brightest quarter of its inner samples at least `KNEE` of the clip. Light falls off
    smoothly over a marker and its quiet zone (a gradient, a lamp's fall-off, a broad shadow),
    so quiet-zone paper in dimmer light lies beside a marker whose white is dim too; dim
    quiet-zone samples beside a marker whose white clips are something over the paper (a hand,
    a finger, a sleeve), and their colour is not the light's."""
    offsets = _module_offsets(layout)
    img = _marker_points(pose, offsets, layout)
    h, w = frame.shape[:2]
    img[:, 0] = np.clip(img[:, 0], 0, w - 1)
    img[:, 1] = np.clip(img[:, 1], 0, h - 1)
    s = cv2.remap(frame, img[:, 0][None], img[:, 1][None], cv2.INTER_LINEAR)[0]
    v = np.sort(s.max(axis=1).reshape(len(pose.markers), len(offsets)), axis=1)
    top = v[:, -(len(offsets) // 4):].astype(np.float64)
    # np.median's value (its rows are sorted: their middle, or the mean of the middle two)
    h = top.shape[1] // 2
    return (top[:, h] if top.shape[1] % 2 else (top[:, h - 1] + top[:, h]) / 2) >= KNEE * CLIP


def _quiet_white(samples: np.ndarray) -> np.ndarray:
    """The white (BGR) of quiet-zone `samples`: the median of the brighter 60 %."""
    lum = samples.sum(axis=1)
    return _median(samples[lum >= _percentile(lum, 40)], axis=0).astype(np.float32)


def clipped_channels(white: np.ndarray) -> int:
    """How many channels of a white (a median of samples) lie at the sensor's clip."""
    return int((white >= CLIP - 5.0).sum())


def _without_glare(samples: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The quiet-zone `samples` (`owner`: each one's marker) to take the white from, and that
    white. Glare is a specular spot, local: it can brighten one marker's paper into clipping,
    not the paper of the others under the same lamp. So when the white of the other markers
    (at least two, with 12 samples or more) clips in fewer channels than the white of all, the
    marker left out was under glare: its samples are dropped (the one whose absence leaves the
    fewest clipped channels, then the dimmest white). A clipped channel only bounds the paper
    from below, so the unclipped reading of the others is the better one. A white clipped in
    all three channels is left to `_dim_quiet_white`."""
    white = _quiet_white(samples)
    n_clip = clipped_channels(white)
    # unclipped: nothing to drop; clipped in all three: the colour comes from the samples
    # well below the clip (`_dim_quiet_white`), which glare's clipped samples are not
    if n_clip in (0, 3):
        return samples, white
    markers = np.unique(owner)
    if len(markers) < 3:
        return samples, white
    best = None
    for i in markers:
        keep = owner != i
        if keep.sum() < 12:
            continue
        other = _quiet_white(samples[keep])
        key = (clipped_channels(other), float(other.sum()))
        if key[0] < n_clip and (best is None or key < best[0]):
            best = (key, keep, other)
    if best is None:
        return samples, white
    return samples[best[1]], best[2]


def _dim_quiet_white(samples: np.ndarray, white: np.ndarray) -> np.ndarray:
    """`white` (BGR, clipped in all three channels) given the colour of the quiet-zone
    `samples` that lie well below the clip, when at least 12 do: a marker in dimmer light (a
    gradient, a shadow) shows the same paper under the same light unclipped, so its colour is
    the light's, brightened to the least white that every clipped reading allows (each
    channel at least what was read). Without such samples the white stays as it is."""
    dim = samples[samples.max(axis=1) < KNEE * CLIP]
    if len(dim) < 12:
        return white
    colour = _quiet_white(dim)
    if float(colour.min()) < 16.0:
        return white
    return (colour * float((white / colour).max())).astype(np.float32)


def unclip_white(white: np.ndarray, canvas: np.ndarray, raw_v: np.ndarray | None = None,
                 split: Planes | None = None) -> np.ndarray:
    """`white` (BGR) with its clipped channels recovered from the case's paper (warm light
    over-exposes red first, then green). With one channel clipped, unclipped pixels whose other
    two channels stand in the white's ratio are neutral, and their median ratio of the clipped
    channel gives the white's, unless that is more than MAX_LIFT times the brighter unclipped
    channel, further than a lamp the camera balanced leaves paper: then those
    pixels were not the paper (green sleeves, blue about red, lifted a white clipped in green
    1.7-2.4 times) and the white stays as it is. With two clipped, the one unclipped channel
    finds the paper: the same sheet under the same light is about as bright in it as the quiet
    zones (ink, fill and skin are darker there), and the least warm dense mode of the pairs of
    ratios of such pixels, each at least the clipped white's, gives the white (a lit arm may be
    the densest). A mode at the clipped white's own ratio (`CLIPPED_MODE`) is passed over when
    the clipped pixels refute it (`_against`, `REFUTE`), and so are the refuted modes after it:
    pixels mixed from clipped readings (the reader's resampling, the camera's demosaicing and
    JPEG) keep that false ratio, or lie between it and the paper's when blended with darker
    neutrals, and may form the least warm modes, while under a white that cool the board's paler
    neutrals (fill, card paper) would be unclipped, and are not. The white never drops below its
    clipped values; with all three clipped nothing is known and it stays as it is. `raw_v` (the
    canvas's largest channel) and `split` (its planes), when the caller has them, save
    recomputing them."""
    white = np.asarray(white, np.float64).copy()
    hot = np.flatnonzero(white >= CLIP - 5.0)
    if not 1 <= len(hot) <= 2 or white.min() < 8.0:
        return white.astype(np.float32)
    # pixels are taken channel by channel from the planes (float32 -> float64 is exact):
    # selecting rows of an (n, 3) array, and reducing over its channels, is several times slower
    planes = list(split) if split is not None else cv2.split(canvas)
    if raw_v is None:
        raw_v = cv2.max(cv2.max(planes[0], planes[1]), planes[2])
    ok = raw_v < CLIP
    if len(hot) == 1:
        ch = int(hot[0])
        a, b = (i for i in range(3) if i != ch)
        sel = ok & (planes[a] > 15.0) & (planes[b] > 15.0)
        pa, pb, pc = (planes[i][sel].astype(np.float64) for i in (a, b, ch))
        grey = np.abs(np.log(pa / pb) - np.log(white[a] / white[b])) < 0.04
        ratio = pc[grey] / pa[grey]
        ratio = ratio[ratio >= 0.95 * white[ch] / white[a]]
        if len(ratio) >= 100:
            lift = float(_median(ratio)) * white[a]
            if lift <= MAX_LIFT * max(white[a], white[b]):
                white[ch] = max(white[ch], lift)
        return white.astype(np.float32)
    a = int(next(i for i in range(3) if i not in hot))
    c1, c2 = (int(i) for i in hot)
    low = cv2.min(cv2.min(planes[0], planes[1]), planes[2])
    sel = ok & (planes[a].astype(np.float64) >= PAPER_REF * white[a]) & (low >= 1.0)
    pa = planes[a][sel].astype(np.float64)[:, None]
    lr = np.log(np.stack([planes[c1][sel], planes[c2][sel]], axis=1).astype(np.float64) / pa) \
        - np.log(white[[c1, c2]] / white[a])
    lr = lr[(lr >= -0.05).all(axis=1) & (lr <= UNCLIP_SPAN).all(axis=1)]
    if len(lr) < 100:
        return white.astype(np.float32)
    nb = round(UNCLIP_SPAN / CHROMA_BIN) + 1
    idx = np.clip(np.round(lr / CHROMA_BIN), 0, nb - 1).astype(np.int64)
    hist = np.bincount(idx[:, 0] * nb + idx[:, 1], minlength=nb * nb).astype(np.float32)
    hist = cv2.GaussianBlur(hist.reshape(nb, nb), (5, 5), 1.0)
    # the paper is the least warm of the dense modes: a lit arm (skin is orange under any
    # light) can outnumber the paper it covers and forms a warmer mode, never a cooler one
    peaks = np.argwhere((hist >= cv2.dilate(hist, np.ones((5, 5), np.uint8))) &
                        (hist >= PAPER_MODE * hist.max()))
    # paper-bright pixels (unclipped in a) clipped in a hot channel: the evidence a white
    # must explain (`_against`), as their share of the white in a
    lit = (planes[a] < CLIP) & (planes[a].astype(np.float64) >= PAPER_REF * white[a])
    share = planes[a][lit].astype(np.float64) / white[a]
    clipped = (planes[c1][lit] >= CLIP, planes[c2][lit] >= CLIP)
    best, skipped = None, False
    for i1, i2 in sorted(peaks.tolist(), key=lambda p: (p[0] + p[1], p)):
        cand = (np.abs(idx[:, 0] - i1) <= 2) & (np.abs(idx[:, 1] - i2) <= 2)
        n = int(cand.sum())
        if n < 50:
            continue
        m = _median(lr[cand], axis=0)      # np.median's values, without its overhead
        best = m if best is None else best
        # a mode at the clipped white's own ratio may be pixels mixed from clipped readings:
        # passed over when the clipped paper-bright pixels refute it, and so is a refuted mode
        # after it (clipped readings blended with darker neutrals lie between that ratio and
        # the paper's). Otherwise a mode is not tested: the pixels that argue against the
        # paper's may be a lit hand's clipped skin
        if (skipped or float(m.max()) < CLIPPED_MODE) and \
                _against(share, clipped, white[[c1, c2]] * np.exp(np.maximum(m, 0.0))) > \
                REFUTE * n:
            skipped = True
            continue
        best = m
        break
    if best is None:
        return white.astype(np.float32)
    m1, m2 = best
    white[c1] = max(white[c1], white[c1] * float(np.exp(m1)))
    white[c2] = max(white[c2], white[c2] * float(np.exp(m2)))
    return white.astype(np.float32)


def _against(share: np.ndarray, hot: tuple[np.ndarray, np.ndarray], hot_white: np.ndarray
             ) -> int:
    """How many paper-bright pixels (`share`: their unclipped channel's share of the white's)
    a white whose clipped channels are `hot_white` calls warmer than itself: a pixel clipped
    in a hot channel (`hot`) where a neutral that bright would stay below the clip under that
    white by more than the sensor's noise (`CLIP_NOISE`). Under the true white only warm
    surfaces (skin, wood) do so; under one too cool, the board's own paper and fill do."""
    out = np.zeros(len(share), bool)
    for h, w in zip(hot, hot_white, strict=True):
        out |= h & (share * w < (1.0 - CLIP_NOISE) * CLIP)
    return int(out.sum())


_K3 = np.ones((3, 3), np.uint8)


def _median(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """`np.median(x, axis)` of a 1-D array (`axis` None) or along `axis` 0, bit for bit (the
    middle value, or the mean of the middle two in the array's dtype). A partition at the upper
    middle puts that order statistic in place and every smaller one before it, so the lower
    middle is the largest of those (NaN last, as a sort puts it): NumPy's vectorised selection
    costs a quarter of its sort on a canvas's pixels, and the values are the same."""
    n = len(x)
    h = n // 2
    p = np.partition(x, h, axis=0)
    return p[h] if n % 2 else (p[:h].max(axis=0) + p[h]) / 2


def _level_median(levels: np.ndarray, at: np.ndarray, scale: np.floating) -> np.floating:
    """`_median` of the plane `levels * scale` at the flat indices `at`, bit for bit, from the
    8-bit `levels` (uint8; the plane's values are `levels` in its float dtype times the
    positive number `scale`, as `normalise` makes them): rounding a product is monotone, so the
    middle values of the plane are its middle levels scaled, and 256 counts find those in one
    pass over the pixels, a few times cheaper than a partition of them."""
    n = len(at)
    below = np.bincount(levels.reshape(-1).take(at), minlength=256).cumsum()
    h = n // 2
    hi = scale * np.float32(np.searchsorted(below, h, side="right"))
    if n % 2:
        return hi
    return (scale * np.float32(np.searchsorted(below, h - 1, side="right")) + hi) / 2


def _percentile(x: np.ndarray, q: float) -> np.floating:
    """`np.percentile(x, q)` (method 'linear', a 1-D float array, `q` a Python number) bit for
    bit: the same virtual index, interpolation weight and float arithmetic as NumPy's
    `_quantile` / `_lerp` with a weak `q`, on the two order statistics taken by one partition
    at the upper one (the lower is the largest value before it, as in `_median`). NumPy's own
    call costs about 0.1 ms of checks and a two-index partition, many times the work on these
    short arrays."""
    n = len(x)
    at = (n - 1) * float(np.true_divide(q, 100))
    if at >= n - 1:                  # NumPy takes the last value at both ends, weight at + 1
        lo, hi, t = n - 1, n - 1, at + 1.0
    else:
        lo = int(np.floor(at))
        hi, t = lo + 1, at - lo
    if hi == lo:
        a = b = x.max()              # the last of a sorted copy (NaN when there is one)
    else:
        p = np.partition(x, hi)
        a, b = p[:hi].max(), p[hi]
    diff = b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def select(cond: np.ndarray, a: np.ndarray, b: np.ndarray | float | int) -> np.ndarray:
    """`np.where(cond, a, b)` for a boolean `cond`, an array `a` of its shape and `b` an array
    of a's shape and dtype or a number (cast to a's dtype, as `np.where` does with a Python
    number): the same values, copied under a mask by OpenCV, many times faster than NumPy's
    `where` on a canvas."""
    if not a.size:
        return np.where(cond, a, b)
    out = b.copy() if isinstance(b, np.ndarray) else np.full_like(a, b)
    return cv2.copyTo(a, cond.view(np.uint8), out)


def _box(img: np.ndarray, k: int) -> np.ndarray:
    return cv2.blur(img, (k, k), borderType=cv2.BORDER_REFLECT)


def normalise(canvas: np.ndarray, white: np.ndarray, px: int, split: Planes | None = None,
              raw_v: np.ndarray | None = None, levels: Planes | None = None) -> Planes:
    """The canvas (BGR float32) divided by the paper's colour and by a local grey gain, so that
    white paper is (1, 1, 1) wherever it lies, as its B, G, R planes; `px` is the canvas's
    pixels per cell; `split`, the canvas's planes, and `raw_v`, their largest channel, if the
    caller has them already; `levels`, those planes as the 8-bit image they were made from
    (uint8, the same values), if there is one: the paper's median colour is then counted
    (`_level_median`)."""
    cb, cg, cr = split if split is not None else cv2.split(canvas)
    if raw_v is None:
        raw_v = cv2.max(cv2.max(cb, cg), cr)
    clipped = raw_v >= CLIP
    if white.max() < 16.0:
        white = np.full(3, float(np.percentile(raw_v, 95)), np.float32)
    white = unclip_white(white, canvas, raw_v, (cb, cg, cr))
    # paper and board fill, unclipped and near-neutral, refine the cast (design: paper tint)
    inv = 1.0 / np.maximum(white, 4.0)
    b0, g0, r0 = cb * inv[0], cg * inv[1], cr * inv[2]
    v0 = cv2.max(cv2.max(b0, g0), r0)
    c0 = v0 - cv2.min(cv2.min(b0, g0), r0)
    unclipped = ~clipped
    at = np.flatnonzero((c0 < 0.15 * v0) & unclipped)
    if len(at) > 0.02 * v0.size:
        # the near-neutral pixels found once (a take: boolean indexing is several times
        # slower), the brighter of them picked among those indices (the same pixels in the
        # same order as a second mask of the canvas)
        v_ok = v0.reshape(-1).take(at)
        at = at[v_ok >= 0.8 * _percentile(v_ok, 90)]
        tint = np.array([_median(p.reshape(-1).take(at)) for p in (b0, g0, r0)]) \
            if levels is None else \
            np.array([_level_median(lv, at, k) for lv, k in zip(levels, inv, strict=True)])
        white = white * tint / PAPER_TINT
    inv = (1.0 / np.maximum(white, 4.0)).astype(np.float32)
    b, g, r = cb * inv[0], cg * inv[1], cr * inv[2]
    if clipped.any():
        b, g, r = _nearest_grey((b, g, r), (cb, cg, cr), clipped)
    v = cv2.max(cv2.max(b, g), r)
    c = v - cv2.min(cv2.min(b, g), r)
    neutral = (c < 0.1 * v + 0.02) & unclipped
    vn = select(neutral, v, 0.0)
    peak = cv2.dilate(vn, cv2.getStructuringElement(cv2.MORPH_RECT, (px | 1, px | 1)))
    is_cand = neutral & (vn >= 0.85 * peak) & (vn > 0.05)
    inv_gain = 1.0 / _local_gain(vn, is_cand, px)
    return b * inv_gain, g * inv_gain, r * inv_gain


def colour_unknown(white: np.ndarray) -> bool:
    """Whether `white` (BGR) was read from clipped samples alone: at the clip in all three
    channels and never lifted above the 8-bit range (`_dim_quiet_white` scales a colour it
    found up to the clip, so one channel at least then lies above it). Such a reading says
    nothing about the light's colour: it is the sensor's limit, not the paper's cast."""
    return clipped_channels(white) == 3 and float(white.max()) <= CLIP + 5.5


def fill_white(white: np.ndarray, planes: Planes, raw_v: np.ndarray, margin: int,
               skin: Callable[[], np.ndarray] | None = None, levels: Planes | None = None
               ) -> np.ndarray:
    """`white` (BGR, clipped in all three channels, colour unknown) given the colour of the
    grid's pixels bright in every channel, warm against it and below the clip (`margin`: the
    canvas's border beyond the grid, the sheet's clipped paper), when they cover `FILL_MIN` of
    the grid and outnumber those as bright that read near-neutral or clipped in all three
    channels. Under a light that clips the white in all three channels, the board fill and
    card paper (printed at 0.84 of white or more in every channel) are what reads at least
    `FILL_SHARE` of the clip in every channel where the light is even, and so show its colour;
    skin, wood and inks, reflecting far less in some channel, mostly do not. When most of
    them read neutral or clip, the light is about as neutral as the clipped white says and
    the warm ones are a lit hand's skin: the white is left as it is. Otherwise it is
    brightened from that colour to the least white that every clipped reading allows (each
    channel at least what was read). `skin`, when given, finds the lit hand directly (a uint8
    mask of the canvas's shape, worked out only when the warm pixels could be enough): its
    warm pixels are then no evidence, and the pixels clipped in all three channels, which
    carry no colour (a warm light clips the brighter fill in all three as readily as a
    neutral one) and only stood in for that skin, no longer count against the warm ones.
    `levels`: the planes as the 8-bit image they were made from, if there is one (the
    colour's median is then counted, `_level_median`)."""
    inner = (slice(margin, raw_v.shape[0] - margin), slice(margin, raw_v.shape[1] - margin))
    cb, cg, cr = (p[inner] for p in planes)
    low, high = cv2.min(cv2.min(cb, cg), cr), raw_v[inner]
    bright = low >= FILL_SHARE * CLIP
    lit = bright & (high < CLIP)
    # warm against the clipped white: saturation (largest less smallest channel over the
    # largest) at least the skin test's lower bound, which the fill's cast passed
    warm = lit & (high - low >= 0.15 * high)
    n_warm = np.count_nonzero(warm)
    # the bright ones near-neutral below the clip
    against = np.count_nonzero(lit) - n_warm
    if skin is None:
        # those clipped in all three channels stand in for a lit hand's skin
        against += np.count_nonzero(low >= CLIP)
    elif n_warm >= FILL_MIN * bright.size and n_warm > against:
        # (fewer warm pixels, or no more than the neutral ones, fail with or without the skin)
        warm &= skin()[inner] == 0
    at = np.flatnonzero(warm)
    if len(at) < FILL_MIN * bright.size or len(at) <= against:
        return white
    colour = np.array([_median(p.reshape(-1).take(at)) for p in (cb, cg, cr)] if levels is None
                      else [_level_median(lv[inner], at, cb.dtype.type(1.0)) for lv in levels],
                      np.float64)
    return (colour * float((white / colour).max())).astype(np.float32)


def _local_gain(vn: np.ndarray, is_cand: np.ndarray, px: int) -> np.ndarray:
    """The local grey gain (float32) of each pixel: the mean brightness `vn` of the paper-like
    pixels `is_cand` within a cell and a half (box of `px` per cell), or within four cells where
    too few are that near, at least half the four cells' mean; the median of all of them where
    none is within four cells (1 without any)."""
    cand = is_cand.astype(np.float32)
    wv = vn * cand
    k1, k4 = round(1.5 * px) | 1, round(4 * px) | 1
    n1, n4 = _box(cand, k1), _box(cand, k4)
    near4 = n4 > 1e-3
    if near4.all():
        # a candidate within 4 cells of every pixel (the usual case): the floor of the divisor
        # and the median of all candidates change nothing there, and are not worked out
        g4 = _box(wv, k4) / n4
    else:
        fallback = float(_median(vn[is_cand])) if is_cand.any() else 1.0
        g4 = select(near4, _box(wv, k4) / np.maximum(n4, 1e-3), fallback)
    g1 = select(n1 > 0.02, _box(wv, k1) / np.maximum(n1, 1e-3), g4)
    return np.maximum(np.maximum(g1, 0.5 * g4), 0.02).astype(np.float32, copy=False)


def _nearest_grey(norm: Planes, raw: Planes, clipped: np.ndarray | None = None) -> Planes:
    """Normalised planes `norm` with each clipped channel (its `raw` value at the clip) raised
    to the pixel's brightest unclipped channel when that is higher (to the brightest of all
    when every channel clipped). A clipped reading only bounds the channel from below; under a
    white brighter than the clip in that channel (recovered by `unclip_white`, or paper lit
    more than the white's reference), read as is it would turn clipped paper a false cool tint.
    Of the colours the reading allows, this one is no more saturated than what was measured and
    no brighter. `clipped`, the pixels with any channel at the clip, when the caller has it:
    only those pixels change, and when they are few only they are worked on."""
    at = np.flatnonzero(clipped) if clipped is not None else None
    if at is not None and len(at) <= clipped.size // 16:
        return _nearest_grey_at(norm, raw, at)
    hot = [p >= CLIP for p in raw]
    top = None
    for n, h in zip(norm, hot, strict=True):
        lit = select(h, np.zeros_like(n), n)
        top = lit if top is None else cv2.max(top, lit)
    every = hot[0] & hot[1] & hot[2]
    if every.any():
        top = select(every, cv2.max(cv2.max(norm[0], norm[1]), norm[2]), top)
    out = [select(h, cv2.max(n, top), n) for n, h in zip(norm, hot, strict=True)]
    return out[0], out[1], out[2]


def _nearest_grey_at(norm: Planes, raw: Planes, at: np.ndarray) -> Planes:
    """`_nearest_grey` worked out at the flat indices `at` only (every pixel with a channel at
    the clip; the others keep their values): the same element-wise maxima on a few per cent of
    the canvas."""
    n = [np.ascontiguousarray(p).reshape(-1).take(at) for p in norm]
    hot = [np.ascontiguousarray(p).reshape(-1).take(at) >= CLIP for p in raw]
    lit = [np.where(h, np.zeros_like(x), x) for x, h in zip(n, hot, strict=True)]
    top = np.maximum(np.maximum(lit[0], lit[1]), lit[2])
    every = hot[0] & hot[1] & hot[2]
    top = np.where(every, np.maximum(np.maximum(n[0], n[1]), n[2]), top)
    out = []
    for p, x, h in zip(norm, n, hot, strict=True):
        plane = np.array(p, copy=True, order="C")
        plane.reshape(-1)[at] = np.where(h, np.maximum(x, top), x)
        out.append(plane)
    return out[0], out[1], out[2]


@dataclass(frozen=True, eq=False)
class Pixels:
    """Per-pixel colour measures of a normalised canvas: brightness (largest channel), chroma
    (largest minus smallest), saturation (chroma / brightness) and hue in 256 bins."""

    v: np.ndarray
    c: np.ndarray
    sat: np.ndarray
    hue: np.ndarray

    @classmethod
    def of(cls, planes: Planes) -> Pixels:
        """The measures of normalised B, G, R planes."""
        b, g, r = planes
        v = cv2.max(cv2.max(b, g), r)
        c = v - cv2.min(cv2.min(b, g), r)
        sat = c / cv2.max(v, 1e-3)
        deg = cv2.phase(r - 0.5 * (g + b), 0.8660254 * (g - b), angleInDegrees=True)
        hue = cv2.convertScaleAbs(deg, alpha=HUE_BINS / 360.0)   # uint8, rounds, saturates
        return cls(v, c, sat, hue)


_U8 = {name: np.uint8(value) for name, value in
       (("INK", INK), ("BODY", BODY), ("PALE", PALE), ("DARK", DARK), ("DIM", DIM),
        ("MID", MID), ("LIGHT", LIGHT), ("OTHER", OTHER))}


def label_pixels(pix: Pixels, px: int, params: ColourParams | None = None) -> np.ndarray:
    """A uint8 label per pixel (see the module docstring). Ink and body are told apart by
    contrast with the brightest pixel of the same relative brightness within 0.3 cell, so blur
    and a wrong gain shift both alike."""
    params = params or ColourParams()
    v, c, sat = pix.v, pix.c, pix.sat
    hue_kind, hue_near = hue_tables(params.hues)
    kind = cv2.LUT(pix.hue, hue_kind)
    neutral = (c < params.min_chroma + 0.06 * v) | (sat < 0.15)
    grey = _grey_levels(v, params)
    hued = ~neutral & (cv2.LUT(pix.hue, hue_near) > 0) & (sat >= params.min_sat)
    vr = v * cv2.LUT(kind, inv_ink_v(params.ink_v))   # brightness relative to the kind's ink
    k = round(0.6 * px) | 1
    top = cv2.dilate(vr * hued, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    level = select((sat >= params.ink_sat) & (vr >= params.ink_level * top),
                   np.full_like(kind, _U8["INK"]),
                   select(vr <= params.body_level * top, np.full_like(kind, _U8["BODY"]),
                          _U8["PALE"]))
    return select(neutral, grey, select(hued, level + kind, _U8["OTHER"]))


def _grey_levels(v: np.ndarray, params: ColourParams) -> np.ndarray:
    """The neutral label of each brightness: DARK below `dark_v`, then DIM, MID, LIGHT. With
    the thresholds in order (and brightness never NaN: finite planes over a gain of at least
    0.02) it is DARK plus the number of thresholds reached, far cheaper than nested `where`."""
    if not params.dark_v <= params.dim_v <= params.light_v:
        return np.where(v < params.dark_v, _U8["DARK"], np.where(
            v < params.dim_v, _U8["DIM"], np.where(v < params.light_v, _U8["MID"],
                                                   _U8["LIGHT"])))
    grey = (v >= params.dark_v).view(np.uint8) + (v >= params.dim_v).view(np.uint8)
    grey += (v >= params.light_v).view(np.uint8)
    grey += _U8["DARK"]
    return grey


# per kind: 1 for its ink and body labels (`occluder_mask`'s sleeves)
_KIND_LUT = np.zeros((NK, 256), np.uint8)
_KIND_LUT[np.arange(NK), INK + np.arange(NK)] = 1
_KIND_LUT[np.arange(NK), BODY + np.arange(NK)] = 1

UNLIT, GREYISH, FAINT, TINTED = 0, 1, 2, 3
N_TINTS = 4


def tint_levels(pix: Pixels, params: ColourParams | None = None) -> np.ndarray:
    """A uint8 tint level per pixel, by saturation alone (whatever hue or label): UNLIT (too
    dark for a hue to mean much), GREYISH (at most `grey_sat`), FAINT (up to `faint_sat`) or
    TINTED. Every kind's ink is far more saturated (0.45 and up), so a grey surface that a
    residual colour cast, clipping or JPEG speckle pushes off neutral stays GREYISH or FAINT
    where its labels may already be a pale kind or OTHER."""
    params = params or ColourParams()
    level = (pix.sat > params.grey_sat).view(np.uint8) + \
        (pix.sat > params.faint_sat).view(np.uint8) + np.uint8(GREYISH)
    # UNLIT is 0: zeroing the dark pixels by a product is cheaper than a masked assignment
    return np.multiply(level, (pix.v >= params.lit_v).view(np.uint8), out=level)


def _regions_of(lab: np.ndarray, n: int, keep: np.ndarray) -> np.ndarray:
    """uint8 mask of the pixels whose label (of `n`) is one of `keep`: a lookup table, far
    cheaper than `np.isin` over the whole canvas."""
    keep = np.asarray(keep, np.intp).ravel()
    if len(keep) == 1:                      # one region (the usual case): a comparison
        return (lab == keep[0]).view(np.uint8)
    lut = np.zeros(max(n, 256), np.uint8)
    lut[keep] = 1
    if n <= 256 and lab.dtype != np.uint8:  # OpenCV's table lookup: uint8 labels, 256 entries
        return cv2.LUT(lab.astype(np.uint8), lut)
    return lut[lab]


def _labelled(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(count, labels, statistics) of the 8-connected regions of `mask`. 16-bit labels (fewer
    components than pixels: they fit when the pixels do) take OpenCV's statistics about half
    the time of 32-bit ones; the regions are the same."""
    ltype = cv2.CV_16U if mask.size <= np.iinfo(np.uint16).max else cv2.CV_32S
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=ltype)
    return n, lab, stats


def _big_regions(mask: np.ndarray, min_area: float, opened: bool = True) -> np.ndarray:
    """uint8 mask of the 8-connected regions of `mask` (opened 3 x 3 unless not `opened`) of
    at least `min_area` pixels."""
    if opened:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
        # no region can be that big when all of them together are not: no labelling needed
        if cv2.countNonZero(mask) < min_area:
            return np.zeros_like(mask)
    n, lab, stats = _labelled(mask)
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= min_area)
    big = big[big > 0]
    return _regions_of(lab, n, big) if len(big) else np.zeros_like(mask)


# `_untiled`: a region of one kind's ink and body in which each of the two covers at least this
# share is printed tiles (their bright ink and their dark insects), not a sleeve
TILED_SHARE = 0.15


def _untiled(regions: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """`regions` (uint8, regions of kind `k`'s ink and body labels big enough to be a sleeve)
    without those in which both the kind's ink and its dark body cover `TILED_SHARE` or more:
    printed tiles, each its bright ink about its dark insect, which a blur or a motion smear
    has run together across the paper gutters between cards of one kind laid side by side. A
    sleeve is one cloth: dark (a navy, a deep red, a green) or bright (a gold) all over, its
    folds shading it by far less than an insect's body stands from its tile's ink."""
    if not regions.any():
        return regions
    n, lab = cv2.connectedComponents(regions)
    if n <= 1:
        return regions
    area = np.bincount(lab.ravel(), minlength=n).astype(np.float64)
    ink = np.bincount(lab.ravel(), weights=(labels == INK + k).ravel(), minlength=n)
    body = np.bincount(lab.ravel(), weights=(labels == BODY + k).ravel(), minlength=n)
    tiled = (ink >= TILED_SHARE * area) & (body >= TILED_SHARE * area)
    tiled[0] = False
    if not tiled.any():
        return regions
    return (regions.astype(bool) & ~tiled[lab]).view(np.uint8)


def _pinholes_filled(mask: np.ndarray, most: int = PINHOLE) -> np.ndarray:
    """uint8 `mask` (0 or 1) with its pinholes filled: the 4-connected regions outside it of at
    most `most` pixels that do not touch the canvas's edge. A hole is enclosed by the mask all
    round, so no gap between two regions (a tile's paper gutter, however thin, runs on into
    the paper about the tile) is filled."""
    _, lab, stats, _ = cv2.connectedComponentsWithStats((mask == 0).view(np.uint8),
                                                        connectivity=4)
    small = stats[:, cv2.CC_STAT_AREA] <= most
    small[0] = False       # the mask itself
    if not small.any():
        return mask
    edge = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    small[edge] = False
    return (mask.astype(bool) | small[lab]).view(np.uint8)


def _edge_regions(mask: np.ndarray, min_area: float, margin: int) -> np.ndarray:
    """uint8 mask of the 8-connected regions of `mask` (its pinholes filled, then opened 3 x 3)
    that touch the canvas's outer edge and have at least `min_area` pixels inside its `margin`
    (over the grid). A noisy sensor leaves pinholes in a sleeve's labels (a pixel of it read
    as another kind or as neutral), which the opening alone widens into gaps that cut the
    sleeve into pieces each short of `min_area`: held-out `hand` 23 under noise of 12 levels
    read four cards under a navy sleeve as blue beetles (`_pinholes_filled`; a median filter
    instead joined tiles at the grid's edge to a table's print of their colour beyond it)."""
    mask = cv2.morphologyEx(_pinholes_filled(mask), cv2.MORPH_OPEN, _K3)
    # no region touches the edge when no pixel does: the labelling is not needed
    if not (mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any()):
        return np.zeros_like(mask)
    n, lab = cv2.connectedComponents(mask, connectivity=8)
    if n <= 1:
        return np.zeros_like(mask)
    # the labels along the edge, ascending (as np.unique, by counting: far cheaper)
    edge = np.flatnonzero(np.bincount(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]),
                                      minlength=n))
    edge = edge[edge > 0]
    inside = lab[margin:-margin, margin:-margin]
    # the pixels over the grid of the few regions at the edge, counted one by one: cheaper
    # than a count of every region's
    if len(edge) <= 4:
        big = [i for i in edge if np.count_nonzero(inside == i) >= min_area]
    else:
        inner = np.bincount(inside.ravel(), minlength=n)
        big = [i for i in edge if inner[i] >= min_area]
    return _regions_of(lab, n, big) if big else np.zeros_like(mask)


def _rim_regions(skin: np.ndarray, min_area: float, beyond: np.ndarray) -> np.ndarray:
    """uint8 mask of the 8-connected regions of `skin` (not opened) of at least `min_area`
    pixels that reach `beyond` (the canvas's outer edge, or the inner line of a margin whose
    skin-like table was cleared) or hold a region as big once opened 3 x 3 (a hand's body, as
    without the clip). A lit hand's shaded rim is a thin line, but the arm it outlines comes
    from beyond the board, so the rim reaches the edge; the thin warm lines within the board
    (its grid, card outlines, the pale blend of a red or gold tile's edge with the paper, a dung
    beetle's pale body) never do: a card lies within the board, its tiles a half-cell margin
    from the edge."""
    n, lab, stats = _labelled(skin)
    big = stats[:, cv2.CC_STAT_AREA] >= min_area
    big[0] = False
    if not big.any():
        return np.zeros_like(skin)
    keep = np.zeros(n, bool)
    keep[lab[beyond > 0]] = True
    keep[lab[_big_regions(skin, min_area) > 0]] = True
    keep &= big
    return _regions_of(lab, n, np.flatnonzero(keep)) if keep.any() else np.zeros_like(skin)


def _lit_inside(skin: np.ndarray, blown: np.ndarray, px: int, margin: int) -> np.ndarray:
    """uint8 mask of the lit hands that only a shaded rim of skin-like pixels (`skin`, not
    opened) outlines: the 4-connected regions of other pixels that such a rim closes off
    together with the canvas's outer edge, on the side away from the board. The board's side
    is the region with the most of the canvas's margin (the board runs all round the grid; a
    hand crosses the margin only where it comes in). A region on the other side is a lit hand
    when it touches the outer edge, covers `LIT_CELLS` of the grid or more, is clipped in all
    three channels (`blown`) over `LIT_SHARE` of it or more, and the board lies within
    `RIM_CELLS` beyond at least half of its rim pixels: a thin outline with the board just
    across it, not an arm's whole width between two parts of the board. All of the region is
    the hand, its lit middle clipped and its shaded parts near-neutral under a white that
    clipped too."""
    empty = np.zeros_like(skin)
    # a lit hand covers LIT_CELLS of the grid and is blown over LIT_SHARE of its area: with
    # fewer blown pixels in all no region can be one, and the labelling is not needed
    if cv2.countNonZero(blown) < LIT_SHARE * LIT_CELLS * px * px - 1:
        return empty
    n, lab = cv2.connectedComponents((skin == 0).view(np.uint8), connectivity=4)
    if n <= 2:
        return empty
    h, w = lab.shape
    band = max(margin, 1)
    # pixels in the margin (or on the edge), counted over that band alone
    ring = np.bincount(np.concatenate([
        lab[:band].ravel(), lab[h - band:].ravel(), lab[band:h - band, :band].ravel(),
        lab[band:h - band, w - band:].ravel()]) if min(h, w) > 2 * band else lab.ravel(),
        minlength=n)
    ring[0] = 0                                    # label 0: the skin-like pixels themselves
    board = int(ring.argmax())
    away = np.zeros(n, bool)
    for edge in (lab[0], lab[-1], lab[:, 0], lab[:, -1]):
        away[edge] = True
    away[[0, board]] = False
    # the pixels over the grid (`inner`) and in all (`area`) of only the few regions left
    inside = lab[band:h - band, band:w - band]
    cand = np.flatnonzero(away)
    core = np.array([np.count_nonzero(inside == i) for i in cand], np.int64) \
        if len(cand) <= 4 else np.bincount(inside.ravel(), minlength=n)[cand]
    area = ring[cand] + core
    inner = core if margin > 0 else area
    cand = cand[inner >= LIT_CELLS * px * px]
    if not len(cand):
        return empty
    area = area[inner >= LIT_CELLS * px * px]
    away[:] = False
    away[cand[np.bincount(lab[blown > 0], minlength=n)[cand] >= LIT_SHARE * area]] = True
    if not away.any():
        return empty
    across = cv2.distanceTransform((lab != board).view(np.uint8), cv2.DIST_L2, 3)
    out = np.zeros_like(skin)
    for i in np.flatnonzero(away):
        region = (lab == i).view(np.uint8)
        rim = (cv2.dilate(region, np.ones((3, 3), np.uint8)) > 0) & (skin > 0)
        # (`_median`: np.median's value, without its overhead and first-call import)
        if rim.any() and float(_median(across[rim])) <= RIM_CELLS * px:
            out |= region
    return out


def _touching(mask: np.ndarray, hand: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """The 8-connected regions of `mask` (uint8) beyond `hand`: (their count with the
    background, the label image, the labels of those that touch the hand)."""
    n, lab = cv2.connectedComponents(cv2.subtract(mask, hand), connectivity=8)
    ids = np.unique(lab[cv2.dilate(hand, _K3) > 0])
    return n, lab, ids[ids > 0]


def _lit_clipped(hand: np.ndarray, clipped: np.ndarray, px: int,
                 raw_v: np.ndarray | None) -> np.ndarray:
    """uint8 mask of the 8-connected regions of `clipped` pixels beyond `hand` that touch it
    and are its lit part. An arm is a rounded surface lit smoothly: where its middle clips, the
    skin a few pixels away on the arm (0.1-0.3 cell; `raw_v`, the largest channel) is nearly as
    bright, at least `LIT_RIM` of the clip over half of that band, and the middle lies between
    the arm's shaded edges, so the hand runs along `RIM_SHARE` or more of its outline (within
    the canvas). Clipped paper meets a hand at an occluding edge, beyond which the skin keeps
    its own, darker brightness, or (a lamp bright enough to clip the paper lights the skin
    near the clip too) along one side only, a small share of the paper's outline, the rest
    being the board's print and the cards: such a region is kept only within the hull of the
    hand or `REACH_CELLS` of it (between fingers, a lit knuckle). Without `raw_v` every
    touching region is kept whole."""
    n, lab, ids = _touching(clipped, hand)
    if not len(ids):
        return np.zeros_like(hand)
    if raw_v is None:
        return _regions_of(lab, n, ids)
    lo, hi = round(0.1 * px) | 1, round(0.3 * px) | 1
    on_hand = hand > 0
    bright = raw_v >= LIT_RIM * CLIP
    lit = []
    for i in ids:                 # the few regions touching a hand
        region = (lab == i).view(np.uint8)
        band = on_hand & (cv2.dilate(region, np.ones((2 * hi + 1,) * 2, np.uint8)) > 0) & \
            (cv2.dilate(region, np.ones((2 * lo + 1,) * 2, np.uint8)) == 0)
        # clipped paper beside a lit hand touches it along one side only: a small share of its
        # outline (an arm's lit middle is bounded by the arm's shaded edges on both sides)
        if not _hand_bounded(region, on_hand):
            continue
        total = np.count_nonzero(band)
        # no skin band to judge by (a corner's touch): kept whole, as an arm would be
        if not total or 2 * np.count_nonzero(band & bright) >= total:
            lit.append(i)
    out = _regions_of(lab, n, lit) if lit else np.zeros_like(hand)
    dark = np.setdiff1d(ids, lit)
    if len(dark):
        near = cv2.dilate(hand, np.ones((2 * round(REACH_CELLS * px) + 1,) * 2, np.uint8))
        out |= _regions_of(lab, n, dark) & (_hulls(hand) | near)
    return out


def _glare_on_hand(hand: np.ndarray, blown: np.ndarray, px: int, raw_v: np.ndarray
                   ) -> np.ndarray:
    """uint8 mask of the 8-connected regions of `blown` pixels (clipped in all three channels)
    beyond `hand` that touch it and are specular glare on it: the hand runs along `RIM_SHARE`
    or more of the region's outline (`_hand_bounded`), and nearly all of the skin touching it
    (within a tenth of a cell; `GLARE_EDGE` of it) is at least `KNEE` of the clip in its
    brightest channel (`raw_v`). A highlight on skin fades smoothly into lit skin all along
    its edge; paper clipped beside an arm meets the arm's edge, which turns away from the lamp
    and is shaded in places."""
    n, lab, ids = _touching(blown, hand)
    if not len(ids):
        return np.zeros_like(hand)
    on_hand = hand > 0
    k = 2 * (round(0.1 * px) | 1) + 1
    glare = []
    for i in ids:                 # the few regions touching a hand
        region = (lab == i).view(np.uint8)
        if not _hand_bounded(region, on_hand):
            continue
        edge = raw_v[on_hand & (cv2.dilate(region, np.ones((k, k), np.uint8)) > 0)]
        if len(edge) and np.count_nonzero(edge >= KNEE * CLIP) >= GLARE_EDGE * len(edge):
            glare.append(i)
    return _regions_of(lab, n, glare) if glare else np.zeros_like(hand)


def _hand_bounded(region: np.ndarray, on_hand: np.ndarray) -> bool:
    """Whether the hand (`on_hand`) runs along at least `RIM_SHARE` of the outline of `region`
    (uint8): the pixels just outside it within the canvas (the canvas's edge is no outline)."""
    ring = (cv2.dilate(region, _K3) > 0) & (region == 0)
    total = np.count_nonzero(ring)
    return total == 0 or np.count_nonzero(ring & on_hand) >= RIM_SHARE * total


def _hulls(mask: np.ndarray) -> np.ndarray:
    """uint8 mask of the convex hull of each outer outline of `mask`: the lit parts of a hand
    (a knuckle, the skin between fingers) lie within the hull of its skin, the paper beyond its
    outline does not."""
    out = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        cv2.fillConvexPoly(out, cv2.convexHull(c), 1)
    return out


def _skin_masks(pix: Pixels) -> tuple[np.ndarray, np.ndarray]:
    """uint8 masks of skin-like colour (orange hue 0-45 degrees at saturation 0.15-0.7, up to
    65 degrees at 0.15-0.55) and of dark skin: more saturated than that range, in the hues
    between red's and gold's ink ranges, which no ink has (skin, wood or a sleeve as long as
    the region is bigger than a palm: far more than a red tile drifted there under a cast)."""
    skin = (pix.sat >= 0.15) & (((pix.hue <= round(45.0 * HUE_BINS / 360.0)) &
                                 (pix.sat <= 0.7)) | ((pix.hue <= round(65.0 * HUE_BINS / 360.0))
                                                      & (pix.sat <= 0.55)))
    deep = (pix.sat > 0.7) & (pix.hue >= DEEP_HUES[0]) & (pix.hue <= DEEP_HUES[1])
    return skin.view(np.uint8), deep.view(np.uint8)


def _table_side(side: np.ndarray) -> bool:
    """Whether a side's margin (a mask's view, one row per line along the side) reads as the
    table: set along `TABLE_SIDE` or more of the side (a side with fewer set pixels than that
    many lines cannot qualify: the count is far cheaper than the per-line test)."""
    return np.count_nonzero(side) >= TABLE_SIDE * len(side) - 1 and \
        side.any(axis=1).mean() >= TABLE_SIDE


def _margin_sides(mask: np.ndarray, margin: int) -> tuple[np.ndarray, ...]:
    """The four sides' `margin` of `mask` (left, right, top, bottom; views, one row per line
    across the side, its first pixel at the canvas's edge)."""
    return (mask[:, :margin], mask[:, :-margin - 1:-1], mask[:margin].T,
            mask[:-margin - 1:-1].T)


def _canvas_edge(like: np.ndarray) -> np.ndarray:
    """A uint8 mask of `like`'s shape set on the canvas's outer edge (where an arm comes from
    beyond the board)."""
    edge = np.zeros(like.shape, np.uint8)
    edge[[0, -1]] = 1
    edge[:, [0, -1]] = 1
    return edge


def _clear_table(skin: np.ndarray, deep: np.ndarray, margin: int) -> np.ndarray:
    """Where an arm comes from (uint8): the canvas's outer edge, and the inner line of each
    side's `margin` in which `skin` or `deep` runs along `TABLE_SIDE` or more of the side (the
    wooden table beyond the board; an arm over it is cut off there). Such a margin is cleared
    of both masks in place."""
    beyond = _canvas_edge(skin)
    if margin > 0:
        for mask in (skin, deep):
            for side, reach in zip(_margin_sides(mask, margin),
                                   _margin_sides(beyond, margin + 1), strict=True):
                if _table_side(side):
                    side[:] = 0                  # views: clears that margin of the mask
                    reach[:] = 1
    return beyond


def arm_entries(pix: Pixels, margin: int) -> np.ndarray:
    """Where an arm over the case comes from (uint8 mask of the canvas): its outer edge, and
    the lines of a `margin` read as the table (which `occluder_masks` clears, cutting an arm
    over it off at the margin's inner line) that skin-like colour crosses all the way from
    the canvas's edge to the grid (`ACROSS` of the line's pixels) and where the table at the
    canvas's edge (its outer quarter) differs in saturation by `TABLE_SAT` from the table along
    the side (the median of its lines), when such lines are no more than `ARM_SIDE` of the
    side. An arm crosses the margin, the sheet's paper and the table alike, over a stretch of
    the side and hides the table there; paper lit warm below the clip and the table run along
    the side, and fill lit warm beside them leaves the table as it is elsewhere (a light's
    gradient across the table changes its brightness, not its saturation)."""
    skin, deep = _skin_masks(pix)
    beyond = _canvas_edge(skin)
    if margin <= 0:
        return beyond
    either = skin | deep
    outer = max(1, margin // 4)
    for s, d, lines, sat, reach in zip(
            _margin_sides(skin, margin), _margin_sides(deep, margin),
            _margin_sides(either, margin), _margin_sides(pix.sat, margin),
            _margin_sides(beyond, margin + 1), strict=True):
        if not (_table_side(s) or _table_side(d)):
            continue
        across = np.count_nonzero(lines, axis=1) >= ACROSS * margin
        if not across.any() or np.count_nonzero(across) > ARM_SIDE * len(across):
            continue
        # the table at the canvas's edge, line by line, against its own along the side
        sat_out = np.median(sat[:, :outer], axis=1)
        hidden = np.abs(sat_out - np.median(sat_out)) > TABLE_SAT
        reach[:, -1] |= (across & hidden).view(np.uint8)
    return beyond


def occluder_mask(pix: Pixels, labels: np.ndarray, px: int, min_cells: float = 1.5,
                  clipped: np.ndarray | None = None, margin: int = 0,
                  blown: np.ndarray | None = None, raw_v: np.ndarray | None = None
                  ) -> np.ndarray:
    """uint8 mask of what covers the case (the first of `occluder_masks`)."""
    return occluder_masks(pix, labels, px, min_cells, clipped, margin, blown, raw_v)[0]


def close_gaps(mask: np.ndarray, px: int) -> np.ndarray:
    """`mask` (uint8) closed over gaps of up to CLOSE_CELLS cells (`px` per cell): the parts of
    one occluder, an arm's clipped, flat middle between them, are covered together."""
    k = round(CLOSE_CELLS * px) | 1
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))


def occluder_masks(pix: Pixels, labels: np.ndarray, px: int, min_cells: float = 1.5,
                   clipped: np.ndarray | None = None, margin: int = 0,
                   blown: np.ndarray | None = None, raw_v: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(covered, own): uint8 masks of what covers the case (hands, arms, sleeves), and of the
    occluder's own pixels (all of the first but the gaps that closing alone covers). What
    covers the case: connected regions of skin-like
    colour (orange hue 0-45 degrees at saturation 0.15-0.7, up to 65 degrees at 0.15-0.55: paler
    than red and gold ink, whose tiles are saturated) of at least `min_cells` cells' area, and
    regions of the hues between red's and gold's ink ranges (no ink's) at a higher saturation
    (dark brown skin) of at least a palm's area (`PALM_CELLS`), and regions of one kind's ink
    larger than four tiles of that kind (a tile is 0.9 cell, a stag or moth 1.9, and paper
    gutters part them: a sleeve of a tile's colour has none); gaps of up to two cells between
    them (an arm's lit middle clipped to white lies between its shaded edges) are covered too,
    and so is any region of `clipped` pixels that touches them (pass it when the white itself
    clipped in two channels: an arm clipped under that warm light looks as neutral as the
    clipped paper), in full where the skin beside it is lit too and runs along a share of its
    outline (an arm's lit middle lies between its edges), else only within the hand's hull
    (`_lit_clipped`, given the canvas's largest channel `raw_v`); under that white the skin-like
    regions are not opened (a lit hand's shaded rim is a thin line), and a thin one is kept only
    where it reaches where an arm comes from, the canvas's edge (`_rim_regions`: the board's
    thin warm lines and its tiles' pale edges lie within it). Skin-like colour in the
    canvas's `margin` (pixels outside the grid) along `TABLE_SIDE` or more of a side is the
    wooden table beyond the board, not an arm (an arm
    crosses a side, it does not run along all of it), and is left out, so that closing does not
    bridge a hand to the table over the cells between. A region of one kind's ink that runs into
    the canvas's outer edge and covers at least a tile's area of the grid is a sleeve too,
    whatever its size: a card's tile lies within its cell (a third of a cell off at most), never
    across the half-cell margin to the edge, so such a region comes from beyond the board. Pass
    `blown`, the pixels clipped in all three channels, for a lit hand whose middle clips: when
    the white clipped in all three too, the paper, the board fill and that hand all read (255,
    255, 255) and only the hand's shaded rim keeps skin's hue, so the region the rim closes off
    with the canvas's edge is covered (`_lit_inside`). Under any other white (`clipped` not
    given), a region of `blown` pixels that the closed hand runs along and whose skin beside it
    is lit near the clip all along is covered whole (glare on an arm: `_glare_on_hand`), given
    `raw_v`."""
    skin, deep = _skin_masks(pix)
    lit = _lit_inside(skin, blown, px, margin) \
        if blown is not None and blown.any() else None
    beyond = _clear_table(skin, deep, margin)
    # under a white clipped in two channels a lit hand clips to the paper's colour and only its
    # shaded rim keeps skin's hue: a thin line that opening would erase
    rim = clipped is not None and clipped.any()
    if cv2.countNonZero(skin) < min_cells * px * px:
        hand = np.zeros_like(skin)
    elif rim:
        hand = _rim_regions(skin, min_cells * px * px, beyond)
    else:
        hand = _big_regions(skin, min_cells * px * px)
    if cv2.countNonZero(deep) >= PALM_CELLS * px * px:
        hand |= _big_regions(deep, PALM_CELLS * px * px)
    # each kind's ink and body pixels counted at once; its mask is made only when it is big
    # enough to matter
    # (OpenCV's histogram of a uint8 image: the same counts, exact in float32, in a fraction of
    # the time)
    counts = cv2.calcHist([labels], [0], None, [N_LABELS], [0, N_LABELS]).ravel() \
        if labels.dtype == np.uint8 and labels.max() < N_LABELS else \
        np.bincount(labels.ravel(), minlength=N_LABELS)
    # the labels along the canvas's outer edge: a kind none of whose pixels lies there has no
    # region touching it (opening only removes pixels); which labels occur there is counted
    # once, not looked up again for every kind
    on_rim = np.bincount(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]),
                         minlength=N_LABELS) > 0
    for k, name in enumerate(KINDS):
        if not SLEEVE_KINDS:
            break
        tile = 1.9 if name in "SM" else 0.9
        n_kind = int(counts[INK + k] + counts[BODY + k])
        sleeve = n_kind >= SLEEVE_KINDS * tile * px * px
        edge = margin > 0 and n_kind >= tile * px * px and \
            bool(on_rim[INK + k] or on_rim[BODY + k])       # the kind's `_KIND_LUT` labels
        if not (sleeve or edge):
            continue
        kind = cv2.LUT(labels, _KIND_LUT[k]) if labels.dtype == np.uint8 else \
            _KIND_LUT[k][labels]
        if sleeve:
            hand |= _untiled(_big_regions(kind, SLEEVE_KINDS * tile * px * px), labels, k)
        if edge:
            hand |= _edge_regions(kind, tile * px * px, margin)
    if lit is not None:
        hand |= lit
    if not hand.any():
        return hand, hand
    if clipped is not None and clipped.any():
        hand = hand | _lit_clipped(hand, clipped, px, raw_v)
    own = hand
    hand = close_gaps(hand, px)
    if clipped is None and blown is not None and raw_v is not None and blown.any():
        # specular glare on an arm (a disc at its tip) clips in all three channels and fades
        # into lit skin all round its edge on the arm: whatever the white, it is the hand
        glare = _glare_on_hand(hand, blown, px, raw_v)
        hand |= glare
        own = own | glare
    return hand, own
