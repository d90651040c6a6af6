"""Colour normalisation and symbol-colour classes. Every colour the reader judges is first divided
by a white reference taken from the card's own paper (von Kries scaling, exact for channel gains
in gamma-encoded images too), so kitchen light from 2800 to 6500 K, exposure and a slightly
different printer all map paper to (1, 1, 1) and each ink to a stable ratio. A `ColourModel`
holds one prototype per class (paper plus the edition's symbol letters) in that normalised space;
the built-in one comes from `companion.faces`, a learned one from `companion calibrate colours`
(saved as JSON under calibration/). Pixels far from every paper-ink line are "other" (a hand,
glare, a shadow edge) and never vote for a symbol. JPEG and video keep colour at half the
resolution of brightness, so under a coloured lamp a small symbol takes on part of the paper's
chroma while keeping its luma: in normalised RGB that moves it along one direction per card
(`chroma_cast`), by at most its darkness, and the fits can allow for it (`ColourModel._bled`,
`ColourModel.grey_with_bleed`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from ..faces import PAPER_RGB, SYMBOLS

PAPER = "paper"
PAPER_K, OTHER = -1, -2   # kinds of a pixel that is no ink
NEUTRAL_SPREAD = 0.12   # an ink whose channels (paper-relative) spread less is grey
SHADE_RANGE = (0.55, 1.4)  # a coloured ink's shade s (see `ColourModel.explain`)
CENSOR_STEPS = 4           # alternating projections for a fit to clipped values
# Luma weights of the YCbCr encoding cameras use for JPEG and video (BT.601), RGB order.
LUMA_RGB = (0.299, 0.587, 0.114)
BLED_MIN_ALPHA = 0.5       # the ink fraction a pixel refitted for bled chroma must reach
# With the cast as a second free direction a grey fit must be close, about a sample's noise
# (of the grey ink's length), not the plain grey fit's looser bound: a red that lost part of
# its chroma to warm paper lies 0.11-0.29 off that plane, a tinted ring's samples within 0.06.
BLEED_RESID = 0.07


@dataclass(frozen=True)
class ColourModel:
    """Prototypes in paper-normalised RGB: `names[i]` has prototype `protos[i]` (RGB order)."""

    edition: str
    names: tuple[str, ...]
    protos: tuple[tuple[float, float, float], ...]
    source: str = "built-in"

    @cached_property
    def letters(self) -> tuple[str, ...]:
        """The symbol letters (every class but paper; worked out once: a read asks for them
        in every call)."""
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
        neutral = (inks.max(1) - inks.min(1)) < NEUTRAL_SPREAD
        neutral.flags.writeable = False
        return neutral

    @cached_property
    def grey_k(self) -> int | None:
        """The index (into `letters`) of the first grey ink (the holodex ring), or None when the
        model has none (worked out once)."""
        return int(np.flatnonzero(self.neutral)[0]) if self.neutral.any() else None

    @cached_property
    def chroma_units(self) -> np.ndarray:
        """Per letter (letters x 3), its ink's chroma (the channels less their mean) divided by
        that chroma's squared length (at least 1e-6): the ink's hue as a direction to measure
        a tint along (worked out once: a read asks for it in every call)."""
        chroma = self.inks - self.inks.mean(-1, keepdims=True)
        unit = chroma / np.maximum((chroma * chroma).sum(-1, keepdims=True), 1e-6)
        unit.flags.writeable = False
        return unit

    @cached_property
    def ink_dark(self) -> np.ndarray:
        """Per letter (float32), how far along the paper-to-grey-ink line (`explain`'s `dark`)
        the letter's own ink lies: paper mixed with a fraction alpha of that ink is `alpha`
        times this dark. Zeros when the model has no grey ink (`dark` is then zero too)."""
        dark = np.zeros(len(self.inks), np.float32)
        if self.grey_k is not None:
            u = self.inks[self.grey_k] - 1.0
            dark[:] = (self.inks - 1.0) @ u / float(u @ u)
        dark.flags.writeable = False
        return dark

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
    def _consts(self) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
        """`_lines` as float32 column arrays (… x letters x 1) for fitting every letter of a
        kind at once, stacked so one operation serves all three channels (or both parts):
        for the coloured letters (`_rows`) their inks (3 x), the normal equations' rows
        (m00, m10) and (m01, m11) (2 x), 1 / |ink|², the inks' directions from paper (3 x) and
        their squared lengths; for the grey letters their unit directions from paper (3 x) and
        lengths."""
        cs, gs = self._rows
        col = [c for g, c in self._lines if not g]
        grey = [c for g, c in self._lines if g]

        def column(rows: list[tuple[float, ...]], *at: int) -> np.ndarray:
            return np.array([[[c[i]] for c in rows] for i in at], np.float32)

        coloured = ()
        if cs is not None:
            d = np.array([[[c[i] - 1.0] for c in col] for i in range(3)], np.float32)
            dd = np.array([[sum((c[i] - 1.0) * (c[i] - 1.0) for i in range(3))] for c in col],
                          np.float32)
            coloured = (column(col, 0, 1, 2), column(col, 3, 5), column(col, 4, 6),
                        column(col, 7)[0], d, dd)
        greys = () if gs is None else (column(grey, 0, 1, 2), column(grey, 3)[0])
        return coloured, greys

    @cached_property
    def _rows(self) -> tuple[slice | np.ndarray | None, slice | np.ndarray | None]:
        """(coloured, grey): the letters of each kind of ink as an index into letters x …
        arrays (a slice when they are consecutive, as in the built-in models; None for none).
        Each kind's fit runs on its own letters only."""
        return _index(~self.neutral), _index(self.neutral)

    def _fit_all(self, x: np.ndarray, shaded: bool = True
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every letter's fit of pixels (paper-normalised RGB as channel planes: 3 x 1 x
        pixels, or 3 x letters x pixels, a colour per letter), each kind of ink in one pass:
        (ink fraction, shade s; letters x pixels) and the fitted colour (3 x letters x pixels)
        (see `explain`). With `shaded`, a coloured ink's shade is held to the range `explain`
        accepts (see `_held`), as the censored refit wants."""
        cs, gs = self._rows
        per_letter = x.shape[1] > 1
        if cs is not None:
            xc = x[:, cs] if per_letter and gs is not None else x
            coloured = self._fit_coloured(xc)
            if shaded:
                coloured = self._held(xc, *coloured)
            if gs is None:
                return coloured
        if cs is None:
            return self._fit_grey(x)
        shape = (len(self.inks), x.shape[2])
        alpha, s = np.empty(shape, np.float32), np.empty(shape, np.float32)
        pred = np.empty((3, *shape), np.float32)
        alpha[cs], s[cs], pred[:, cs] = coloured
        alpha[gs], s[gs], pred[:, gs] = self._fit_grey(x[:, gs] if per_letter else x)
        return alpha, s, pred

    def _fit_coloured(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The coloured letters' fits (`_fit_all`, unshaded; x: 3 x 1 or coloured letters x
        pixels): s·((1-alpha)·paper + alpha·ink) by least squares, both parts kept
        non-negative."""
        ink, m_total, m_along, inv_isq, _, _ = self._consts[0]
        total = x[0] + x[1]
        total += x[2]
        along = x * ink                          # r·i0, g·i1, b·i2, summed in that order
        dot = along[0] + along[1]
        dot += along[2]
        parts = m_total * total
        parts += m_along * dot                   # m00·total + m01·along, m10·… + m11·…
        pa, pb = parts
        # The fit keeps both parts non-negative: a colour beyond the ink as seen from paper
        # (a heavy print, a camera's saturation boost) is fitted by the ink alone, shaded
        # (pa = 0, pb refitted), not by the unconstrained pb with pa merely zeroed, which
        # overshoots and leaves a spurious residual; one short of any ink, by paper alone.
        beyond = pa < 0.0
        pa2 = np.where(pb < 0.0, total / 3.0, pa)
        pb2 = np.maximum(pb, 0.0)
        if beyond.any():
            pa2[beyond] = 0.0
            pb2[beyond] = np.maximum(dot * inv_isq, 0.0)[beyond]
        s = pa2 + pb2
        alpha = np.where(s > 1e-3, pb2 / np.maximum(s, 1e-3), 0.0)
        pred = pb2 * ink                         # the three fitted channels at once
        pred += pa2
        return alpha, s, pred

    def _fit_grey(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The grey letters' fits (`_fit_all`; x: 3 x 1 or grey letters x pixels): a plain
        mix of paper and ink, shade 1."""
        u, length = self._consts[1]
        proj = (x - 1.0) * u                     # (r - 1)·u0, (g - 1)·u1, (b - 1)·u2
        proj = proj[0] + proj[1] + proj[2]
        return proj / length, np.ones(proj.shape, np.float32), 1.0 + proj * u

    def _refit_coloured(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`_held(x, *_fit_coloured(x))` (x: 3 x coloured letters x pixels, a colour per
        letter), the censored refit's step: the same arithmetic, the held shade's fit worked
        out only where it is held (in place)."""
        d, dd = self._consts[0][4:]
        alpha, s, pred = self._fit_coloured(x)
        sc = np.minimum(np.maximum(s, SHADE_RANGE[0]), SHADE_RANGE[1])
        out = sc != s
        if not out.any():
            return alpha, s, pred
        # (`_held` where the shade is out of range; elsewhere sc is s and the fit stands)
        li, pi = np.nonzero(out)
        held, xo = sc[li, pi], x[:, li, pi]
        do = d[:, li, 0]
        diff = (xo - held) * do
        a_fix = clip((diff[0] + diff[1] + diff[2]) / (held * dd[li, 0]), 0.0, 1.0)
        alpha[li, pi] = a_fix
        pred[:, li, pi] = held * (1.0 + a_fix * do)
        return alpha, sc, pred

    def _held(self, x: np.ndarray, alpha: np.ndarray, s: np.ndarray, pred: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The coloured letters' fits (`_fit_coloured` of pixels x) with the shade held to the
        range `explain` accepts: at its bound, the ink fraction in 0..1 nearest the pixel."""
        sc = clip(s, SHADE_RANGE[0], SHADE_RANGE[1])
        out = sc != s
        if not out.any():
            return alpha, s, pred
        _, _, _, _, d, dd = self._consts[0]
        diff = (x - sc) * d
        a_fix = clip((diff[0] + diff[1] + diff[2]) / (sc * dd), 0.0, 1.0)
        # the shade is `sc` everywhere (where it was in range, sc is s itself)
        return (np.where(out, a_fix, alpha), sc,
                np.where(out, sc * (1.0 + a_fix * d), pred))

    def explain(self, normalised: np.ndarray,
                bounds: tuple[np.ndarray, np.ndarray] | None = None,
                cast: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every pixel (… x 3, paper-normalised RGB) explained as paper mixed with one ink.

        Returns (kind, alpha, dark): kind is the letter index, PAPER_K or OTHER; alpha the ink
        fraction of that letter (0 paper … 1 full ink); dark the ink fraction along the
        paper-to-grey-ink line (for the ring test). A coloured ink is fitted as
        s·((1-alpha)·paper + alpha·ink), so blur (the mix) and shade (s: a darker rim, a soft
        shadow) do not change its class; a grey ink, whose mix with paper looks like shade, is
        fitted as a plain mix. `bounds` (low, high; each … x 3, optional) say where the true
        colour may lie when the sensor clipped (see `clip_bounds`): a fit is then judged by
        how far it falls outside them. `cast` (… x 3, optional; see `chroma_cast`): a pixel no
        ink explains is fitted again allowing for chroma bled in from the paper (`_bled`); a
        zero cast (a white lamp, or a pixel the caller does not want refitted) leaves it.
        """
        x = np.asarray(normalised, np.float32)
        shape = x.shape[:-1]
        # channel planes: reductions over a trailing axis of 3 are slow in NumPy, so every sum
        # over channels below is written out
        planes = np.ascontiguousarray(x.reshape(-1, 3).T)
        r, g, b = planes
        size = r.size
        alpha, shade, pred = self._fit_all(planes[:, None, :], shaded=False)
        resid, scale = self._resid(planes[:, None, :], pred)
        if bounds is not None:
            low, high = (np.asarray(v, np.float32).reshape(-1, 3).T for v in bounds)
            self._censored(planes, low, high, alpha, shade, pred, resid, scale)
        kind = self._classify(alpha, shade, resid)
        lum, grey = paper_grey(r, g, b)
        paperish = (lum > 0.72) & grey
        unexplained = kind == OTHER
        if cast is not None:   # (it refits no paperish pixel: `unexplained & paperish` holds)
            self._bled(x.reshape(-1, 3), np.broadcast_to(cast, x.shape).reshape(-1, 3),
                       unexplained & ~paperish, kind, alpha)
        kind[unexplained & paperish] = PAPER_K
        a_kind = alpha[np.maximum(kind, 0), np.arange(size)]
        gs = self._rows[1]
        if gs is None:
            dark = np.zeros(size, np.float32)
        elif isinstance(gs, slice) and gs.stop - gs.start == 1:
            dark = alpha[gs.start]   # the one grey ink's: its max over one row, without a pass
        else:
            dark = alpha[gs].max(0)
        return (kind.reshape(shape), np.where(kind >= 0, a_kind, 0.0).reshape(shape),
                dark.reshape(shape))

    def grey_with_bleed(self, normalised: np.ndarray, cast: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Every pixel (… x 3, paper-normalised RGB) fitted as the first grey ink mixed with
        paper, its chroma mixed with its neighbours' (see `chroma_cast`; `cast` broadcasts
        against `normalised`): 1 + alpha·(ink - 1) + t·cast. On a card every neutral (paper,
        the grey ink and their mixes) has the chroma of the paper scaled by its luma, so a
        neutral pixel of luma l that took its neighbours' chroma shows that of some luma
        between the ink's and the paper's: t = that luma - l. Returns (alpha, ok): ok where
        the fit is close (BLEED_RESID) and t lies in that range.
        All False when the model has no grey ink."""
        x = np.asarray(normalised, np.float32)
        if self.grey_k is None:
            return np.zeros(x.shape[:-1], np.float32), np.zeros(x.shape[:-1], bool)
        ink = self.inks[self.grey_k]
        u = (ink - 1.0).astype(np.float32)
        c = np.broadcast_to(np.asarray(cast, np.float32), x.shape)
        # channel planes (see `explain`); normal equations of the 2-parameter fit
        x0, x1, x2 = x[..., 0] - 1.0, x[..., 1] - 1.0, x[..., 2] - 1.0
        c0, c1, c2 = c[..., 0], c[..., 1], c[..., 2]
        uu = float(u @ u)
        uc = u[0] * c0 + u[1] * c1 + u[2] * c2
        cc = c0 * c0 + c1 * c1 + c2 * c2
        ux = u[0] * x0 + u[1] * x1 + u[2] * x2
        cx = c0 * x0 + c1 * x1 + c2 * x2
        det = uu * cc - uc * uc
        good = det > 1e-6 * uu     # no cast (white light): nothing bleeds, plain grey fit
        safe = np.where(good, det, 1.0)
        alpha = np.where(good, (cc * ux - uc * cx) / safe, ux / uu)
        t = np.where(good, (uu * cx - uc * ux) / safe, 0.0)
        e0, e1, e2 = x0 - alpha * u[0] - t * c0, x1 - alpha * u[1] - t * c1, \
            x2 - alpha * u[2] - t * c2
        resid = np.sqrt(e0 * e0 + e1 * e1 + e2 * e2) / np.sqrt(uu)
        luma = _luma(x, c)
        ink_luma = float(ink @ np.asarray(LUMA_RGB, np.float32))   # of paper's, near enough
        ok = (alpha >= 0.3) & (resid <= BLEED_RESID) & (t >= ink_luma - luma) \
            & (t <= 1.0 - luma)
        return alpha.astype(np.float32), ok

    def _resid(self, x: np.ndarray, pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(residual, scale) of every letter's fit `pred` (`_fit_all`) of pixels (as
        `_fit_all` takes them): the distance from the fit, judged against the grey ink's length
        for a grey ink and against the pixel's own length for a coloured one."""
        sq = x * x
        norm_x = np.sqrt(sq[0] + sq[1] + sq[2]) + np.float32(0.05)
        scale = np.where(self.neutral[:, None], self._grey_length, norm_x)
        e = x - pred
        e *= e
        return np.sqrt(e[0] + e[1] + e[2]) / scale, scale

    @cached_property
    def _grey_length(self) -> np.ndarray:
        """Per letter (letters x 1, float32), the grey ink's length from paper; 1 for a
        coloured ink (harmless: `_resid` does not use it there)."""
        length = np.ones((len(self.inks), 1), np.float32)
        for i, (g, c) in enumerate(self._lines):
            if g:
                length[i, 0] = c[3]
        return length

    def _classify(self, alpha: np.ndarray, shade: np.ndarray, resid: np.ndarray) -> np.ndarray:
        """The kind of each pixel from every letter's fit (letters x pixels): the best coloured
        ink that fits, else the best grey ink that fits, else OTHER."""
        cs, gs = self._rows
        kind = np.full(alpha.shape[1], OTHER, np.int64)
        # grey first: a coloured ink that fits overrides it
        if gs is not None:
            a, e = alpha[gs], resid[gs]
            kind = _best_fit(kind, (a >= 0.3) & (e <= 0.15 + 0.15 * a), e, gs)
        if cs is not None:
            s, e = shade[cs], resid[cs]
            ok = (alpha[cs] >= 0.3) & (e <= 0.2) & (s >= SHADE_RANGE[0]) & (s <= SHADE_RANGE[1])
            kind = _best_fit(kind, ok, e, cs)
        return kind

    @cached_property
    def _plane_normals(self) -> np.ndarray:
        """Per letter (letters x 3), the normal of the plane through paper's and its ink's
        directions (1 x ink): the plane every fit of `_fit_all` lies in."""
        n = np.cross(np.ones(3, np.float32), self.inks).astype(np.float32)
        n.flags.writeable = False
        return n

    def _bled(self, x: np.ndarray, cast: np.ndarray, candidates: np.ndarray,
              kind: np.ndarray, alpha: np.ndarray) -> None:
        """Refit, in place, the pixels (x, cast: pixels x 3) that no ink
        explains and that do not look like paper (`candidates`; `kind`, `alpha`: letters x
        pixels, as `_classify` gave them), allowing for chroma bled in from the paper. JPEG and
        video keep colour at half resolution: a small symbol takes on part of the paper's
        chroma while keeping its own luma. In paper-normalised RGB that mixes the colour with
        a grey of its own luma (within each ink's paper-ink plane, which `_fit_all` already
        spans) and adds t·cast, 0 ≤ t ≤ 1 - the pixel's luma (at most all of its chroma
        replaced by the paper's). Per letter, t is what takes the pixel back to its plane,
        held to that range; the rest is fitted as before."""
        # no cast: no bleed; and a pixel that looks like paper is paper (`explain` names it
        # so): bled chroma matters for the darker pixels of a symbol, and most of the pixels
        # no ink explains are the paper between and inside the symbols
        idx = np.flatnonzero(candidates)
        cs = cast[idx]
        idx = idx[(cs[:, 0] != 0.0) | (cs[:, 1] != 0.0) | (cs[:, 2] != 0.0)]
        if not idx.size:
            return
        cs, xs = cast[idx], x[idx]
        luma = _luma(xs, cs)
        n = self._plane_normals                    # letters x 3
        off, along = xs @ n.T, cs @ n.T            # pixels x letters
        t = np.where(np.abs(along) > 1e-4, off / np.where(along == 0, 1.0, along), 0.0)
        t = np.clip(t, 0.0, np.maximum(1.0 - luma, 0.0)[:, None]).T   # letters x pixels
        # per letter: x - t·cast, channel planes stacked (3 x letters x pixels)
        planes = xs.T[:, None, :] - t * cs.T[:, None, :]
        a, s, pred = self._fit_all(planes, shaded=False)
        new = self._classify(a, s, self._resid(planes, pred)[0])
        # only a strong ink: a pale pixel's tint could as well be a darker neighbour's chroma
        # bled into it (the other way), so its hue says too little
        got = (new >= 0) & (a[np.maximum(new, 0), np.arange(new.size)] >= BLED_MIN_ALPHA)
        if got.any():
            kind[idx[got]] = new[got]
            alpha[:, idx[got]] = a[:, got]

    def _censored(self, x: np.ndarray, low: np.ndarray, high: np.ndarray, alpha: np.ndarray,
                  shade: np.ndarray, pred: np.ndarray, resid: np.ndarray,
                  scale: np.ndarray) -> None:
        """Refit, in place, the pixels (x, low, high: channel planes, 3 x pixels; `alpha`,
        `shade`, `pred`: their plain fits) whose true colour is only bounded: the fit and the
        values the bounds allow are brought together by alternating projections (a fit to the
        allowed value nearest the last fit), and the residual is the distance from the fit to
        the allowed values."""
        # a pixel clipped with the paper in two channels is known in one only, which cannot
        # tell the inks apart: it keeps its plain fit
        under, over = low < x, high > x
        both = under & over
        # per pixel: some channel bounded, fewer than two bounded both ways (row by row)
        some = under | over
        idx = np.flatnonzero((some[0] | some[1] | some[2])
                             & ((both[0].view(np.uint8) + both[1].view(np.uint8)
                                 + both[2].view(np.uint8)) < 2))
        if not idx.size:
            return
        xs = x[:, idx]
        lo, hi = low[:, idx][:, None, :], high[:, idx][:, None, :]   # 3 x 1 x pixels
        # the first fit, to the values seen, is the plain fit already made, held to the shade
        # range (the same numbers `_fit_all(shaded=True)` gives, without fitting again)
        a, s, p = alpha[:, idx], shade[:, idx], pred[:, :, idx]
        cs, gs = self._rows
        # each kind of ink on its own (a letter's fit depends on its own colour only)
        if cs is not None:
            ac, sc, pc = self._held(xs[:, None, :], a[cs], s[cs], p[:, cs])
            a[cs], s[cs], p[:, cs] = _refit_censored((ac, sc, pc), lo, hi, self._refit_coloured)
        if gs is not None:
            a[gs], s[gs], p[:, gs] = _refit_censored((a[gs], s[gs], p[:, gs]), lo, hi,
                                                     self._fit_grey)
        e = p - clip(p, lo, hi)
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


def _refit_censored(fit: tuple[np.ndarray, np.ndarray, np.ndarray], lo: np.ndarray,
                    hi: np.ndarray, refit: Callable[[np.ndarray], tuple[np.ndarray, ...]]
                    ) -> tuple[np.ndarray, ...]:
    """`fit` (alpha, shade, prediction) refitted by `refit` to its prediction held to the
    allowed values (`lo`, `hi`), up to CENSOR_STEPS times. A step is a function of the
    allowed values it starts from alone: once those come out the same as the last step's,
    every further step repeats it, and the loop stops."""
    last = None
    for _ in range(CENSOR_STEPS):
        c = clip(fit[2], lo, hi)
        if last is not None and np.array_equal(c, last):
            break
        fit = refit(c)
        last = c
    return fit


@cache
def builtin_model(edition: str) -> ColourModel:
    """Prototypes from the printed design (ink / paper per channel). One model per edition,
    shared (a model is frozen): a reader made for each table or photo finds the constants of
    its fits (the cached properties) worked out already."""
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
    # worked out channel by channel in the samples' own BGR order and reversed at the end,
    # as `normalise` does: on arrays laid out BGR NumPy runs its loops along whole rows, on
    # their RGB views three values at a time (twice as slow)
    raw = np.asarray(bgr, np.float32)
    white = np.asarray(white_bgr, np.float32)
    x = (normalise(bgr, white_bgr) if normalised is None else normalised)[..., ::-1]
    high = raw >= CLIP_HIGH
    low = np.where(raw <= CLIP_LOW, -np.inf,
                   np.where(high & (white >= CLIP_HIGH), x / OVEREXPOSED_MAX, x))
    return low[..., ::-1], np.where(high, np.inf, x)[..., ::-1]


def normalise(bgr: np.ndarray, white_bgr: np.ndarray) -> np.ndarray:
    """BGR samples divided by their white reference, returned as RGB (paper ≈ 1, 1, 1)."""
    white = np.maximum(np.asarray(white_bgr, np.float32), 8.0)
    return (np.asarray(bgr, np.float32) / white)[..., ::-1]


def _index(mask: np.ndarray) -> slice | np.ndarray | None:
    """The True places of `mask` as an index: a slice when they are consecutive (a view, no
    copy), None when there are none."""
    idx = np.flatnonzero(mask)
    if not idx.size:
        return None
    if idx[-1] - idx[0] + 1 == idx.size:
        return slice(int(idx[0]), int(idx[-1]) + 1)
    return idx


def _best_fit(kind: np.ndarray, ok: np.ndarray, resid: np.ndarray,
              rows: slice | np.ndarray) -> np.ndarray:
    """Per pixel, the letter (of `rows`, see `_index`) whose fit is good (`ok`) with the least
    residual, the first such on a tie; `kind` where none is good (each ok, resid: rows x
    pixels). `np.argmin` over the rows of np.where(ok, resid, inf), worked out row by row:
    NumPy's argmin across rows walks each pixel's few values on their own, several times
    slower than a comparison of whole rows. (A good fit's residual is finite, never NaN.)"""
    letters = range(rows.start, rows.stop) if isinstance(rows, slice) else rows.tolist()
    least = np.where(ok[0], resid[0], np.inf)
    best = np.where(ok[0], letters[0], kind)
    for i in range(1, len(ok)):
        better = ok[i] & (resid[i] < least)
        best = np.where(better, letters[i], best)
        least = np.where(better, resid[i], least)
    return best


def clip(x: np.ndarray, low: float | np.ndarray, high: float | np.ndarray) -> np.ndarray:
    """`np.clip(x, low, high)` as its ufunc computes it, min(max(x, low), high), without the
    Python layer around it (the fits clip small arrays many times a frame)."""
    return np.minimum(np.maximum(x, low), high)


def paper_grey(r: np.ndarray, g: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(luminance, grey as paper) of paper-normalised channel planes: their mean, and whether
    the channels spread no more than paper's do (under 0.16 + 0.1 x the luminance)."""
    lum = (r + g + b) / 3.0
    spread = np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)
    return lum, spread < 0.16 + 0.1 * lum


def _luma(x: np.ndarray, cast: np.ndarray) -> np.ndarray:
    """The luma of paper-normalised pixels (… x 3) relative to the paper's, from their cast
    (`chroma_cast`: 1 - luma(white) / white, so white = luma(white) / (1 - cast))."""
    m = 1.0 - cast
    return (x[..., 0] * LUMA_RGB[0] / m[..., 0] + x[..., 1] * LUMA_RGB[1] / m[..., 1]
            + x[..., 2] * LUMA_RGB[2] / m[..., 2])


def chroma_cast(white_bgr: np.ndarray) -> np.ndarray:
    """Per white reference (… x 3 BGR), the direction (… x 3, RGB, paper-normalised) in which
    chroma bled in from the paper moves a darker neutral pixel: JPEG and video keep colour at
    half the resolution of brightness, so a thin dark line on paper lit by a coloured lamp
    takes on part of the paper's chroma while keeping its own luma. In raw values that adds a
    multiple of (white - its luma); divided by the white, of 1 - luma / white. Zero under a
    neutral white (nothing to bleed)."""
    w = np.maximum(np.asarray(white_bgr, np.float32)[..., ::-1], 8.0)
    luma = w[..., 0] * LUMA_RGB[0] + w[..., 1] * LUMA_RGB[1] + w[..., 2] * LUMA_RGB[2]
    return 1.0 - luma[..., None] / w
