"""`companion recognize IMAGE|VIDEO|DIR --game hexel`: read Hex'el cards from pictures. An image
or a folder of images is read frame by frame (each picture calibrated from its own table markers,
if visible); a video is read with one calibration and the temporal filter, printing the table each
time its stable reading changes. Colour prototypes saved by `companion calibrate colours` and a
camera calibration saved by `companion calibrate camera` (calibration/) are used when present.
Unless `--edition` names the cards' edition, each frame is read with both editions' models and
the reading with more cards whole is kept (`vision.edition`); a video keeps the first edition a
frame tells apart.

`--game hexapod` reads Hexapod display cases instead (`companion.vision.hexapod`): per case the
player its board's markers name and the code of every cell, '?' where hidden. Pictures are read
one by one; a video with the case poses tracked from frame to frame, printing the reading each
time it changes.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from ._argtypes import millimetres, seconds
from ._paths import unwritable_file, unwritable_folder

IMAGE_EXT = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".avif"}
# photo formats OpenCV cannot decode (a phone's default on some models)
UNREADABLE_EXT = {".heic", ".heif"}
UNREADABLE_HINT = ("OpenCV cannot decode HEIC/HEIF photos: save it as JPEG or PNG (on an "
                   "iPhone, Settings > Camera > Formats > Most Compatible)")
CALIBRATION_DIR = Path("calibration")


def register(sub: argparse._SubParsersAction) -> None:
    """Add `recognize`."""
    p = sub.add_parser("recognize", help="read the cards on a table from an image or video",
                       description="Read Hex'el cards from an image, a folder of images or a "
                                   "video. Prints cell, symbols (E, NE, NW, W, SW, SE as seen in "
                                   "the image), confidence and occlusion for every card.")
    p.add_argument("source", help="image file, folder of images, or video file")
    p.add_argument("--game", choices=["hexel", "hexapod"], default="hexel",
                   help="hexel (default) or hexapod (display cases with corner markers)")
    p.add_argument("--edition", choices=["auto", "holodex", "web"], default="auto",
                   help="the cards' edition; auto (default) reads with both and keeps the one "
                        "that reads more cards whole (notes say which)")
    p.add_argument("--json", action="store_true", help="print JSON (one object per frame)")
    p.add_argument("--annotate", metavar="OUT.png",
                   help="write the (last) frame with what was read drawn on it")
    p.add_argument("--dump-stages", metavar="DIR",
                   help="write every stage's image (mask, hexagons, lattice, samples, result)")
    p.add_argument("--calibration", metavar="DIR", default=str(CALIBRATION_DIR),
                   help="folder with saved colour/camera calibrations (default calibration/)")
    p.add_argument("--marker-mm", type=millimetres, default=40.0,
                   help="the table markers' printed size, the black square's side in mm "
                        "(`markers export --size-mm`; default 40)")
    p.add_argument("--stable-s", type=seconds, default=1.0,
                   help="video: seconds a table must look the same to count (default 1.0)")
    p.set_defaults(run=run)


def _is_video(source: Path) -> bool:
    """Whether `source` is a video file: a file whose extension is no photo's (one OpenCV
    reads or one it cannot)."""
    return source.is_file() and source.suffix.lower() not in IMAGE_EXT | UNREADABLE_EXT


def _frames(source: Path):
    """(name, frame, time) triples from an image, a folder or a video. A picture that cannot
    be read, or that the readers cannot take (`frames.frame_problem`: a sliver a pixel or two
    wide), is an error on its own, and skipped, with a word on stderr, in a folder."""
    import cv2

    from ..vision.frames import frame_problem

    if source.is_dir():
        skipped = sorted(f.name for f in source.iterdir() if f.suffix.lower() in UNREADABLE_EXT)
        if skipped:
            print(f"skipped {', '.join(skipped)}: {UNREADABLE_HINT}", file=sys.stderr)
        files = sorted(f for f in source.iterdir() if f.suffix.lower() in IMAGE_EXT)
        for i, f in enumerate(files):
            img = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if img is None:   # (a damaged or empty file: named, as a sliver is)
                print(f"skipped {f.name}: cannot read it as a picture", file=sys.stderr)
                continue
            problem = frame_problem(img)
            if problem is not None:   # (one picture the readers cannot take: the rest go on)
                print(f"skipped {f.name}: {problem}", file=sys.stderr)
                continue
            yield f.name, img, float(i)
        return
    if source.suffix.lower() in UNREADABLE_EXT:
        raise ValueError(f"cannot read {source}: {UNREADABLE_HINT}")
    if source.suffix.lower() in IMAGE_EXT:
        img = cv2.imread(str(source), cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError(f"cannot read image {source}")
        problem = frame_problem(img)
        if problem is not None:
            raise ValueError(f"cannot read {source}: {problem}")
        yield source.name, img, 0.0
        return
    cap = cv2.VideoCapture(str(source))
    if not cap.isOpened():
        raise ValueError(f"cannot open {source} as an image or a video")
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    i = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        yield f"frame {i}", frame, i / fps
        i += 1


def _print(name: str, obs, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"source": name, **obs.to_json()}))
        return
    print(f"{name}: {len(obs.cards)} card(s){'' if obs.calibrated else ' (uncalibrated)'}")
    for c in obs.cards:
        flag = "  OCCLUDED" if c.occluded else ""
        print(f"  ({c.cell[0]:3d},{c.cell[1]:3d})  {c.symbols}  {c.confidence:.2f}{flag}")
    for c in obs.loose:
        flag = "  OCCLUDED" if c.occluded else ""
        x, y = c.centre_px
        print(f"  off the lattice at ({x:.0f}, {y:.0f}) px  {c.symbols}  {c.confidence:.2f}"
              f"{flag}")
    for n in obs.notes:
        print(f"  note: {n}")


def run(args: argparse.Namespace) -> int:
    if args.game == "hexapod":
        return run_hexapod(args)
    import cv2

    from ..vision.edition import EDITIONS, choose_edition
    from ..vision.reader import HexelReader
    from ..vision.temporal import StableFilter

    source = Path(args.source)
    if not source.exists():
        return _fail(f"{source} does not exist")
    problem = _outputs_problem(args)
    if problem is not None:
        return _fail(problem)
    saved = _saved(args)
    if isinstance(saved, int):
        return saved
    camera = saved.camera
    editions = EDITIONS if args.edition == "auto" else (args.edition,)
    models = {e: saved.hexel[e] for e in editions}
    is_video = _is_video(source)

    def new_readers() -> dict[str, HexelReader]:
        return {e: HexelReader(e, model=models[e], camera=camera, find_markers=is_video,
                               marker_mm=args.marker_mm)
                for e in editions}

    readers = new_readers()
    filt = StableFilter(args.stable_s) if is_video else None
    last = None
    shown = None
    try:
        for seq, (name, frame, t) in enumerate(_frames(source)):
            if not is_video:   # each picture is its own table, seen by its own camera
                readers = new_readers()
                first = next(iter(readers.values()))
                first.calibrate(frame)
                for r in readers.values():
                    r.view = first.view
            results = {e: r.read(frame, t, seq, keep_stages=bool(args.dump_stages))
                       for e, r in readers.items()}
            result = next(iter(results.values()))
            if len(results) > 1:
                choice = choose_edition({e: res.observation for e, res in results.items()})
                result = results[choice.edition]
                obs = result.observation
                obs = replace(obs, notes=(*obs.notes, choice.note))
                result = replace(result, observation=obs)
                if is_video and choice.decided:   # one table, one deck: read on with it
                    readers = {choice.edition: readers[choice.edition]}
            last = (frame, result)
            if filt is None:
                _print(name, result.observation, args.json)
            else:
                stable = filt.update(result.observation, t)
                if stable is not None and (shown is None or stable.t != shown.t):
                    _print(f"{name} (stable)", stable, args.json)
                    shown = stable
            if args.dump_stages:
                _dump(args.dump_stages, name, result.stages)
    except ValueError as exc:
        return _fail(str(exc))
    if last is None:
        return _fail(f"no readable image in {source}")
    if args.annotate:
        from ..vision.annotate import annotate

        frame, result = last
        if not cv2.imwrite(args.annotate, annotate(frame, result.observation, result.poses,
                                                   result.view, result.loose_poses)):
            return _fail(f"could not write {args.annotate}")
    return 0


def _saved(args: argparse.Namespace):
    """The calibrations saved in `--calibration` (`vision.saved.load_saved`), or the exit
    status after saying which file cannot be used."""
    from ..vision.saved import CalibrationError, load_saved

    try:
        return load_saved(args.calibration)
    except CalibrationError as exc:
        return _fail(str(exc))


def _fail(message: str) -> int:
    """Print `message` as an error and give the command's exit status for bad input."""
    print(f"error: {message}", file=sys.stderr)
    return 2


