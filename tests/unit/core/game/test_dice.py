"""Dice sources, and the provably fair scheme checked against its documented definition."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game.dice import (
    ACCEPT_BELOW,
    FairDice,
    FixedDice,
    FixedDiceError,
    MatchRecord,
    SecureDice,
    SeededDice,
    commitment,
    die_from_byte,
    fair_roll,
    new_fair_dice,
    verify_record,
)
from core.game.errors import CorruptState

SEED = "00" * 31 + "2a"
OTHER_SEED = "11" * 32
CLIENT = "C123:1700000000"


def first_hmac_byte(nonce: int) -> int:
    """The first byte of round 0 for `nonce`, computed straight from the scheme's definition."""
    message = f"{CLIENT}:{nonce}".encode()
    return hmac.new(bytes.fromhex(SEED), message, hashlib.sha256).digest()[0]


def played_record(rolls_per_call: list[int]) -> MatchRecord:
    """A record of a match played with fair dice, one roll call per entry."""
    dice = FairDice(SEED, CLIENT)
    return dice.record([dice.roll(count) for count in rolls_per_call])


def chi_square(counts: Counter[int], total: int) -> float:
    """Pearson's statistic of die counts against a uniform six-sided die."""
    expected = total / 6
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))


def test_secure_dice_are_six_sided() -> None:
    """Secure dice give the asked number of values, each 1..6."""
    rolls = [SecureDice().roll(3) for _ in range(500)]
    assert all(len(roll) == 3 and all(1 <= die <= 6 for die in roll) for roll in rolls)
    assert {die for roll in rolls for die in roll} == set(range(1, 7))


def test_seeded_dice_are_reproducible() -> None:
    """The same seed gives the same rolls; another seed gives others."""
    first, again, other = SeededDice(7), SeededDice(7), SeededDice(8)
    rolls = [first.roll(2) for _ in range(50)]
    assert rolls == [again.roll(2) for _ in range(50)]
    assert rolls != [other.roll(2) for _ in range(50)]


@pytest.mark.parametrize("dice", [SecureDice(), SeededDice(1), FairDice(SEED, CLIENT)])
def test_rolling_no_dice_is_refused(dice: SecureDice | SeededDice | FairDice) -> None:
    """Every source refuses to roll zero dice."""
    with pytest.raises(ValueError, match="0 dice"):
        dice.roll(0)


def test_fixed_dice_yield_the_script_in_order() -> None:
    """Fixed dice give their scripted rolls one after the other."""
    dice = FixedDice([(3, 4), (6,), [1, 1]])
    assert [dice.roll(2), dice.roll(1), dice.roll(2)] == [(3, 4), (6,), (1, 1)]
    assert dice.remaining == 0


def test_fixed_dice_exhausted() -> None:
    """Asking for more rolls than scripted is a clear error."""
    dice = FixedDice([(2, 2)])
    dice.roll(2)
    with pytest.raises(FixedDiceError, match="no scripted roll left"):
        dice.roll(2)


def test_fixed_dice_count_mismatch() -> None:
    """Asking for another number of dice than scripted is a clear error and consumes nothing."""
    dice = FixedDice([(5, 6)])
    with pytest.raises(FixedDiceError, match=r"\(5, 6\), but 1 dice"):
        dice.roll(1)
    assert dice.remaining == 1


@pytest.mark.parametrize("script", [[(0, 3)], [(7,)], [()]])
def test_fixed_dice_refuse_impossible_rolls(script: list[tuple[int, ...]]) -> None:
    """A script with a face outside 1..6, or an empty roll, is refused up front."""
    with pytest.raises(ValueError, match="six-sided"):
        FixedDice(script)


def test_byte_to_die_is_unbiased() -> None:
    """Bytes 0..251 give each face exactly 42 times; 252..255 are rejected."""
    faces = Counter(die_from_byte(byte) for byte in range(ACCEPT_BELOW))
    assert faces == dict.fromkeys(range(1, 7), 42)
    assert [die_from_byte(byte) for byte in range(252, 256)] == [None] * 4
    assert (die_from_byte(0), die_from_byte(5), die_from_byte(251)) == (1, 6, 6)


def test_rejected_first_byte_is_skipped() -> None:
    """When a roll's first HMAC byte is >= 252, the die comes from the next bytes instead."""
    nonce = next(n for n in range(5000) if first_hmac_byte(n) >= ACCEPT_BELOW)
    digest = hmac.new(bytes.fromhex(SEED), f"{CLIENT}:{nonce}".encode(), hashlib.sha256).digest()
    accepted = [die_from_byte(b) for b in digest[1:] if b < ACCEPT_BELOW]
    assert fair_roll(SEED, CLIENT, nonce, 2) == tuple(accepted[:2])


def test_fair_roll_matches_the_documented_scheme() -> None:
    """Dice come from accepted bytes of round 0, then round 1 (`client:nonce:1`), and so on."""
    key = bytes.fromhex(SEED)
    messages = [f"{CLIENT}:9", f"{CLIENT}:9:1", f"{CLIENT}:9:2"]
    stream = b"".join(hmac.new(key, m.encode(), hashlib.sha256).digest() for m in messages)
    expected = tuple(b % 6 + 1 for b in stream if b < 252)[:40]
    assert fair_roll(SEED, CLIENT, 9, 40) == expected


