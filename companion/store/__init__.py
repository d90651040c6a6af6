"""Persistence: an append-only SQLite log of committed actions per game (`GameStore`).

State is the fold of the log, so a restart — even after `kill -9` or a power cut — resumes exactly
where the last committed action left it, and undo is itself a logged record. A file that is not
ours, is damaged, or was written by a newer version raises `StoreError` and is never reset. This
package imports nothing else of ours: it stores JSON text that the rules engine produced.
"""

from .gamestore import GameStore, UnknownGame
from .records import GameRecord, LogRecord
from .schema import APPLICATION_ID, SCHEMA_VERSION, StoreError

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "GameRecord",
    "GameStore",
    "LogRecord",
    "StoreError",
    "UnknownGame",
]
