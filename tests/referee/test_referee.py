"""The referee commits, undoes, persists and publishes (issue 4 "Referee", "Persistence")."""

import threading

from companion.referee.align import Alignment
from companion.referee.referee import Referee
from companion.referee.simtable import observe
from companion.rules.core import to_json
from companion.rules.hexel import GAME, HexelOptions, orient
from companion.rules.hexel.game import BuyIn, Discard, Hedge, NextGame, Place
from companion.rules.hexel.layout import EdgeMismatch

CAMERA = Alignment(4, (-2, 3))


def table(ref, extra=()):
    cards = [(p.cell, p.oriented) for p in ref.state.layout.placements] + list(extra)
    return observe(cards, CAMERA)


def lay_legal(ref):
    """Put a legal card of the seat to play on the (simulated) table and let the referee see it."""
    move = next(a for a in GAME.legal_actions(ref.state) if isinstance(a, Place))
    return move, ref.observe(table(ref, [(move.cell, orient(move.card, move.rotation))]))


def to_play(ref):
    assert ref.next().ok  # default stakes for every seat
    assert ref.state.phase == "play"


def test_confirm_commits_durably_then_publishes_state_and_announcement(referee, store):
    to_play(referee)
    sub = referee.bus.subscribe(None)
    assert sub.get(0).kind == "state"  # the snapshot a new page gets
    _move, p = lay_legal(referee)
    assert p.kind == "move" and p.legal
    assert sub.get(0).kind == "candidate"
    n_before = len(store.actions(referee.game_id))
    out = referee.confirm("button")
    assert out.ok, out.message
    assert store.actions(referee.game_id)[-1] == to_json(p.action)
    assert len(store.actions(referee.game_id)) == n_before + 1
    kinds = []
    while (u := sub.get(0)) is not None:
        kinds.append(u.kind)
    assert kinds[-2:] == ["state", "announce"]
    assert referee.history[-1]["headline"] == p.name
    assert referee.proposal.kind == "idle"  # the table now matches the committed layout


def test_the_store_is_written_before_anything_is_announced(referee, store):
    to_play(referee)
    seen_in_store = []
    sub = referee.bus.subscribe(None)
    sub.get(0)
    lay_legal(referee)
    original = referee.bus.publish

    def spy(kind, data, t=0.0):
        if kind in ("state", "announce"):
            seen_in_store.append(len(store.actions(referee.game_id)))
        return original(kind, data, t)

    referee.bus.publish = spy
    n = len(store.actions(referee.game_id))
    assert referee.confirm().ok
    assert seen_in_store == [n + 1, n + 1]


def test_an_illegal_candidate_is_refused_and_nothing_is_committed(referee, store):
    to_play(referee)
    state = referee.state
    for move in GAME.legal_actions(state):
        wrong = next((k for k in range(6) if _mismatch(state, move, k)), None)
        if wrong is not None:
            break
    p = referee.observe(table(referee, [(move.cell, orient(move.card, wrong))]))
    assert not p.legal and p.error_code == "edge_mismatch"
    n = len(store.actions(referee.game_id))
    out = referee.confirm()
    assert not out.ok and "does not match" in out.message
    assert len(store.actions(referee.game_id)) == n and referee.state is state


def _mismatch(state, move, k):
    try:
        state.layout.check(move.card, move.cell, k)
    except EdgeMismatch:
        return True
    except Exception:
        return False
    return False


def test_undo_replays_and_survives_a_restart(referee, store, clock):
    to_play(referee)
    before = referee.snapshot()["game"]
    lay_legal(referee)
    assert referee.confirm().ok
    after = referee.snapshot()["game"]
    assert after != before
    again = Referee(store, clock=clock)
    assert again.snapshot()["game"] == after  # restart resumes the same state
    assert again.undo().ok
    assert again.snapshot()["game"] == before
    third = Referee(store, clock=clock)
    assert third.snapshot()["game"] == before  # the undo is durable too
    assert [h["n"] for h in third.history] == list(range(1, len(third.log) + 1))