def _dump(directory: str, name: str, stages: dict) -> None:
    """Write each stage image of frame `name` as DIR/<stem>_<stage>.png (ValueError where one
    cannot be written)."""
    import cv2

    out = Path(directory)
    stem = Path(name).stem.replace(" ", "_")
    for stage, img in stages.items():
        path = out / f"{stem}_{stage}.png"
        if not cv2.imwrite(str(path), img):
            raise ValueError(f"could not write {path}")


# the picture formats `--annotate` can be written as (OpenCV's writers for them are built in)
WRITABLE_EXT = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


def _outputs_problem(args: argparse.Namespace) -> str | None:
    """Why `--annotate` or `--dump-stages` cannot be written where they name, found before any
    frame is read (their folders made where missing: `_paths`), or None. Before, an annotation
    to a folder that did not exist was silently not written (exit 0), one named `.xyz` failed
    with OpenCV's traceback after the whole read, and `--dump-stages` naming a file raised."""
    if args.annotate:
        path = Path(args.annotate)
        if not path.is_dir() and path.suffix.lower() not in WRITABLE_EXT:
            return (f"--annotate {args.annotate}: name a picture file ending in "
                    f"{', '.join(WRITABLE_EXT)}")
        problem = unwritable_file(path)
        if problem is not None:
            return f"--annotate: {problem}"
    if args.dump_stages:
        problem = unwritable_folder(Path(args.dump_stages))
        if problem is not None:
            return f"--dump-stages: {problem}"
    return None


