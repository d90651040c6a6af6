"""`companion markers export`: the table calibration standard on paper. Writes the four ArUco
table markers (DICT_4X4_50, ids 0-3 = top-left, top-right, bottom-right, bottom-left corner of the
play area) as an A4 PDF and a 300-dpi PNG, and the ChArUco camera-calibration board
(`companion.synth.boards.CHARUCO`) the same way.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli import group
from ._argtypes import dpi, millimetres


def export(out: Path, size_mm: float, dpi: int = 300) -> list[Path]:
    """Write the marker and ChArUco sheets (PDF + PNG) into `out`; returns the files."""
    import cv2

    from ..synth.boards import CHARUCO, charuco_sheet, marker_sheet, sheet_image
    from ..synth.printing import write_rect_sheet

    out.mkdir(parents=True, exist_ok=True)
    files = []
    for stem, sheet in ((f"table-markers-{size_mm:g}mm", marker_sheet(size_mm)),
                        (f"charuco-{CHARUCO.squares_x}x{CHARUCO.squares_y}", charuco_sheet())):
        pdf, png = out / f"{stem}.pdf", out / f"{stem}.png"
        write_rect_sheet(pdf, sheet.rects, sheet.labels, sheet.page_mm, sheet.title,
                         sheet.cut_boxes)
        if not cv2.imwrite(str(png), sheet_image(sheet, dpi)):
            raise OSError(f"cannot write {png}")
        files += [pdf, png]
    return files


def run_export(args: argparse.Namespace) -> int:
    """The `markers export` command."""
    try:
        files = export(Path(args.out), args.size_mm, args.dpi)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}")
        return 2
    print("wrote " + ", ".join(f.name for f in files) + f" to {args.out}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add `markers export`."""
    g = group(sub, "markers", "Printable calibration markers.")
    p = g.add_parser(
        "export", help="write the table markers and the ChArUco board (PDF + PNG)",
        description="Write the four ArUco table markers (DICT_4X4_50; id 0 top-left, 1 "
                    "top-right, 2 bottom-right, 3 bottom-left corner of the play area) with a "
                    "white quiet zone as an A4 PDF and a PNG, plus the ChArUco board for "
                    "`companion calibrate camera`. Print at 100 % (actual size).")
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--size-mm", type=millimetres, default=40.0,
                   help="marker side in mm, black border included (default 40)")
    p.add_argument("--dpi", type=dpi, default=300, help="PNG resolution (default 300)")
    p.set_defaults(run=run_export)
