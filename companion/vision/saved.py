"""The calibrations saved in one folder (`calibration/` by default), loaded once for a reader
that runs for hours: the camera's intrinsics (`camera.json`, `companion calibrate camera`), the
Hex'el symbol inks of each edition (`colours-<edition>.json`) and the Hexapod card inks
(`colours-hexapod.json`, both `companion calibrate colours`). Every file is optional; a missing
one leaves the reader on its built-in model. A file that is there but cannot be read (truncated,
hand-edited, from another program) raises `CalibrationError` naming it, so the service refuses
to start with a clear message instead of refereeing with colours nobody asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .calibration import CameraCalibration, load_camera
from .colour import ColourModel, colours_path, load_model
from .edition import EDITIONS


class CalibrationError(ValueError):
    """A saved calibration file exists but cannot be used."""


@dataclass(frozen=True)
class SavedCalibrations:
    """What `load_saved` found under `directory` (None / built-in where no file was saved)."""

    directory: Path
    camera: CameraCalibration | None
    hexel: dict[str, ColourModel]
    hexapod: Any   # hexapod_windows.CellParams with the learned inks, or None (the defaults)
    files: tuple[str, ...]   # the files that were loaded, for the log

    def describe(self) -> str:
        """One line for the log."""
        if not self.files:
            return f"no saved calibrations in {self.directory} (built-in colours, no lens model)"
        return f"calibrations from {self.directory}: {', '.join(self.files)}"


def load_saved(directory: str | Path) -> SavedCalibrations:
    """Load every calibration saved under `directory` (which need not exist)."""
    from .hexapod_calibrate import colours_file, hexapod_params

    directory = Path(directory)
    files: list[str] = []

    def read(path: Path, load: Any) -> Any:
        try:
            value = load()
        except (ValueError, KeyError, TypeError, IndexError, OSError) as exc:
            raise CalibrationError(f"{path}: cannot be used ({exc}); calibrate again or "
                                   "remove the file") from None
        if path.is_file():
            files.append(path.name)
        return value

    camera = read(directory / "camera.json", lambda: load_camera(directory / "camera.json"))
    hexel = {e: read(colours_path(directory, e), lambda e=e: load_model(e, directory))
             for e in EDITIONS}
    hexapod = read(colours_file(directory), lambda: hexapod_params(directory))
    return SavedCalibrations(directory, camera, hexel, hexapod, tuple(files))


__all__ = ["CalibrationError", "SavedCalibrations", "load_saved"]
