"""Where a command writes its files, checked before it does any work: a file path that names a
folder, whose folder cannot be made, or that this user cannot write is refused with a message
naming it (the commands print it and exit 2). Shared by `recognize` (`--annotate`,
`--dump-stages`) and `calibrate` (`camera.json`, the colours files); before, such a path was
silently not written or failed with a traceback once the work was done."""

from __future__ import annotations

import os
from pathlib import Path


def unwritable_file(path: Path) -> str | None:
    """Why no file can be written at `path` (its folder made where missing), or None."""
    if path.is_dir():
        return f"{path} is a folder: name a file in it"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{path}: cannot make its folder: {exc}"
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"cannot write {path}: no permission"
    return None


def unwritable_folder(path: Path) -> str | None:
    """Why files cannot be written into the folder `path` (made where missing), or None."""
    if path.exists() and not path.is_dir():
        return f"{path} is a file: name a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{path}: cannot make the folder: {exc}"
    if not os.access(path, os.W_OK):
        return f"cannot write in {path}: no permission"
    return None
