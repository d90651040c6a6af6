"""Blue cards laid side by side and blurred together are cards, not a blue sleeve
(`hexapod_colour._untiled`): a region of one kind's labels big enough to be a sleeve in which
both the kind's ink and its dark body cover a share is printed tiles, while a sleeve is one
cloth, dark or bright all over. Crafted label canvases (a patch of tiles is kept out of the
sleeve mask, a navy and a gold sleeve are not), and hard table 686, where six blurred blue
cards were taken for a sleeve and the cells under it left '?'."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod_colour import BODY, INK, KINDS, LIGHT, _untiled

from .hexapod_scenes import assert_no_wrong_code, read_hard, read_hard_case

B = KINDS.index("B")


def _region(labels: np.ndarray) -> np.ndarray:
    return ((labels == INK + B) | (labels == BODY + B)).view(np.uint8)


def test_tiles_are_no_sleeve_and_a_one_colour_sleeve_is():
    labels = np.full((100, 100), LIGHT, np.uint8)     # board fill between
    # tiles: blue ink with a dark blue insect in each 20 px tile
    labels[:40, :60] = INK + B
    for y in range(0, 40, 20):
        for x in range(0, 60, 20):
            labels[y + 5:y + 15, x + 5:x + 15] = BODY + B
    # a navy sleeve (the kind's body colour all over, a few lit ink pixels in a fold)
    labels[60:, :] = BODY + B
    labels[70:72, 10:60] = INK + B
    regions = _region(labels)
    kept = _untiled(regions, labels, B)
    assert not kept[:40, :60].any()
    assert kept[60:, :].all()


def test_a_bright_sleeve_is_kept():
    labels = np.full((60, 60), INK + B, np.uint8)     # a gold or blue sleeve lit all over
    labels[:5, :5] = BODY + B
    kept = _untiled(_region(labels), labels, B)
    assert kept.all()


def test_blurred_blue_cards_are_read_not_hidden():
    read, case = read_hard_case(686, 2)
    for r, c in ((0, 2), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1)):
        assert case.visible[r][c] >= 1.0
        assert read.grid[r][c] == case.grid[r][c], (r, c, read.grid[r][c])
    assert_no_wrong_code(*read_hard(686))
