"""The demo's camera: the physical table rendered as a photograph by the synthetic renderer.

`SceneCamera(table)` is a function of time returning a BGR image of the `PhysicalTable` as it lies
now — every card as a printed face on its cell, the four table markers, an arm and hand reaching
over the cell a simulated player is busy with — for `companion.sources.SyntheticSource`. The
camera and the play area are fixed, so the reader's table calibration holds for the whole match
as the layout grows. Imported only when the renderer (`companion.synth.scene`) is available.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..faces import HEXEL_FACE
from ..synth.effects import Hand
from ..synth.scene import SceneCard, SceneParams, lattice_point, render_scene
from .simtable import PhysicalTable

__all__ = ["SceneCamera"]

AREA_MM = ((-300.0, -210.0), (430.0, 210.0))  # about 11 x 6 card pitches around the line


class SceneCamera:
    """Renders `table` at `size` with scene seed `seed` (see the module docstring)."""

    def __init__(self, table: PhysicalTable, edition: str = "holodex", seed: int = 1,
                 size: tuple[int, int] = (960, 540), yaw_deg: float = 0.0) -> None:
        self.table = table
        self.edition = edition
        self.params = dataclasses.replace(SceneParams(seed=seed, band="topdown", width=size[0],
                                                      height=size[1]), yaw_deg=yaw_deg)
        self.pitch = HEXEL_FACE.flat_to_flat_mm + self.params.gap_mm
        self._frame = 0

    def __call__(self, t: float) -> np.ndarray:
        cards, hand = self.table.snapshot()
        scene = [SceneCard(cell, symbols, 0) for cell, symbols in cards]
        hands: tuple[Hand, ...] = ()
        if hand is not None:
            x, y = (float(v) for v in lattice_point(hand, self.pitch))
            hands = (Hand(entry_mm=(x + 120.0, AREA_MM[1][1] + 400.0), palm_mm=(x, y + 20.0)),)
        self._frame += 1
        if not scene:
            scene = []
        image, _ = render_scene(scene, self.edition, self.params, hands=hands, area_mm=AREA_MM,
                                frame=self._frame)
        return image
