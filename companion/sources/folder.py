"""`ImageFolderSource`: the images of a folder, in name order, played as a camera at `fps`.

Useful to replay photographs of a real table. Files are read when they are due, so a folder of
large photos costs no memory up front; an unreadable image raises `SourceError` naming the file.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2

from .frame import EndOfStream, Frame, Pacer, SourceError

__all__ = ["IMAGE_SUFFIXES", "ImageFolderSource"]

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class ImageFolderSource:
    """Plays every image in `path` (sorted by name), looping when `loop` is true."""

    def __init__(self, path: str | Path, fps: float = 5, loop: bool = True) -> None:
        self.path = Path(path)
        self.name = f"folder:{self.path}"
        self.loop = loop
        self._pacer = Pacer(fps)
        self._files: list[Path] = []
        self._pos = 0
        self._seq = 0

    def open(self) -> None:
        """List the images; raises `SourceError` if the folder is missing or has none."""
        if not self.path.is_dir():
            raise SourceError(f"{self.name}: no such folder; check the path")
        self._files = sorted(
            p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
        )
        if not self._files:
            raise SourceError(
                f"{self.name}: no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in the folder"
            )
        self._pos = 0
        self._pacer.reset()

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The next image when it is due."""
        if not self._files:
            raise SourceError(f"{self.name}: read() before open()")
        if self._pos >= len(self._files):
            if not self.loop:
                raise EndOfStream(f"{self.name}: all {len(self._files)} images played")
            self._pos = 0
        if not self._pacer.wait(timeout):
            return None
        file = self._files[self._pos]
        self._pos += 1
        image = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"{self.name}: cannot read image {file.name}; remove or fix it")
        self._seq += 1
        return Frame(image, time.monotonic(), self._seq)

    def close(self) -> None:
        """Forget the listing."""
        self._pacer.cancel()
        self._files = []
