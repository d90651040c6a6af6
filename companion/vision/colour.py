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
        of the 2 x 2 normal equations of the fit s·((1-alpha)·paper + alpha·ink)."""
        lines = []
        for ink, grey in zip(self.inks, self.neutral, strict=True):
            i0, i1, i2 = (float(v) for v in ink)
            if grey:
                u = np.array([i0 - 1.0, i1 - 1.0, i2 - 1.0])
                length = float(np.linalg.norm(u))
                lines.append((True, (*(float(v) / length for v in u), length)))
                continue
            isum = i0 + i1 + i2
            inv = np.linalg.inv(np.array([[3.0, isum], [isum, i0 * i0 + i1 * i1 + i2 * i2]]))
            lines.append((False, (i0, i1, i2, float(inv[0, 0]), float(inv[0, 1]),
                                  float(inv[1, 0]), float(inv[1, 1]))))
        return tuple(lines)

    def explain(self, normalised: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every pixel (… x 3, paper-normalised RGB) explained as paper mixed with one ink.

        Returns (kind, alpha, dark): kind is the letter index, PAPER_K or OTHER; alpha the ink
        fraction of that letter (0 paper … 1 full ink); dark the ink fraction along the
        paper-to-grey-ink line (for the ring test). A coloured ink is fitted as
        s·((1-alpha)·paper + alpha·ink), so blur (the mix) and shade (s: a darker rim, a soft
        shadow) do not change its class; a grey ink, whose mix with paper looks like shade, is
        fitted as a plain mix.
        """
        x = np.asarray(normalised, np.float32)
        shape = x.shape[:-1]
        # channel planes: reductions over a trailing axis of 3 are slow in NumPy, so every sum
        # over channels below is written out
        r, g, b = np.ascontiguousarray(x.reshape(-1, 3).T)
        inks, neutral = self.inks, self.neutral
        n, size = len(inks), r.size
        alpha = np.zeros((n, size), np.float32)
        resid = np.full((n, size), np.inf, np.float32)
        shade = np.ones((n, size), np.float32)
        total = r + g + b
        norm_x = np.sqrt(r * r + g * g + b * b) + np.float32(0.05)
        dr, dg, db = r - 1.0, g - 1.0, b - 1.0
        d2 = dr * dr + dg * dg + db * db
        for i, (grey, c) in enumerate(self._lines):
            if grey:
                u0, u1, u2, length = c
                proj = dr * u0 + dg * u1 + db * u2
                alpha[i] = proj / length
                resid[i] = np.sqrt(np.maximum(d2 - proj * proj, 0.0)) / length
                continue
            i0, i1, i2, m00, m01, m10, m11 = c
            along = r * i0 + g * i1 + b * i2
            pa = np.maximum(m00 * total + m01 * along, 0.0)
            pb = np.maximum(m10 * total + m11 * along, 0.0)
            er, eg, eb = r - (pa + pb * i0), g - (pa + pb * i1), b - (pa + pb * i2)
            resid[i] = np.sqrt(er * er + eg * eg + eb * eb) / norm_x
            s = pa + pb
            alpha[i] = np.where(s > 1e-3, pb / np.maximum(s, 1e-3), 0.0)
            shade[i] = s
        chroma = ~neutral[:, None]
        chroma_ok = chroma & (alpha >= 0.3) & (resid <= 0.2) & (shade >= 0.55) & (shade <= 1.4)
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


def normalise(bgr: np.ndarray, white_bgr: np.ndarray) -> np.ndarray:
    """BGR samples divided by their white reference, returned as RGB (paper ≈ 1, 1, 1)."""
    white = np.maximum(np.asarray(white_bgr, np.float32), 8.0)
    return (np.asarray(bgr, np.float32) / white)[..., ::-1]
