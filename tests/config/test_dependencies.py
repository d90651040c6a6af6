"""Dependency direction of the infrastructure packages, checked in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FORBIDDEN = {
    "companion.store": {"gpiozero", "flask", "picamera2", "cv2", "companion.rules",
                        "companion.vision", "companion.web", "companion.hardware"},
    "companion.sources": {"gpiozero", "flask", "picamera2", "companion.rules",
                          "companion.vision", "companion.web", "companion.store"},
    "companion.hardware": {"flask", "picamera2", "companion.rules", "companion.vision",
                           "companion.web", "companion.store", "companion.sources"},
    "companion.config": {"gpiozero", "flask", "cv2", "numpy", "companion.rules",
                         "companion.hardware", "companion.store", "companion.sources"},
    "companion.service": {"gpiozero", "flask", "cv2", "numpy", "companion.rules"},
}


@pytest.mark.parametrize("module", sorted(FORBIDDEN))
def test_module_imports_nothing_it_must_not(module):
    code = f"import sys, json, {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    loaded = set(json.loads(out))
    assert not FORBIDDEN[module] & loaded, f"{module} pulls in {FORBIDDEN[module] & loaded}"
