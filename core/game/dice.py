"""Dice sources for the pure engine: secure (default), fixed (tests), seeded (simulations), fair.

Provably fair scheme `hmac-sha256-v1` (what a player needs to check a match by hand):

- The match has a secret server seed (32 random bytes, shown as 64 lowercase hex digits) and a
  public client seed (any text, e.g. the channel id and the match start). At the start the bot
  publishes the commitment `sha256(server_seed_bytes).hexdigest()`; the seed is revealed at the end.
- The match's roll calls are numbered 0, 1, 2, ...: the *nonce* is the index of the roll call in
  the match (one nonce per roll call, whether it throws one, two or three dice), so roll `n` of
  the published record was made with nonce `n`.
- A roll call with nonce `n` reads the bytes of the blocks
  `HMAC-SHA256(key=server_seed_bytes, msg=f"{client_seed}:{n}".encode())` (round 0), then, only if
  those 32 bytes run out, `msg=f"{client_seed}:{n}:{r}".encode()` for rounds r = 1, 2, ...;
  bytes are taken in order, one at a time.
- A byte b >= 252 is skipped (252 = 42 * 6, so each face has exactly 42 byte values and there is
  no modulo bias); otherwise it gives the die `b % 6 + 1`. The first `count` accepted bytes are
  the dice, in the order they are shown.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol
from urllib.parse import quote, unquote

from core.game.errors import CorruptState
from core.game.numbers import is_digits

SIDES = 6
ACCEPT_BELOW = 252  # 42 * 6: the largest multiple of 6 that fits in a byte
SEED_BYTES = 32
SCHEME = "hmac-sha256-v1"
_SEED_PATTERN = re.compile(r"[0-9a-f]{64}")
_FAIR_PREFIX = "f1"


class DiceSource(Protocol):
    """Where the engine gets its dice."""

    def roll(self, count: int) -> tuple[int, ...]:
        """`count` dice, each 1..6."""
        ...


class FixedDiceError(RuntimeError):
    """A test asked `FixedDice` for a roll its script does not have (a bug, not a user error)."""


def _check_count(count: int) -> None:
    if count < 1:
        raise ValueError(f"cannot roll {count} dice")


class SecureDice:
    """The default source: the operating system's cryptographic random generator."""

    def roll(self, count: int) -> tuple[int, ...]:
        _check_count(count)
        return tuple(secrets.randbelow(SIDES) + 1 for _ in range(count))


class SeededDice:
    """Reproducible dice from `random.Random(seed)`, for simulations and benchmarks."""

    def __init__(self, seed: int | str | bytes) -> None:
        self._random = random.Random(seed)

    def roll(self, count: int) -> tuple[int, ...]:
        _check_count(count)
        return tuple(self._random.randint(1, SIDES) for _ in range(count))


class FixedDice:
    """Scripted rolls for tests: `FixedDice([(3, 4), (6,)])` yields them in order."""

    def __init__(self, rolls: Iterable[Sequence[int]]) -> None:
        self._rolls = [tuple(roll) for roll in rolls]
        for roll in self._rolls:
            if not roll or any(not 1 <= die <= SIDES for die in roll):
                raise ValueError(f"not a roll of six-sided dice: {roll}")
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted rolls have not been used yet."""
        return len(self._rolls) - self._next

    def roll(self, count: int) -> tuple[int, ...]:
        if not self.remaining:
            raise FixedDiceError(f"no scripted roll left after {self._next}; {count} dice asked")
        roll = self._rolls[self._next]
        if len(roll) != count:
            raise FixedDiceError(f"roll {self._next} is {roll}, but {count} dice were asked for")
        self._next += 1
        return roll


def die_from_byte(byte: int) -> int | None:
    """The die a byte gives, or None for the bytes 252..255 that are skipped to avoid bias."""
    return byte % SIDES + 1 if byte < ACCEPT_BELOW else None


def is_server_seed(text: str) -> bool:
    """Is this a server seed: 32 bytes as 64 lowercase hex digits?"""
    return _SEED_PATTERN.fullmatch(text) is not None


def _seed_bytes(server_seed_hex: str) -> bytes:
    if not is_server_seed(server_seed_hex):
        raise ValueError("a server seed is 64 lowercase hex digits")
    return bytes.fromhex(server_seed_hex)


def new_server_seed() -> str:
    """A fresh secret server seed."""
    return secrets.token_hex(SEED_BYTES)


def commitment(server_seed_hex: str) -> str:
    """What is published at the start: the SHA-256 of the seed's bytes, as hex."""
    return hashlib.sha256(_seed_bytes(server_seed_hex)).hexdigest()


