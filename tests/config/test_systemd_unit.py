"""The shipped systemd unit: the directives the Pi depends on, and systemd's own verifier."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "companion.service"


def directives() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    section = ""
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return out


def test_the_unit_has_what_the_pi_needs():
    d = directives()
    assert d["Service.Type"] == ["notify"]
    assert float(d["Service.WatchdogSec"][0]) > 0
    assert d["Service.Restart"] == ["on-failure"]
    assert {"video", "gpio"} <= set(" ".join(d["Service.SupplementaryGroups"]).split())
    assert "LG_WD=/tmp" in d["Service.Environment"]
    assert d["Service.ExecStart"] == [
        "/opt/companion/.venv/bin/companion run --config /etc/companion/companion.toml"]
    assert d.get("Service.PrivateDevices", ["no"]) in (["no"], ["false"])
    assert d["Install.WantedBy"] == ["multi-user.target"]


def test_every_directive_is_explained_by_a_comment_above_its_group():
    lines = UNIT.read_text().splitlines()
    for i, line in enumerate(lines):
        if not line or line.startswith(("#", "[")):
            continue
        k = i - 1
        while k >= 0 and lines[k] and not lines[k].startswith(("#", "[")):
            k -= 1  # directives grouped under one comment
        assert k >= 0 and lines[k].startswith("#"), f"no comment explains {line!r}"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_accepts_the_unit():
    result = subprocess.run(["systemd-analyze", "verify", str(UNIT)], capture_output=True,
                            text=True, timeout=60)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if line.strip() and "is not executable" not in line]  # not installed here
    assert complaints == []
