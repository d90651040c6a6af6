"""Table Companion: a camera referee for hexagonal and rectangular card games at a real table.

Subpackages: `rules` (pure rules engine), `vision` (frames to observations), `synth` (printable
cards and synthetic tables), `referee` (observation + rules -> moves), `store` (SQLite log),
`web` (Flask scoreboard), `hardware` (gpiozero buttons), `sources` (cameras), `cli`.
"""

__version__ = "0.1.0"
