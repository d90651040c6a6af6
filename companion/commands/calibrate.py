"""`companion calibrate camera|colours`: the two calibrations a table can save under calibration/.
`camera` computes lens intrinsics and distortion from several photos of the printed ChArUco board
(`companion markers export` prints it); `colours` learns the three symbol inks from one photo of
the edition's three single-kind cards (Hex'el), or the card inks from one photo of the printed
colour chart (Hexapod, `companion cards export --game hexapod`), for prints that differ from
ours. `companion recognize`
uses both when present. (The table itself needs no saved calibration: the reader finds the four
corner markers in every picture.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..cli import group
from ._paths import unwritable_file

if TYPE_CHECKING:
    from ..vision.calibration import Saveable


def register(sub: argparse._SubParsersAction) -> None:
    """Add `calibrate camera` and `calibrate colours`."""
    g = group(sub, "calibrate", "Calibrate the camera or the card colours (saved in calibration/).")
    cam = g.add_parser("camera", help="lens intrinsics from photos of the ChArUco board",
                       description="Compute the camera matrix and lens distortion from three or "
                                   "more photos of the printed ChArUco board taken from "
                                   "different angles; saves calibration/camera.json.")
    cam.add_argument("images", nargs="+", help="photos of the ChArUco board")
    cam.add_argument("--out", default="calibration/camera.json",
                     help="where to save (default calibration/camera.json)")
    cam.set_defaults(run=run_camera)
    col = g.add_parser("colours", help="learn the card inks from one photo",
                       description="Hex'el: learn the three symbol inks from one photo showing "
                                   "the edition's three single-kind cards (RRRRRR, BBBBBB and "
                                   "VVVVVV or YYYYYY) whole and flat; saves "
                                   "calibration/colours-<edition>.json. Hexapod (--game "
                                   "hexapod): learn the card inks from one photo of the colour "
                                   "chart (`companion cards export --game hexapod` writes it; "
                                   "print it with the cards' printer and paper) lying whole and "
                                   "flat; saves calibration/colours-hexapod.json.")
    col.add_argument("image", help="photo of the three single-kind cards, or of the Hexapod "
                                   "colour chart")
    col.add_argument("--game", choices=["hexel", "hexapod"], default="hexel")
    col.add_argument("--edition", choices=["holodex", "web"], default="holodex")
    col.add_argument("--out-dir", default="calibration", help="folder (default calibration/)")
    col.set_defaults(run=run_colours)


def _save(calibration: Saveable, path: Path) -> str | None:
    """Save `calibration` (anything with `to_json`) at `path` (`save_json`); why it could not
    be saved, or None."""
    from ..vision.calibration import save_json

    try:
        save_json(calibration, path)
    except OSError as exc:
        return f"cannot write {path}: {exc}"
    return None


def _charuco_spec():
    """The printed board's spec (from synth) if available, else vision's identical default."""
    try:
        from ..synth.boards import CHARUCO
        return CHARUCO
    except ImportError:  # pragma: no cover - synth is part of the package
        from ..vision.calibration import CharucoSpec
        return CharucoSpec()


def run_camera(args: argparse.Namespace) -> int:
    import cv2

    from ..vision.calibration import calibrate_camera

    out = Path(args.out)
    problem = unwritable_file(out)
    if problem is not None:
        print(f"error: {problem}; nothing calibrated", file=sys.stderr)
        return 2
    images = []
    for name in args.images:
        img = cv2.imread(name, cv2.IMREAD_COLOR)
        if img is None:
            print(f"error: cannot read {name}", file=sys.stderr)
            return 2
        images.append(img)
    try:
        cal = calibrate_camera(images, _charuco_spec())
    except (ValueError, cv2.error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problem = _save(cal, out)
    if problem is not None:
        print(f"error: {problem}; nothing saved", file=sys.stderr)
        return 2
    print(f"saved {out}: fx={cal.matrix[0][0]:.1f} fy={cal.matrix[1][1]:.1f} "
          f"rms={cal.rms_px:.3f} px")
    return 0


def run_colours(args: argparse.Namespace) -> int:
    import cv2

    if getattr(args, "game", "hexel") == "hexapod":
        return run_hexapod_colours(args)

    from ..vision.calibration import TableView, calibrate_table
    from ..vision.colour import colours_path
    from ..vision.frames import check_frame
    from ..vision.learn_inks import learn_colours

    path = colours_path(args.out_dir, args.edition)
    problem = unwritable_file(path)
    if problem is not None:
        print(f"error: {problem}; nothing learned", file=sys.stderr)
        return 2
    img = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if img is None:
        print(f"error: cannot read {args.image}", file=sys.stderr)
        return 2
    try:
        view = TableView(calibrate_table(check_frame(img, "the colour calibration")))
        model = learn_colours(img, args.edition, view)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problem = _save(model, path)
    if problem is not None:
        print(f"error: {problem}; nothing saved", file=sys.stderr)
        return 2
    print(f"saved {path}")
    for name, proto, said in zip(model.names, model.protos, _turns(model), strict=True):
        print(f"  {name:5s} {' '.join(f'{v:.3f}' for v in proto)}  (relative to paper, RGB)"
              f"{said}")
    return 0


def _turns(model) -> list[str]:
    """Per class of `model`, how its ink lies from our printed one ('' for the paper)."""
    import numpy as np

    from ..vision.colour import builtin_model
    from ..vision.learn_inks import hue_turns

    ours = builtin_model(model.edition)
    turns = hue_turns(np.asarray(model.inks, np.float64), ours)
    return [""] + ["  grey, as printed" if grey else "  hue as printed" if abs(turn) < 0.5
                   else f"  hue turned {turn:+.0f}° from our print"
                   for turn, grey in zip(turns, ours.neutral, strict=True)]


def run_hexapod_colours(args: argparse.Namespace) -> int:
    """`calibrate colours --game hexapod`: the card inks from a photo of the colour chart."""
    import cv2

    from ..vision.hexapod_calibrate import colours_file, learn_chart

    path = colours_file(args.out_dir)
    problem = unwritable_file(path)
    if problem is not None:
        print(f"error: {problem}; nothing learned", file=sys.stderr)
        return 2
    img = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if img is None:
        print(f"error: cannot read {args.image}", file=sys.stderr)
        return 2
    try:
        inks = learn_chart(img, source=args.image)
    except ValueError as exc:
        print(f"error: {exc}; nothing saved", file=sys.stderr)
        return 2
    problem = _save(inks, path)
    if problem is not None:
        print(f"error: {problem}; nothing saved", file=sys.stderr)
        return 2
    print(f"saved {path}")
    hues = inks.hues()
    for kind, rgb in inks.inks.items():
        hue = f"  hue {hues[kind]:7.1f}" if kind in hues else ""
        print(f"  {kind}  {' '.join(f'{v:.3f}' for v in rgb)}  (relative to paper, RGB; "
              f"{inks.used[kind]} swatches){hue}")
    return 0
