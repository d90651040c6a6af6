"""`open_source`: build a frame source from the one-line spec used in the config and on the CLI.

Accepted specs: "picamera2" (or "picamera2:N" for camera N), "opencv:0" / "opencv:/dev/video0"
(a V4L2 device), "file:PATH" (a video file), a stream URL ("rtsp://...", "http(s)://..."),
"folder:PATH" (a folder of images), and "synthetic" (needs `render=`). Keyword options apply to
the kinds that have them — size, settle_s, exposure_ev (picamera2); size (opencv devices); loop
(file, folder); fps (folder, synthetic); render (synthetic) — and are ignored by the others, so
one config section serves every kind. The source is returned unopened.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .folder import ImageFolderSource
from .frame import FrameSource, SourceError
from .opencv import VideoCaptureSource
from .picamera import Picamera2Source
from .synthetic import SyntheticSource

__all__ = ["SPEC_HELP", "open_source"]

SPEC_HELP = (
    "picamera2, picamera2:N, opencv:INDEX, opencv:/dev/videoN, file:PATH, rtsp://..., "
    "http(s)://..., folder:PATH, synthetic"
)
_OPTIONS = {"size", "settle_s", "exposure_ev", "loop", "fps", "render"}
_STREAMS = ("rtsp://", "rtsps://", "rtmp://", "http://", "https://", "udp://", "tcp://")


def open_source(spec: str, **kw: Any) -> FrameSource:
    """The (unopened) source that `spec` names; raises `SourceError` for a malformed spec."""
    unknown = set(kw) - _OPTIONS
    if unknown:
        raise SourceError(f"open_source: unknown option(s) {sorted(unknown)}; "
                          f"known: {sorted(_OPTIONS)}")
    opts = {k: v for k, v in kw.items() if v is not None}
    if not isinstance(spec, str) or not spec.strip():
        raise SourceError(f"camera source {spec!r}: expected one of: {SPEC_HELP}")
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    if spec.lower().startswith(_STREAMS):
        return VideoCaptureSource(spec, **_pick(opts, "loop"))
    if kind == "picamera2":
        if arg and not arg.isdigit():
            raise SourceError(f"camera source {spec!r}: after 'picamera2:' give a camera "
                              "number, e.g. picamera2:0")
        return Picamera2Source(camera_num=int(arg or 0),
                               **_pick(opts, "size", "settle_s", "exposure_ev"))
    if kind == "opencv":
        if arg.isdigit():
            return VideoCaptureSource(int(arg), **_pick(opts, "size"))
        if arg.startswith("/dev/"):
            return VideoCaptureSource(arg, **_pick(opts, "size"))
        raise SourceError(f"camera source {spec!r}: after 'opencv:' give a device index "
                          "(opencv:0) or path (opencv:/dev/video0)")
    if kind == "file":
        _need(arg, spec, "a video file path, e.g. file:/home/pi/table.mp4")
        return VideoCaptureSource(str(Path(arg).expanduser()), **_pick(opts, "loop"))
    if kind == "folder":
        _need(arg, spec, "a folder of images, e.g. folder:calibration/shots")
        return ImageFolderSource(Path(arg).expanduser(), **_pick(opts, "fps", "loop"))
    if kind == "synthetic":
        if "render" not in opts:
            raise SourceError("camera source 'synthetic' needs a render function; it is "
                              "built by `companion demo`, not from a config file")
        return SyntheticSource(opts["render"], **_pick(opts, "fps"))
    raise SourceError(f"camera source {spec!r}: unknown kind; expected one of: {SPEC_HELP}")


def _pick(opts: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: opts[k] for k in names if k in opts}


def _need(arg: str, spec: str, what: str) -> None:
    if not arg:
        raise SourceError(f"camera source {spec!r}: expected {what}")
