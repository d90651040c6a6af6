"""Colour normalisation and symbol-colour classes. Every colour the reader judges is first divided
by a white reference taken from the card's own paper (von Kries scaling, exact for channel gains
in gamma-encoded images too), so kitchen light from 2800 to 6500 K, exposure and a slightly
different printer all map paper to (1, 1, 1) and each ink to a stable ratio. A `ColourModel`
holds one prototype per class (paper plus the edition's symbol letters) in that normalised space;
the built-in one comes from `companion.faces`, a learned one from `companion calibrate colours`
(saved as JSON under calibration/). Pixels far from every paper-ink line are "other" (a hand,
glare, a shadow edge) and never vote for a symbol.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from ..faces import PAPER_RGB, SYMBOLS

PAPER = "paper"
PAPER_K, OTHER = -1, -2   # kinds of a pixel that is no ink
SHADE_RANGE = (0.55, 1.4)  # a coloured ink's shade s (see `ColourModel.explain`)
CENSOR_STEPS = 4           # alternating projections for a fit to clipped values


@dataclass(frozen=True)
class ColourModel:
    """Prototypes in paper-normalised RGB: `names[i]` has prototype `protos[i]` (RGB order)."""

    edition: str
    names: tuple[str, ...]
    protos: tuple[tuple[float, float, float], ...]
    source: str = "built-in"

    @property
    def letters(self) -> tuple[str, ...]:
        """The symbol letters (every class but paper)."""
        return tuple(n for n in self.names if n != PAPER)

    @cached_property
    def inks(self) -> np.ndarray:
        """The letters' prototypes (letters x 3)."""
        inks = np.asarray([p for n, p in zip(self.names, self.protos, strict=True)
                           if n != PAPER], np.float32)
        inks.flags.writeable = False
        return inks

    @cached_property
    def neutral(self) -> np.ndarray:
        """Which letters are grey inks (a dark ring): judged by darkness, not by hue."""
        inks = self.inks
        neutral = (inks.max(1) - inks.min(1)) < 0.12
        neutral.flags.writeable = False
        return neutral

    @cached_property
    def _lines(self) -> tuple[tuple[bool, tuple[float, ...]], ...]:
        """Per letter, the constants of its fit in `explain`: for a grey ink the unit vector
        from paper towards it and its length; for a coloured ink its channels and the inverse
        of the 2 x 2 normal equations of the fit s·((1-alpha)·paper + alpha·ink), then 1 / |ink|²
        (the fit by the ink alone)."""
        lines = []
        for ink, grey in zip(self.inks, self.neutral, strict=True):
            i0, i1, i2 = (float(v) for v in ink)
            if grey:
                u = np.array([i0 - 1.0, i1 - 1.0, i2 - 1.0])
                length = float(np.linalg.norm(u))
                lines.append((True, (*(float(v) / length for v in u), length)))
                continue
            isum, isq = i0 + i1 + i2, i0 * i0 + i1 * i1 + i2 * i2
            inv = np.linalg.inv(np.array([[3.0, isum], [isum, isq]]))
            lines.append((False, (i0, i1, i2, float(inv[0, 0]), float(inv[0, 1]),
                                  float(inv[1, 0]), float(inv[1, 1]), 1.0 / isq)))
        return tuple(lines)

    @cached_property
    def _batch(self) -> tuple[np.ndarray, ...]:
        """`_lines` as column arrays (letters x 1) for fitting every letter at once: grey,
        the coloured fit's eight constants, the grey fit's four (rows of the other kind hold
        harmless values: 0, or 1 where they divide), the coloured inks' directions from paper
        and their squared lengths."""
        n = len(self._lines)
        grey = np.array([g for g, _ in self._lines])[:, None]
        k = np.zeros((8, n, 1), np.float32)
        u = np.zeros((4, n, 1), np.float32)
        u[3] = 1.0
        d = np.zeros((3, n, 1), np.float32)
        dd = np.ones((n, 1), np.float32)
        for i, (g, c) in enumerate(self._lines):
            if g:
                u[:, i, 0] = c
                continue
            k[:, i, 0] = c
            di = [v - 1.0 for v in c[:3]]
            d[:, i, 0] = di
            dd[i, 0] = di[0] * di[0] + di[1] * di[1] + di[2] * di[2]
        return grey, k, u, d, dd

    def _fit_all(self, r: np.ndarray, g: np.ndarray, b: np.ndarray, shaded: bool = True
                 ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every letter's fit of pixels (channel planes of paper-normalised RGB: pixels, or
        letters x pixels), all letters in one pass: (ink fraction, shade s, fitted colour),
        each letters x pixels (see `explain`). With `shaded`, a coloured ink's shade is held to
        the range `explain` accepts (at its bound, the ink fraction in 0..1 nearest the
        pixel), as the censored refit wants."""
        grey, k, u, d, dd = self._batch
        i0, i1, i2, m00, m01, m10, m11, inv_isq = k
        total, along = r + g + b, r * i0 + g * i1 + b * i2
        pa = m00 * total + m01 * along
        pb = m10 * total + m11 * along
        # The fit keeps both parts non-negative: a colour beyond the ink as seen from paper
        # (a heavy print, a camera's saturation boost) is fitted by the ink alone, shaded
        # (pa = 0, pb refitted), not by the unconstrained pb with pa merely zeroed, which
        # overshoots and leaves a spurious residual; one short of any ink, by paper alone.
        beyond = pa < 0.0
        pa, pb = (np.where(beyond, 0.0, np.where(pb < 0.0, total / 3.0, pa)),
                  np.where(beyond, np.maximum(along * inv_isq, 0.0), np.maximum(pb, 0.0)))
        s = pa + pb
        alpha = np.where(s > 1e-3, pb / np.maximum(s, 1e-3), 0.0)
        pred = (pa + pb * i0, pa + pb * i1, pa + pb * i2)
        sc = np.clip(s, SHADE_RANGE[0], SHADE_RANGE[1])
        out = (sc != s) & ~grey
        if shaded and out.any():
            a_fix = np.clip(((r - sc) * d[0] + (g - sc) * d[1] + (b - sc) * d[2]) / (sc * dd),
                            0.0, 1.0)
            alpha = np.where(out, a_fix, alpha)
            pred = tuple(np.where(out, sc * (1.0 + a_fix * dk), p) for dk, p in zip(d, pred,
                                                                                  strict=True))
            s = np.where(out, sc, s)
        u0, u1, u2, length = u
        proj = (r - 1.0) * u0 + (g - 1.0) * u1 + (b - 1.0) * u2
        alpha = np.where(grey, proj / length, alpha)
        s = np.where(grey, np.float32(1.0), s)
        pred = tuple(np.where(grey, 1.0 + proj * uk, p) for uk, p in zip((u0, u1, u2), pred,
                                                                         strict=True))
        return alpha, s, pred

    def explain(self, normalised: np.ndarray,
                bounds: tuple[np.ndarray, np.ndarray] | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every pixel (… x 3, paper-normalised RGB) explained as paper mixed with one ink.

        Returns (kind, alpha, dark): kind is the letter index, PAPER_K or OTHER; alpha the ink
        fraction of that letter (0 paper … 1 full ink); dark the ink fraction along the
        paper-to-grey-ink line (for the ring test). A coloured ink is fitted as
        s·((1-alpha)·paper + alpha·ink), so blur (the mix) and shade (s: a darker rim, a soft
        shadow) do not change its class; a grey ink, whose mix with paper looks like shade, is
        fitted as a plain mix. `bounds` (low, high; each … x 3, optional) say where the true
        colour may lie when the sensor clipped (see `clip_bounds`): a fit is then judged by
        how far it falls outside them.
        """
        x = np.asarray(normalised, np.float32)
        shape = x.shape[:-1]
        # channel planes: reductions over a trailing axis of 3 are slow in NumPy, so every sum
        # over channels below is written out
        r, g, b = np.ascontiguousarray(x.reshape(-1, 3).T)
        neutral = self.neutral
        size = r.size
        total = r + g + b
        norm_x = np.sqrt(r * r + g * g + b * b) + np.float32(0.05)
        # residuals are judged against the grey ink's length, or the pixel's own length
        scale = np.where(self._batch[0], self._batch[2][3], norm_x)
        alpha, shade, (pr, pg, pb) = self._fit_all(r, g, b, shaded=False)
        er, eg, eb = r - pr, g - pg, b - pb
        resid = np.sqrt(er * er + eg * eg + eb * eb) / scale
        if bounds is not None:
            self._censored(x.reshape(-1, 3), bounds, alpha, shade, resid, scale)
        chroma = ~neutral[:, None]
        chroma_ok = chroma & (alpha >= 0.3) & (resid <= 0.2) & (shade >= SHADE_RANGE[0]) \
            & (shade <= SHADE_RANGE[1])
        grey_ok = ~chroma & (alpha >= 0.3) & (resid <= 0.15 + 0.15 * alpha)
        best_c = np.where(chroma_ok, resid, np.inf).argmin(0)
        best_g = np.where(grey_ok, resid, np.inf).argmin(0)
        kind = np.where(chroma_ok.any(0), best_c, np.where(grey_ok.any(0), best_g, OTHER))
        lum = total / 3.0
        spread = np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)
        paperish = (lum > 0.72) & (spread < 0.16 + 0.1 * lum)
        kind = np.where(kind == OTHER, np.where(paperish, PAPER_K, OTHER), kind)
        a_kind = alpha[np.maximum(kind, 0), np.arange(size)]
        dark = alpha[neutral].max(0) if neutral.any() else np.zeros(size, np.float32)
        return (kind.reshape(shape), np.where(kind >= 0, a_kind, 0.0).reshape(shape),
                dark.reshape(shape))

    def _censored(self, x: np.ndarray, bounds: tuple[np.ndarray, np.ndarray],
                  alpha: np.ndarray, shade: np.ndarray, resid: np.ndarray,
                  scale: np.ndarray) -> None:
        """Refit, in place, the pixels (x: pixels x 3) whose true colour is only bounded: the
        fit and the values the bounds allow are brought together by alternating projections
        (a fit to the allowed value nearest the last fit), and the residual is the distance
        from the fit to the allowed values."""
        low, high = (np.asarray(v, np.float32).reshape(-1, 3) for v in bounds)
        # a pixel clipped with the paper in two channels is known in one only, which cannot
        # tell the inks apart: it keeps its plain fit
        under, over = low < x, high > x
        both = under & over
        # per pixel: some channel bounded, fewer than two bounded both ways (column by column:
        # numpy reduces a last axis of 3 slowly)
        some = under | over
        idx = np.flatnonzero((some[:, 0] | some[:, 1] | some[:, 2])
                             & ((both[:, 0].view(np.uint8) + both[:, 1].view(np.uint8)
                                 + both[:, 2].view(np.uint8)) < 2))
        if not idx.size:
            return
        xs = x[idx]
        lo, hi = low[idx].T, high[idx].T
        a, s, pred = self._fit_all(*xs.T)
        for _ in range(CENSOR_STEPS):
            a, s, pred = self._fit_all(*(np.clip(p, lo[k], hi[k]) for k, p in enumerate(pred)))
        e = [p - np.clip(p, lo[k], hi[k]) for k, p in enumerate(pred)]
        resid[:, idx] = np.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) / scale[:, idx]
        alpha[:, idx], shade[:, idx] = a, s

    def to_json(self) -> dict:
        """The saved form (calibration/colours-<edition>.json)."""
        return {"edition": self.edition, "names": list(self.names),
                "protos": [[round(v, 4) for v in p] for p in self.protos]}

    @classmethod
    def from_json(cls, data: dict, source: str = "file") -> ColourModel:
        """Inverse of `to_json`."""
        names = tuple(data["names"])
        if PAPER not in names or len(names) != len(data["protos"]):
            raise ValueError("a colour model needs a 'paper' class and one prototype per name")
        return cls(edition=str(data["edition"]), names=names,
                   protos=tuple(tuple(float(v) for v in p) for p in data["protos"]),
                   source=source)


