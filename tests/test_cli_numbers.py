"""The command line's numbers out of range stop a command before it starts, with argparse's
usage error naming the option and the range (`commands/_argtypes.py`); a demo whose port is
taken says so and exits cleanly; the Hexapod simulation finds its deck from any folder."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from companion.cli import main
from companion.commands._argtypes import dpi, millimetres, number, port, seconds, share, whole

# each was taken (a port wrapped round to another, a share of 2, a pace of 0), hung (a frame
# rate of 0) or failed with a traceback (a dpi of 0 or 100 000, no cards, no seats, no layouts)
REFUSED = [
    (["demo", "--port", "99999"], "--port", "from 0 to 65535"),
    (["demo", "--port", "-1"], "--port", "from 0 to 65535"),
    (["demo", "--illegal", "2"], "--illegal", "from 0 to 1"),
    (["demo", "--pace", "0"], "--pace", "above 0"),
    (["demo", "--stable", "nan"], "--stable", "0 or more"),
    (["demo", "--duration", "-3"], "--duration", "above 0"),
    (["markers", "export", "--out", "x", "--dpi", "0"], "--dpi", "from 20 to 1200"),
    (["markers", "export", "--out", "x", "--size-mm", "inf"], "--size-mm", "above 0"),
    (["cards", "export", "--out", "x", "--dpi", "100000"], "--dpi", "from 20 to 1200"),
    (["bench", "referee", "--fps", "0"], "--fps", "above 0"),
    (["bench", "referee", "--clients", "0"], "--clients", "1 or more"),
    (["bench", "vision", "--cards", "0"], "--cards", "from 1 to 36"),
    (["bench", "vision", "--cards", "500"], "--cards", "from 1 to 36"),
    (["bench", "vision", "--scenes", "0"], "--scenes", "1 or more"),
    (["bench", "rules", "--players", "0"], "--players", "from 1 to 6"),
    (["bench", "rules", "--layouts", "0"], "--layouts", "1 or more"),
    (["recognize", "x.png", "--stable-s", "-1"], "--stable-s", "0 or more"),
    (["simulate", "hexel", "--max-hedge", "-1"], "--max-hedge", "0 or more"),
]


@pytest.mark.parametrize(("argv", "option", "span"), REFUSED)
def test_a_number_out_of_range_stops_the_command_with_a_usage_error(capsys, argv, option,
                                                                    span):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: expected" in err and span in err and argv[-1] in err


def test_the_types_take_their_whole_range_and_no_more():
    assert port("0") == 0 and port("65535") == 65535
    assert dpi("20") == 20 and dpi("1200") == 1200
    assert millimetres("0.5") == 0.5 and seconds("0") == 0.0
    assert share("0") == 0.0 and share("1") == 1.0
    assert whole(1, 6)("6") == 6 and number(0.0, above=True)("1e-9") == 1e-9
    for parse, text in ((port, "65536"), (port, "8000.5"), (dpi, "19"), (millimetres, "0"),
                        (millimetres, "-inf"), (seconds, "inf"), (share, "1.01"),
                        (share, "nan"), (whole(1), "one")):
        with pytest.raises(Exception) as info:
            parse(text)
        assert "expected a" in str(info.value) and repr(text) in str(info.value)


def test_a_demo_whose_port_is_taken_says_so_and_exits_cleanly():
    # it printed the error and then aborted at exit ("terminate called without an active
    # exception", exit code 134): the sensor's camera was left open
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "companion", "demo", "--port", str(busy),
                              "--duration", "2"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert f"cannot serve on 127.0.0.1:{busy}" in run.stdout and "try --port" in run.stdout
    assert "terminate called" not in run.stderr and "Traceback" not in run.stderr


def test_the_hexapod_simulation_finds_its_deck_from_any_folder(tmp_path):
    # it looked for models/hexapod-deck.json in the current folder
    run = subprocess.run([sys.executable, "-m", "companion", "simulate", "hexapod", "--games",
                          "2"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("Hexapod, 2 games")
