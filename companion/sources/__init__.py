"""Frame sources: one `FrameSource` interface for every camera the referee can watch through.

Picamera2 (imported only when opened, so everything runs off a Pi), OpenCV `VideoCapture` (USB
webcam, video file, RTSP), a folder of images, a synthetic table drawn by a function of time, and
a scripted source for tests. `open_source(spec)` builds one from a config string, and
`SupervisedSource` keeps one running: it reports a failure or stall within `stall_s`, reopens with
backoff, and never raises into the caller. Nothing here knows about cards or rules.
"""

from .folder import ImageFolderSource
from .frame import EndOfStream, Frame, FrameSource, Pacer, SourceError, check_image
from .opencv import VideoCaptureSource
from .picamera import Picamera2Source, xrgb_to_bgr
from .scripted import Hang, ScriptedSource
from .spec import SPEC_HELP, open_source
from .supervised import SourceState, SourceStatus, SupervisedSource
from .synthetic import SyntheticSource

__all__ = [
    "SPEC_HELP",
    "EndOfStream",
    "Frame",
    "FrameSource",
    "Hang",
    "ImageFolderSource",
    "Pacer",
    "Picamera2Source",
    "ScriptedSource",
    "SourceError",
    "SourceState",
    "SourceStatus",
    "SupervisedSource",
    "SyntheticSource",
    "VideoCaptureSource",
    "check_image",
    "open_source",
    "xrgb_to_bgr",
]