def _hmac_message(client_seed: str, nonce: int, round_: int) -> bytes:
    suffix = f":{round_}" if round_ else ""
    return f"{client_seed}:{nonce}{suffix}".encode()


def _fair_bytes(key: bytes, client_seed: str, nonce: int) -> Iterator[int]:
    """Round 0's 32 bytes, then round 1's, and so on, for as long as they are read."""
    round_ = 0
    while True:
        yield from hmac.digest(key, _hmac_message(client_seed, nonce, round_), "sha256")
        round_ += 1


def fair_roll(server_seed_hex: str, client_seed: str, nonce: int, count: int) -> tuple[int, ...]:
    """The `count` dice of roll call `nonce` under the provably fair scheme."""
    _check_count(count)
    stream = _fair_bytes(_seed_bytes(server_seed_hex), client_seed, nonce)
    dice = (die for byte in stream if (die := die_from_byte(byte)) is not None)
    return tuple(islice(dice, count))


@dataclass
class FairDice:
    """Provably fair dice; `nonce` is the number of roll calls made so far in the match."""

    server_seed: str = field(repr=False)  # secret until the match ends: keep it out of logs
    client_seed: str
    nonce: int = 0

    def __post_init__(self) -> None:
        _seed_bytes(self.server_seed)
        if self.nonce < 0:
            raise ValueError(f"nonce must not be negative: {self.nonce}")

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def roll(self, count: int) -> tuple[int, ...]:
        dice = fair_roll(self.server_seed, self.client_seed, self.nonce, count)
        self.nonce += 1
        return dice

    def to_str(self) -> str:
        """`f1.<nonce>.<server seed>.<client seed percent-encoded>`: free of `;,:/|` and spaces."""
        return ".".join(
            (_FAIR_PREFIX, str(self.nonce), self.server_seed, quote(self.client_seed, safe=""))
        )

    @classmethod
    def from_str(cls, text: str) -> FairDice:
        try:
            prefix, nonce, server_seed, client_seed = text.split(".", 3)
            if prefix != _FAIR_PREFIX or not is_digits(nonce):
                raise ValueError(text)
            return cls(server_seed, unquote(client_seed, errors="strict"), int(nonce))
        except ValueError as exc:
            raise CorruptState(text=text) from exc

    def record(self, rolls: Iterable[Sequence[int]]) -> MatchRecord:
        """The record to publish once the match is over: seeds revealed, with every roll."""
        return MatchRecord(
            self.commitment, self.server_seed, self.client_seed, tuple(tuple(r) for r in rolls)
        )


def new_fair_dice(client_seed: str) -> FairDice:
    """Fair dice for a new match, with a fresh secret server seed."""
    return FairDice(new_server_seed(), client_seed)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """Everything a player needs to check a finished match's dice."""

    commitment: str
    server_seed: str
    client_seed: str
    rolls: tuple[tuple[int, ...], ...]

    def to_json(self) -> str:
        return json.dumps(
            {
                "scheme": SCHEME,
                "commitment": self.commitment,
                "server_seed": self.server_seed,
                "client_seed": self.client_seed,
                "rolls": [list(roll) for roll in self.rolls],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        try:
            data = json.loads(text)
            if data["scheme"] != SCHEME:
                raise ValueError(data["scheme"])
            return cls(
                _text(data["commitment"]),
                _text(data["server_seed"]),
                _text(data["client_seed"]),
                tuple(_roll(roll) for roll in data["rolls"]),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise CorruptState(text=text[:200]) from exc


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def _roll(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(die) is int for die in value):
        raise TypeError(value)
    return tuple(value)


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """The outcome of a check; on a bad roll, which one and what it should have been.

    `reason` is one of `ok`, `bad_seed` (not 64 lowercase hex digits), `commitment_mismatch`
    (the seed does not hash to the published commitment), `roll_mismatch` (roll `index` differs).
    """

    ok: bool
    reason: str
    index: int | None = None
    expected: tuple[int, ...] | None = None
    actual: tuple[int, ...] | None = None


def verify_record(record: MatchRecord) -> VerifyResult:
    """Check the seed against the commitment, then recompute every roll in order."""
    if not is_server_seed(record.server_seed):
        return VerifyResult(ok=False, reason="bad_seed")
    if commitment(record.server_seed) != record.commitment.lower():
        return VerifyResult(ok=False, reason="commitment_mismatch")
    for index, actual in enumerate(record.rolls):
        # An empty roll can never be right; compare it with a one-die roll to report the mismatch.
        expected = fair_roll(record.server_seed, record.client_seed, index, max(1, len(actual)))
        if expected != actual:
            return VerifyResult(False, "roll_mismatch", index, expected, actual)
    return VerifyResult(ok=True, reason="ok")