def _print_hexapod(name: str, obs, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"source": name, **obs.to_json()}))
        return
    print(f"{name}: {len(obs.cases)} display case(s)")
    for case in obs.cases:
        hidden = sum(sum(row) for row in case.occluded)
        print(f"  player {case.player}  confidence {case.confidence:.2f}"
              f"{f'  {hidden} cell(s) hidden' if hidden else ''}")
        for row in case.grid:
            print("    " + " ".join(f"{code:2s}" for code in row).rstrip())
    for n in obs.notes:
        print(f"  note: {n}")


def run_hexapod(args: argparse.Namespace) -> int:
    """`recognize --game hexapod`: print the display cases of every frame."""
    import cv2

    from ..vision.hexapod import HexapodReader, annotate

    source = Path(args.source)
    if not source.exists():
        return _fail(f"{source} does not exist")
    problem = _outputs_problem(args)
    if problem is not None:
        return _fail(problem)
    is_video = _is_video(source)
    saved = _saved(args)
    if isinstance(saved, int):
        return saved
    reader = HexapodReader(track=is_video, params=saved.hexapod)
    last = None
    shown = None
    try:
        for seq, (name, frame, t) in enumerate(_frames(source)):
            result = reader.read_full(frame, t, seq)
            last = (frame, result)
            reading = [(c.player, c.grid) for c in result.observation.cases]
            if not is_video or reading != shown:
                _print_hexapod(name, result.observation, args.json)
                shown = reading
            if args.dump_stages:
                stages = {}
                for read, case in zip(result.reads, result.observation.cases, strict=True):
                    stages[f"p{case.player}_canvas"] = read.canvas.clip(0, 255).astype("uint8")
                    stages[f"p{case.player}_labels"] = (
                        read.labels.astype("uint16") * 255 // 21).astype("uint8")
                _dump(args.dump_stages, name, stages)
    except ValueError as exc:
        return _fail(str(exc))
    if last is None:
        return _fail(f"no readable image in {source}")
    if args.annotate:
        frame, result = last
        if not cv2.imwrite(args.annotate, annotate(frame, result)):
            return _fail(f"could not write {args.annotate}")
    return 0
