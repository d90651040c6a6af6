"""Shared notation (RULES.md "Shared notation"): axial directions, edges, distances, rotation."""

import pytest

from companion.rules import hexgrid as hg


def test_directions_are_counter_clockwise_from_east():
    assert hg.DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert hg.DIRECTION_NAMES == ("E", "NE", "NW", "W", "SW", "SE")


@pytest.mark.parametrize("d", range(6))
def test_neighbour_sees_edge_d_as_d_plus_3(d):
    a = (2, -1)
    b = hg.neighbour(a, d)
    assert hg.direction_between(a, b) == d
    assert hg.direction_between(b, a) == (d + 3) % 6 == hg.opposite(d)
    assert hg.distance(a, b) == 1


def test_distance_examples():
    assert hg.distance((0, 0), (2, -1)) == 2
    assert hg.distance((0, 0), (3, -3)) == 3
    assert hg.distance((-1, 2), (1, -2)) == 4
    assert hg.direction_between((0, 0), (2, 0)) is None


def test_rotate_maps_each_direction_to_the_next():
    for d in range(6):
        assert hg.rotate(hg.DIRECTIONS[d], 1) == hg.DIRECTIONS[(d + 1) % 6]
    assert hg.rotate((2, -1), 6) == (2, -1)


def test_rings_and_boards():
    assert len(hg.ring((0, 0), 2)) == 12
    assert len(hg.hexagon(2)) == 19
    assert len(hg.hexagon(3)) == 37
    assert all(hg.distance((0, 0), c) == 3 for c in hg.ring((0, 0), 3))


def test_plane_round_trip_and_pointy_top_layout():
    # pointy-top: E neighbour is straight to the right, SE is down-right
    x, y = hg.to_plane((1, 0))
    assert y == 0 and x == pytest.approx(3 ** 0.5)
    x, y = hg.to_plane((0, 1))
    assert x == pytest.approx(3 ** 0.5 / 2) and y == pytest.approx(1.5)
    for cell in hg.hexagon(4):
        assert hg.from_plane(*hg.to_plane(cell, 7.0), size=7.0) == cell
        px, py = hg.to_plane(cell, 7.0)
        assert hg.from_plane(px + 2.0, py - 2.5, size=7.0) == cell  # well inside the hexagon
