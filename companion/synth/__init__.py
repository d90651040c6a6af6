"""Synth: print-and-play card faces, calibration targets and synthetic table scenes with exact
ground truth, for the printable PDFs, the tests, the benchmarks and the demo. Imports no rules,
store, web, hardware or vision: cards come in as data (`SceneCard`).

Modules: `cardface` (faces from `companion.faces`), `boards` (ArUco table markers, `CHARUCO`),
`printing` (PDF cut sheets), `camera` (pinhole + distortion), `surfaces` (table textures),
`effects` (light, blur, noise, hands), `scene` (`render_scene`, `sample_params`, truth types).
"""

from .boards import CHARUCO, MARKER_CORNERS, MARKER_MM, TABLE_DICT, CharucoSpec
from .cardface import Palette, render_face
from .effects import Hand
from .scene import (
    BANDS,
    CardTruth,
    MarkerTruth,
    SceneCard,
    SceneParams,
    SceneTruth,
    render_scene,
    sample_params,
)

__all__ = [
    "BANDS",
    "CHARUCO",
    "MARKER_CORNERS",
    "MARKER_MM",
    "TABLE_DICT",
    "CardTruth",
    "CharucoSpec",
    "Hand",
    "MarkerTruth",
    "Palette",
    "SceneCard",
    "SceneParams",
    "SceneTruth",
    "render_face",
    "render_scene",
    "sample_params",
]