def test_auto_confirm_after_a_stable_period_but_not_right_after_an_undo(store, clock):
    ref = Referee(store, clock=clock, auto_confirm_s=1.5)
    ref.new_match(HexelOptions(seats=2), start="shuffle", seed=2)
    to_play(ref)
    lay_legal(ref)
    clock.t += 1.0
    assert ref.tick() is None
    clock.t += 1.0
    out = ref.tick()
    assert out is not None and out.ok
    ref.undo()
    lay_legal(ref)  # the card is still on the table: the same candidate comes back
    clock.t += 10
    assert ref.tick() is None
    assert ref.confirm().ok  # a deliberate confirm still works


def test_next_button_stakes_discards_and_starts_the_next_game(store, clock):
    ref = Referee(store, clock=clock)
    ref.new_match(HexelOptions(seats=2, stake=3, chips=(10, 10)))
    laid = observe([((0, 0), "RRRRRR"), ((1, 0), "RRRRBB"), ((2, 0), "BBBBBB")])
    p = ref.observe(laid)
    assert p.kind == "move", p.message
    if not p.legal:  # take whichever real line the rules accept
        line = GAME.apply(GAME.initial_state(ref.options), __import__(
            "companion.rules.hexel.game", fromlist=["Shuffle"]).Shuffle(1))[0].layout
        p = ref.observe(observe([(q.cell, q.oriented) for q in line.placements]))
    assert ref.confirm().ok and ref.state.phase == "stake" and not ref.state.tracked
    assert ref.next().ok  # default stake: 1 x 3 chips each
    assert ref.state.ledger["hedge:0"] == 3 and ref.state.phase == "play"
    seat = ref.state.to_play
    assert ref.next().ok  # a seat that cannot place discards face down
    assert isinstance(ref.log[-1], Discard) and ref.log[-1].seat == seat
    assert not ref.submit(NextGame()).ok  # refused by the rules: the game is not over
    assert not ref.submit(BuyIn(0, 5)).ok


def test_chip_changes_go_through_the_rules(referee, store):
    assert not referee.submit(Hedge(0, 1000)).ok
    assert referee.submit(Hedge(0, 2)).ok
    assert referee.state.ledger["hedge:0"] == 4
    assert "hexel.hedge" in store.actions(referee.game_id)[-1]
    assert not referee.submit(Hedge(0, 1)).ok  # already staked this round


def test_override_places_a_card_by_hand(referee):
    to_play(referee)
    move = next(a for a in GAME.legal_actions(referee.state) if isinstance(a, Place))
    out = referee.override(move.cell, move.card, move.rotation)
    assert out.ok and referee.log[-1] == move
    assert not referee.override((40, 40), move.card, 0).ok


def test_resume_replays_missed_events_or_sends_a_snapshot(referee):
    sub = referee.bus.subscribe(None)
    first = sub.get(0)
    to_play(referee)
    ids = []
    while (u := sub.get(0)) is not None:
        ids.append(u)
    again = referee.bus.subscribe(first.event_id)
    replay = []
    while (u := again.get(0)) is not None:
        replay.append(u.event_id)
    assert replay == [u.event_id for u in ids]
    stale = referee.bus.subscribe("deadbeef.3")  # from an earlier server run
    assert stale.get(0).kind == "state"
    assert [u.n for u in ids] == sorted(u.n for u in ids)


def test_a_slow_subscriber_is_resynchronised_with_a_snapshot(referee):
    sub = referee.bus.subscribe(None)
    for i in range(600):
        referee.bus.publish("notice", {"i": i})
    assert sub.lagging
    assert sub.get(0).kind == "state"


def test_concurrent_confirms_commit_the_candidate_once(referee, store):
    to_play(referee)
    lay_legal(referee)
    n = len(store.actions(referee.game_id))
    results = []
    threads = [threading.Thread(target=lambda: results.append(referee.confirm().ok))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1
    assert len(store.actions(referee.game_id)) == n + 1
