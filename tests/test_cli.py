"""The `companion` command line: every subcommand is discoverable and has --help."""

import argparse

import pytest

from companion.cli import build_parser, main


def _paths(parser: argparse.ArgumentParser, prefix=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*prefix, name)
                yield from _paths(sub, (*prefix, name))


def test_every_subcommand_has_help(capsys):
    paths = list(_paths(build_parser()))
    assert ("simulate", "hexel") in paths and ("bench", "rules") in paths
    for path in paths:
        with pytest.raises(SystemExit) as exc:
            main([*path, "--help"])
        assert exc.value.code == 0, path
        out = capsys.readouterr().out
        assert out.startswith("usage: companion " + " ".join(path)), path


def test_simulate_prints_a_summary_and_conserves_chips(capsys):
    assert main(["simulate", "hexel", "--players", "3", "--games", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 seats, 5 games" in out
    assert "before 300, after 300 (conserved)" in out


def test_simulate_rejects_bad_options_with_a_clear_message(capsys):
    assert main(["simulate", "hexel", "--players", "7"]) == 2
    assert "seats must be 1 to 6" in capsys.readouterr().out


def test_simulate_accepts_a_deck_file_and_refuses_a_bad_one(tmp_path, capsys):
    import json

    deck = tmp_path / "deck.json"
    cards = ["RRRRRR", "BBBBBR", "BRRRRR"] + ["RRRBBB", "RRBBBB", "RBBBBB", "BBBBRR"] * 4
    deck.write_text(json.dumps({"cards": cards}))
    assert main(["simulate", "hexel", "--players", "2", "--games", "3", "--deck", str(deck)]) == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"cards": ["RRRRRR", "BBBBBQ", "RRRRRB"]}))
    assert main(["simulate", "hexel", "--deck", str(bad)]) == 2
    assert "outside RBV" in capsys.readouterr().out


@pytest.mark.parametrize("name, path", [
    ("hexel-deck", "models/hexel-deck-36.json"),
    ("hexapod-deck", "models/hexapod-deck.json"),
    ("comet-deck", "models/comet-deck.json"),
])
def test_models_are_reproduced_byte_for_byte_by_their_command(name, path, tmp_path):
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[1] / path
    out = tmp_path / "out.json"
    assert main(["models", name, "--out", str(out)]) == 0
    assert out.read_bytes() == shipped.read_bytes()


def test_the_hexapod_drawings_are_reproduced_pixel_for_pixel_by_their_command(tmp_path):
    """`companion models hexapod-drawings` writes the grey drawings the Hexapod reader matches
    cells against as shipped (the card renderer's art; a change to it must be written again)."""
    from pathlib import Path

    import cv2
    import numpy as np

    assert main(["models", "hexapod-drawings", "--out", str(tmp_path)]) == 0
    root = Path(__file__).resolve().parents[1] / "models"
    for name in ("hexapod-stag.png", "hexapod-moth.png", "hexapod-beetles.png"):
        made = cv2.imread(str(tmp_path / name), cv2.IMREAD_GRAYSCALE)
        shipped = cv2.imread(str(root / name), cv2.IMREAD_GRAYSCALE)
        assert made is not None and shipped is not None
        assert np.array_equal(made, shipped), name


def test_a_closed_pipe_ends_the_command_quietly():
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "companion", "simulate", "hexel", "--games",
                             "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line, like `| head -0`
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_groups_of_a_parser_that_is_gone_are_not_kept():
    """Command groups (`bench`, `score`...) belong to the parser that made them. They were kept
    by the id() of its sub-parsers: a parser built after an earlier one was freed could be given
    the same id and take the old parser's groups ('conflicting subparser: referee', seen when
    the whole suite built parsers one after another). Parsers that are gone leave nothing."""
    import gc

    from companion import cli

    build_parser()
    gc.collect()
    before = len(cli._GROUPS)
    for _ in range(20):
        parser = build_parser()
        assert parser.parse_args(["bench", "vision", "--scenes", "1"]).scenes == 1
        del parser
        gc.collect()
    assert len(cli._GROUPS) <= before