def builtin_model(edition: str) -> ColourModel:
    """Prototypes from the printed design (ink / paper per channel)."""
    if edition not in SYMBOLS:
        raise ValueError(f"unknown edition {edition!r}: choose from {', '.join(SYMBOLS)}")
    paper = np.asarray(PAPER_RGB, np.float64)
    names = [PAPER]
    protos = [(1.0, 1.0, 1.0)]
    for letter, (_name, _shape, rgb) in SYMBOLS[edition].items():
        names.append(letter)
        protos.append(tuple(float(v) for v in np.asarray(rgb) / paper))
    return ColourModel(edition, tuple(names), tuple(protos))


def colours_path(directory: str | Path, edition: str) -> Path:
    """Where `companion calibrate colours` saves the model of `edition`."""
    return Path(directory) / f"colours-{edition}.json"


def load_model(edition: str, directory: str | Path | None = None) -> ColourModel:
    """The saved model for `edition` under `directory` if there is one, else the built-in one."""
    if directory is not None:
        path = colours_path(directory, edition)
        if path.is_file():
            return ColourModel.from_json(json.loads(path.read_text()), source=str(path))
    return builtin_model(edition)


CLIP_HIGH, CLIP_LOW = 250.0, 3.0   # 8-bit values at which a sensor channel has clipped
# How far past clipping a camera exposing for the table lets the paper go in one channel
# (half a stop: the paper is the brightest large surface it meters): a sample clipped with
# its white reference is at least 1 / this of the paper.
OVEREXPOSED_MAX = 1.5


