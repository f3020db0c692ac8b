"""The journal stays bounded: its oldest entries fold into a checkpoint the ledger check reads."""

from __future__ import annotations

import asyncio
import json

import pytest
from redis.asyncio import Redis

from bot.cli import main
from core.game.settlement import Transfer
from core.service.model.commit import Commit, Scope
from core.store.redis_store import RedisStore
from tests.integration.store.helpers import ANN, BEN, new_game

SCOPE = Scope("discord", "g1")
KEEP, FOLD = 10, 4  # small bounds, so a few dozen transfers fill the journal many times over


def passes(count: int) -> list[Commit]:
    """`count` one-chip transfers between Ann and Ben, back and forth, one commit each."""
    pairs = [Transfer(ANN, BEN, 1), Transfer(BEN, ANN, 2)]
    return [Commit(SCOPE, transfers=(pairs[i % 2],)) for i in range(count)]


@pytest.fixture
def bounded(redis: Redis) -> RedisStore:
    return RedisStore(redis, journal=(KEEP, FOLD))


async def test_the_journal_never_grows_past_its_bound(redis: Redis, bounded: RedisStore) -> None:
    """Fifty transfers later the stream holds at most KEEP + FOLD entries; the rest are folded."""
    await bounded.commit(new_game())
    for commit in passes(50):
        await bounded.commit(commit)
    length = await redis.xlen(f"{SCOPE.tag}:journal")
    assert length <= KEEP + FOLD
    report = await bounded.verify_ledger(SCOPE)
    assert report.ok and report.folded + report.entries == 52 and report.entries == length


async def test_the_ledger_check_proves_every_balance_from_the_checkpoint_on(
    redis: Redis, bounded: RedisStore
) -> None:
    """A balance changed outside the script after the checkpoint is still caught, and so is a
    checkpoint changed by hand."""
    await bounded.commit(new_game())
    for commit in passes(30):
        await bounded.commit(commit)
    await redis.hincrby(f"{SCOPE.tag}:bal", ANN, 3)
    report = await bounded.verify_ledger(SCOPE)
    assert not report.ok and report.mismatches[ANN][1] == report.mismatches[ANN][0] + 3
    await redis.hincrby(f"{SCOPE.tag}:bal", ANN, -3)
    assert (await bounded.verify_ledger(SCOPE)).ok
    await redis.hincrby(f"{SCOPE.tag}:checkpoint", f"b:{BEN}", 1)
    assert not (await bounded.verify_ledger(SCOPE)).ok


async def test_the_ledger_verifies_while_the_journal_folds(bounded: RedisStore) -> None:
    """Checks running among concurrent commits that fold the journal always agree."""
    await bounded.commit(new_game())
    checks = [bounded.verify_ledger(SCOPE) for _ in range(10)]
    outcomes = await asyncio.gather(*(bounded.commit(c) for c in passes(60)), *checks)
    reports = [o for o in outcomes if not hasattr(o, "status")]
    assert reports and all(report.ok for report in reports)  # type: ignore[union-attr]


async def test_ledger_verify_names_the_checkpoint(
    redis: Redis, redis_url: str, bounded: RedisStore, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """`shutbox ledger verify` says how many entries the checkpoint sums up."""
    await bounded.commit(new_game())
    for commit in passes(20):
        await bounded.commit(commit)
    monkeypatch.setenv("REDIS_URL", redis_url)
    argv = ["ledger", "verify", "--server", "discord:g1"]
    assert await asyncio.to_thread(main, argv) == 0
    text = capsys.readouterr().out
    assert "OK — from a checkpoint of" in text and "journal entries replay" in text
    assert await asyncio.to_thread(main, [*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["checkpoint_entries"] + report["entries"] == 22
