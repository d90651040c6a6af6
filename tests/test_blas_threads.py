"""Importing `companion` keeps NumPy's BLAS to one thread: a frame is read on one core, and BLAS
threads spinning between the reader's small matrix products would take the cores the camera,
the scoreboard and the buttons need. A caller's own OPENBLAS_NUM_THREADS still wins."""

from __future__ import annotations

import json
import os
import subprocess
import sys

_PROBE = ("import companion, numpy, threadpoolctl, json; "
          "print(json.dumps([p['num_threads'] for p in threadpoolctl.threadpool_info() "
          "if p['user_api'] == 'blas']))")


def _blas_threads(**env: str) -> list[int]:
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", _PROBE], env={**base, **env},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_blas_runs_on_one_thread_after_importing_companion() -> None:
    threads = _blas_threads()
    assert threads, "NumPy's BLAS library was not found by threadpoolctl"
    assert set(threads) == {1}


def test_a_callers_own_setting_wins() -> None:
    assert set(_blas_threads(OPENBLAS_NUM_THREADS="2")) == {2}
