"""Table Companion: a camera referee for hexagonal and rectangular card games at a real table.

Subpackages: `rules` (pure rules engine), `vision` (frames to observations), `synth` (printable
cards and synthetic tables), `referee` (observation + rules -> moves), `store` (SQLite log),
`web` (Flask scoreboard), `hardware` (gpiozero buttons), `sources` (cameras), `cli`.

Importing the package keeps NumPy's BLAS to one thread (unless the caller set
OPENBLAS_NUM_THREADS): a frame is read on one core, and the reader's matrix products are small,
so a BLAS thread per core buys nothing and, spinning between calls, takes the cores that the
camera, the scoreboard and the buttons need (one hard frame: 51 ms of CPU became 115 ms).
It takes effect only when NumPy is first loaded after it, as in every `companion` command.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