def test_fair_rolls_are_uniform() -> None:
    """Many fair dice pass a loose chi-square test (5 degrees of freedom, bound 30)."""
    counts: Counter[int] = Counter()
    for nonce in range(6000):
        counts.update(fair_roll(SEED, CLIENT, nonce, 2))
    assert chi_square(counts, 12000) < 30


def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    """The commitment is the SHA-256 of the 32 seed bytes, not of the hex text."""
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@pytest.mark.parametrize("seed", ["ab" * 31, "AB" * 32, "zz" * 32, "ab " * 32])
def test_malformed_seed_is_refused(seed: str) -> None:
    """A server seed must be 64 lowercase hex digits."""
    with pytest.raises(ValueError, match="64 lowercase hex"):
        commitment(seed)


def test_fair_dice_advance_one_nonce_per_roll_call() -> None:
    """Roll call n uses nonce n, however many dice it throws."""
    dice = FairDice(SEED, CLIENT)
    rolls = [dice.roll(2), dice.roll(1), dice.roll(2)]
    assert dice.nonce == 3
    assert rolls == [fair_roll(SEED, CLIENT, n, c) for n, c in enumerate((2, 1, 2))]


def test_new_fair_dice_have_a_fresh_secret_seed() -> None:
    """New fair dice get a random seed, start at nonce 0, and keep the seed out of their repr."""
    first, second = new_fair_dice(CLIENT), new_fair_dice(CLIENT)
    assert first.server_seed != second.server_seed
    assert first.nonce == 0
    assert first.server_seed not in repr(first)


@given(client_seed=st.text(), nonce=st.integers(min_value=0, max_value=10**9))
def test_fair_dice_text_form_round_trips(client_seed: str, nonce: int) -> None:
    """Any client seed and nonce survive the compact text form, which nests in other forms."""
    dice = FairDice(SEED, client_seed, nonce)
    text = dice.to_str()
    assert FairDice.from_str(text) == dice
    assert not set(text) & set(";,:/| ")


def test_fair_dice_continue_after_a_round_trip() -> None:
    """Dice restored from text roll exactly what the original would have rolled next."""
    original = FairDice(SEED, CLIENT)
    original.roll(2)
    restored = FairDice.from_str(original.to_str())
    assert restored.roll(2) == original.roll(2)


@pytest.mark.parametrize(
    "text", ["", "f1.0.abc.x", "f2.0." + SEED + ".x", "f1.-1." + SEED + ".x", "f1.0." + SEED]
)
def test_corrupt_fair_dice_text_is_refused(text: str) -> None:
    """Text that is not a fair dice form raises CorruptState."""
    with pytest.raises(CorruptState):
        FairDice.from_str(text)


def test_verify_accepts_a_real_record() -> None:
    """A record made by fair dice verifies, also after a JSON round trip."""
    record = played_record([2, 2, 1, 2, 1, 1, 2])
    assert record.commitment == commitment(SEED)
    assert verify_record(record).ok
    assert verify_record(MatchRecord.from_json(record.to_json())).reason == "ok"


def test_verify_finds_a_tampered_roll() -> None:
    """Changing one roll is reported with its index, the expected and the recorded dice."""
    record = played_record([2, 2, 2])
    honest = record.rolls[1]
    forged = (honest[0] % 6 + 1, honest[1])
    result = verify_record(replace(record, rolls=(record.rolls[0], forged, record.rolls[2])))
    assert (result.ok, result.reason, result.index) == (False, "roll_mismatch", 1)
    assert (result.expected, result.actual) == (honest, forged)


def test_verify_rejects_a_seed_that_does_not_match_the_commitment() -> None:
    """Revealing a different seed than the one committed to fails."""
    record = replace(played_record([2, 2]), server_seed=OTHER_SEED)
    assert verify_record(record).reason == "commitment_mismatch"


def test_verify_rejects_rolls_from_another_seed() -> None:
    """A self-consistent record whose rolls were not made with its seed fails at the first roll."""
    record = played_record([2, 2])
    forged = replace(record, server_seed=OTHER_SEED, commitment=commitment(OTHER_SEED))
    result = verify_record(forged)
    assert (result.ok, result.reason, result.index) == (False, "roll_mismatch", 0)


def test_verify_rejects_a_malformed_seed() -> None:
    """A revealed seed that is not 64 hex digits fails without raising."""
    assert verify_record(replace(played_record([2]), server_seed="xyz")).reason == "bad_seed"


def test_verify_rejects_an_empty_roll() -> None:
    """An empty recorded roll is a mismatch, never a crash."""
    record = played_record([2])
    assert verify_record(replace(record, rolls=((),))).reason == "roll_mismatch"


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "{}",
        '{"scheme":"other","commitment":"","server_seed":"","client_seed":"","rolls":[]}',
        '{"scheme":"hmac-sha256-v1","commitment":"","server_seed":"","client_seed":"",'
        '"rolls":[["1"]]}',
    ],
)
def test_corrupt_record_json_is_refused(text: str) -> None:
    """JSON that is not a match record raises CorruptState."""
    with pytest.raises(CorruptState):
        MatchRecord.from_json(text)