def clip_bounds(bgr: np.ndarray, white_bgr: np.ndarray, normalised: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Bounds (low, high; RGB order, normalised like `normalise`) on the true colour of raw
    BGR samples where the sensor clipped, for `ColourModel.explain`: a channel clipped at
    black may truly be darker (a camera's colour matrix drives a saturated ink's weak channels
    below zero), one clipped at white brighter; one clipped in both the sample and its white
    reference (the paper brighter than seen, by an unknown factor) is bright but of unknown
    ratio: at least 1 / OVEREXPOSED_MAX. Elsewhere both bounds are the value seen.
    `normalised`: `normalise(bgr, white_bgr)` when the caller has it already."""
    raw = np.asarray(bgr, np.float32)[..., ::-1]
    white = np.asarray(white_bgr, np.float32)[..., ::-1]
    x = normalise(bgr, white_bgr) if normalised is None else normalised
    high = raw >= CLIP_HIGH
    low = np.where(raw <= CLIP_LOW, -np.inf,
                   np.where(high & (white >= CLIP_HIGH), x / OVEREXPOSED_MAX, x))
    return low, np.where(high, np.inf, x)


def normalise(bgr: np.ndarray, white_bgr: np.ndarray) -> np.ndarray:
    """BGR samples divided by their white reference, returned as RGB (paper ≈ 1, 1, 1)."""
    white = np.maximum(np.asarray(white_bgr, np.float32), 8.0)
    return (np.asarray(bgr, np.float32) / white)[..., ::-1]
