"""The chip ledger (RULES.md "Shared notation": every chip in exactly one account)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.ledger import InsufficientChips, Ledger, LedgerError


def make():
    return Ledger.with_accounts(["stock:0", "hedge:0", "stock:1"]).buy_in("stock:0", 10)


def test_transfer_moves_chips():
    led = make().transfer("stock:0", "hedge:0", 4)
    assert (led["stock:0"], led["hedge:0"], led.total) == (6, 4, 10)


def test_overdraw_is_refused_with_a_clear_error():
    led = make()
    with pytest.raises(InsufficientChips, match="stock:0 holds only 10"):
        led.transfer("stock:0", "stock:1", 11)
    assert led["stock:0"] == 10 and led["stock:1"] == 0


@pytest.mark.parametrize("amount", [0, -3, 2.5, True])
def test_amounts_must_be_positive_whole_numbers(amount):
    with pytest.raises(LedgerError):
        make().transfer("stock:0", "stock:1", amount)


def test_unknown_account_and_self_transfer_are_refused():
    with pytest.raises(LedgerError, match="no account"):
        make().transfer("stock:0", "pot:9", 1)
    with pytest.raises(LedgerError):
        make().transfer("stock:0", "stock:0", 1)


def test_a_ledger_that_does_not_balance_cannot_exist():
    with pytest.raises(LedgerError, match="does not balance"):
        Ledger({"a": 5}, bought_in=4)
    with pytest.raises(LedgerError):
        Ledger({"a": -1, "b": 1})


def test_balances_cannot_be_mutated():
    led = make()
    with pytest.raises(TypeError):
        led.balances["stock:0"] = 1000  # type: ignore[index]


def test_sweep_and_cash_out():
    led, moved = make().sweep("stock:0", "stock:1")
    assert moved == 10 and led["stock:1"] == 10
    led = led.cash_out("stock:1", 3)
    assert led.total == 7 and led.cashed_out == 3
    with pytest.raises(InsufficientChips):
        led.cash_out("stock:1", 8)


ops = st.lists(
    st.tuples(st.sampled_from(["transfer", "buy", "cash", "sweep"]),
              st.integers(0, 3), st.integers(0, 3), st.integers(-2, 40)),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(ops)
def test_total_is_conserved_by_any_sequence_of_operations(sequence):
    names = [f"acct:{i}" for i in range(4)]
    led = Ledger.with_accounts(names)
    for op, a, b, amount in sequence:
        before = led
        try:
            if op == "transfer":
                led = led.transfer(names[a], names[b], amount)
            elif op == "buy":
                led = led.buy_in(names[a], amount)
            elif op == "cash":
                led = led.cash_out(names[a], amount)
            else:
                led, _ = led.sweep(names[a], names[b]) if a != b else (led, 0)
        except LedgerError:
            assert led is before
        except InsufficientChips:
            assert led is before
        assert sum(led.balances.values()) == led.bought_in - led.cashed_out
        assert all(v >= 0 for v in led.balances.values())
        if op == "transfer" and led is not before:
            assert sum(led.balances.values()) == sum(before.balances.values())
