"""RULES.md D1: HexDragon pieces written as links, the 5 body types, the 15 heads, rotation.

The classes are enumerated here independently of the engine (all pairings of six edges, all
head/tail/path layouts, grouped by rotation) and compared with what the engine lists.
"""

from collections import Counter

import pytest

from companion.rules.core import MalformedMessage
from companion.rules.hexdragon import (
    BAG,
    BODY_TYPES,
    HEAD_PIECES,
    START,
    check_links,
    distinct_rotations,
    identify,
    is_head,
    links_of,
    oriented,
    tail_position,
)


def matchings(edges):
    """Every way to pair up `edges` (a list of even length), as frozensets of pairs."""
    if not edges:
        return [frozenset()]
    first, rest = edges[0], edges[1:]
    out = []
    for partner in rest:
        remaining = [e for e in rest if e != partner]
        out += [m | {frozenset((first, partner))} for m in matchings(remaining)]
    return out


def turn_pairs(pairs, k):
    return frozenset(frozenset((a + k) % 6 for a in p) for p in pairs)


def pairs_of(links):
    return frozenset(frozenset((i, j)) for i, j in enumerate(links) if isinstance(j, int))


def spans(pairs):
    return sorted((min(abs(a - b), 6 - abs(a - b)) for a, b in map(tuple, pairs)), reverse=True)


def rotation_classes(items, turn):
    classes, seen = [], set()
    for item in items:
        if item in seen:
            continue
        cls = {turn(item, k) for k in range(6)}
        seen |= cls
        classes.append(cls)
    return classes


def test_d1_body_types_are_exactly_the_rotation_classes_of_pairings():
    all_pairings = matchings(list(range(6)))
    assert len(all_pairings) == 15
    classes = rotation_classes(all_pairings, turn_pairs)
    assert len(classes) == 5
    listed = {name: pairs_of(links) for name, links in BODY_TYPES.items()}
    for cls in classes:
        assert sum(listed[name] in cls for name in listed) == 1
    # the names are the spans of the three paths (1 short, 2 long, 3 straight)
    assert {n: spans(p) for n, p in listed.items()} == {
        "X": [3, 3, 3], "O": [1, 1, 1], "I": [3, 1, 1], "H": [3, 2, 2], "A": [2, 2, 1]}


def test_d1_body_links_are_the_lists_rules_md_writes():
    # RULES.md D1, copied from its text: X 333, O 111, I 311, H 322, A 221
    assert BODY_TYPES == {
        "X": (3, 4, 5, 0, 1, 2), "O": (1, 0, 3, 2, 5, 4), "I": (3, 2, 1, 0, 5, 4),
        "H": (3, 5, 4, 0, 2, 1), "A": (2, 5, 0, 4, 3, 1)}


def test_d1_body_pieces_pair_every_edge_both_ways():
    for links in BODY_TYPES.values():
        assert check_links(links) == links
        assert all(links[links[i]] == i for i in range(6))


def head_layouts():
    """Head on h, tail on t, the other four edges paired: 6 * 5 * 3 = 90 link lists."""
    out = []
    for h in range(6):
        for t in range(6):
            if t == h:
                continue
            rest = [e for e in range(6) if e not in (h, t)]
            for m in matchings(rest):
                links = [None] * 6
                links[h], links[t] = "H", "T"
                for a, b in map(tuple, m):
                    links[a], links[b] = b, a
                out.append(tuple(links))
    return out


def turn_links(links, k):
    out = [None] * 6
    for i, x in enumerate(links):
        out[(i + k) % 6] = (x + k) % 6 if isinstance(x, int) else x
    return tuple(out)


def test_d1_fifteen_head_pieces_one_per_rotation_class():
    layouts = head_layouts()
    assert len(layouts) == 90
    classes = rotation_classes(layouts, turn_links)
    assert len(classes) == 15 and all(len(c) == 6 for c in classes)
    assert len(set(HEAD_PIECES)) == 15
    for cls in classes:
        assert sum(h in cls for h in HEAD_PIECES) == 1
    assert all(h[0] == "H" for h in HEAD_PIECES)


def test_d1_tail_position_names():
    def name(links):
        t = links.index("T")
        return {1: "next", 5: "next", 2: "across", 4: "across", 3: "opposing"}[t]

    names = ["".join(map(str, h)) for h in HEAD_PIECES]
    assert all(is_head(n) for n in names)
    assert [tail_position(n) for n in names] == [name(h) for h in HEAD_PIECES]
    assert Counter(tail_position(n) for n in names) == {"next": 6, "across": 6, "opposing": 3}
    assert tail_position("HT3254") == "next"
    assert tail_position("H21T54") == "opposing"
    assert tail_position("H4T513") == "across"


def test_d1_start_piece_and_bag():
    assert START == ("T",) * 6
    assert links_of("start") == START
    assert BAG == {"A": 6, "H": 5, "I": 4, "O": 3, "X": 2}
    assert sum(BAG.values()) == 20


def test_d1_rotation_edge_i_faces_direction_i_plus_k():
    # A pairs edges 0-2, 1-5, 3-4; at rotation 1 they face directions 1-3, 2-0, 4-5
    assert oriented(BODY_TYPES["A"], 1) == (2, 3, 0, 1, 5, 4)
    # head on 0, tail on 5, paths 1-2 and 3-4; at rotation 3 the head faces W, the tail NW
    assert oriented(("H", 2, 1, 4, 3, "T"), 3) == (1, 0, "T", "H", 5, 4)
    assert oriented(BODY_TYPES["X"], 4) == BODY_TYPES["X"]


def test_d1_identify_any_frame_and_compose_rotations():
    for name in ("start", *BODY_TYPES, *("".join(map(str, h)) for h in HEAD_PIECES)):
        links = links_of(name)
        for r in range(6):
            shown = oriented(links, r)
            found, base = identify(shown)
            assert found == name
            for k in range(6):
                assert oriented(links_of(found), (base + k) % 6) == oriented(shown, k)


def test_d1_distinct_rotations_follow_symmetry():
    assert distinct_rotations("X") == (0,)
    assert distinct_rotations("O") == (0, 1)
    assert distinct_rotations("I") == (0, 1, 2)
    assert distinct_rotations("H") == (0, 1, 2)
    assert distinct_rotations("A") == tuple(range(6))
    assert distinct_rotations("HT3254") == tuple(range(6))


@pytest.mark.parametrize("links", [
    [1, 0, 3, 2, 5],              # five entries
    [1, 0, 3, 2, 5, 5],           # 5 points to itself
    [2, 0, 3, 2, 5, 4],           # 0->2 but 2->3
    [True, 0, 3, 2, 5, 4],        # a bool is no edge
    ["H", "X", 3, 2, 5, 4],       # unknown end
    "HT3254",                      # a name is not a links list
])
def test_d1_malformed_links_are_refused(links):
    with pytest.raises(MalformedMessage):
        check_links(links)


def test_d1_well_formed_links_that_are_no_piece_are_refused():
    with pytest.raises(MalformedMessage, match="no HexDragon piece"):
        identify(("H", "H", 3, 2, 5, 4))
