"""The chip ledger: the only way chips move in any game.

A `Ledger` is an immutable set of named accounts (a seat's stock, hedge or hand pot, a table pot)
holding non-negative integer balances. Chips move between accounts only by `transfer`, which
refuses to overdraw; chips enter or leave the table only by `buy_in` and `cash_out`, which are
counted. Every ledger checks on construction that its balances add up to what was bought in minus
what was cashed out, so no code path can create or lose a chip without failing loudly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .core import IllegalAction, RulesError

__all__ = ["InsufficientChips", "Ledger", "LedgerError", "Transfer", "stock"]


def stock(seat: int) -> str:
    """The account of a seat's chip stock (`stock:<seat>`), the same in every game."""
    return f"stock:{seat}"


class LedgerError(RulesError):
    """A chip movement that is malformed (unknown account, non-positive amount...)."""

    code = "ledger"


class InsufficientChips(IllegalAction):
    """A transfer or stake larger than the account holds."""

    code = "insufficient_chips"

    def __init__(self, account: str, needed: int, available: int, what: str = "transfer"):
        self.account, self.needed, self.available = account, needed, available
        super().__init__(
            f"{what} of {needed} chips refused: {account} holds only {available}"
        )


@dataclass(frozen=True)
class Transfer:
    """One movement of chips between two accounts."""

    source: str
    target: str
    amount: int


def _check_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise LedgerError(f"chip amounts are whole numbers, got {amount!r}")
    if amount <= 0:
        raise LedgerError(f"chip amounts must be positive, got {amount}")


@dataclass(frozen=True)
class Ledger:
    """Immutable account balances plus the running totals of chips brought in and taken out."""

    balances: Mapping[str, int] = field(default_factory=dict)
    bought_in: int = 0
    cashed_out: int = 0

    def __post_init__(self) -> None:
        frozen = MappingProxyType(dict(self.balances))
        object.__setattr__(self, "balances", frozen)
        for name, value in frozen.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise LedgerError(f"account {name} has an invalid balance {value!r}")
        if sum(frozen.values()) != self.bought_in - self.cashed_out:
            raise LedgerError("ledger does not balance: chips were created or lost")

    @classmethod
    def with_accounts(cls, names: Iterable[str]) -> Ledger:
        """A ledger with the given accounts, all empty."""
        return cls({n: 0 for n in names})

    def __getitem__(self, account: str) -> int:
        try:
            return self.balances[account]
        except KeyError:
            raise LedgerError(f"no account named {account!r}") from None

    def __contains__(self, account: object) -> bool:
        return account in self.balances

    @property
    def total(self) -> int:
        """Chips on the table now."""
        return self.bought_in - self.cashed_out

    def transfer(self, source: str, target: str, amount: int) -> Ledger:
        """Move `amount` chips; refuses (raising) to overdraw `source`."""
        _check_amount(amount)
        if source == target:
            raise LedgerError(f"transfer from {source} to itself")
        have = self[source]
        self[target]
        if have < amount:
            raise InsufficientChips(source, amount, have)
        new = dict(self.balances)
        new[source] = have - amount
        new[target] += amount
        return dataclasses.replace(self, balances=new)

    def apply(self, transfer: Transfer) -> Ledger:
        """Apply a `Transfer` record."""
        return self.transfer(transfer.source, transfer.target, transfer.amount)

    def sweep(self, source: str, target: str) -> tuple[Ledger, int]:
        """Move everything `source` holds to `target`; returns the new ledger and the amount."""
        amount = self[source]
        if amount == 0:
            self[target]
            return self, 0
        return self.transfer(source, target, amount), amount

    def open(self, account: str) -> Ledger:
        """Add an empty account (no-op if it exists)."""
        if account in self.balances:
            return self
        return dataclasses.replace(self, balances={**self.balances, account: 0})

    def buy_in(self, account: str, amount: int) -> Ledger:
        """Chips enter the table into `account`."""
        _check_amount(amount)
        have = self[account]
        return dataclasses.replace(
            self, balances={**self.balances, account: have + amount},
            bought_in=self.bought_in + amount,
        )

    def cash_out(self, account: str, amount: int) -> Ledger:
        """Chips leave the table from `account` (refused beyond its balance)."""
        _check_amount(amount)
        have = self[account]
        if have < amount:
            raise InsufficientChips(account, amount, have, what="cash-out")
        return dataclasses.replace(
            self, balances={**self.balances, account: have - amount},
            cashed_out=self.cashed_out + amount,
        )

    def snapshot(self) -> tuple[tuple[str, int], ...]:
        """Balances as a sorted tuple of (account, chips), for events and display."""
        return tuple(sorted(self.balances.items()))
