"""What counts (real Redis): only matches between two humans or more reach the boards and the
ratings; bots alone are practice; one player alone is solo; a match nobody decided in is void
and gives every stake back."""

from __future__ import annotations

import pytest

from core.service.api.commands import AddBot, Begin, Start, Stats
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_match_end import begin, ledger_ok, timed_out_to_the_end

BOARDS = ("wins", "rounds", "shuts", "rating")


async def boards_are_empty(store: RedisStore) -> None:
    for board in BOARDS:
        assert await store.top(SCOPE, f"lb:{board}") == [], board


@pytest.mark.parametrize("stakes", ["pot:5", "canoga", "canoga:2"])
async def test_a_void_staked_match_gives_every_stake_back(store: RedisStore, stakes: str) -> None:
    """Nobody presses in a staked three-round match: every chip is where it was before, the
    channel is told why, and nothing is counted or rated."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await begin(table, StartOptions(format="rounds:3", timer=10, stakes=stakes))
    posted = await timed_out_to_the_end(table, clock)
    summary = next(text for text in posted if "**Match over**" in text)
    assert (
        "Nobody made a move of their own in this match, so it doesn’t count: every stake went "
        "back, no wins, no ratings."
    ) in summary
    assert await store.balances(SCOPE, ["ann", "bob"]) == {"ann": 100, "bob": 100}
    for user in ("ann", "bob"):
        stats = await store.hash(SCOPE, f"stats:{user}")
        assert not {"games", "wins", "rounds"} & set(stats), stats
        assert stats.get("net", "0") == "0"
    await boards_are_empty(store)
    await ledger_ok(store)


async def test_a_match_against_bots_is_practice(store: RedisStore) -> None:
    """Ann and a bot: the summary says practice; `stats` shows it as practice; no board."""
    table = Table(manager(store))
    table.last = await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await table.manager.handle(table.ctx("Ann"), AddBot())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    reply = await table.play_out()
    summary = next(text for text in reply.public if "**Match over**" in text)
    assert summary.endswith(
        "A practice match against bots: it shows in your stats, not on the leaderboards."
    )
    stats = await store.hash(SCOPE, "stats:ann")
    assert stats.get("practice_games") == "1" and "games" not in stats, stats
    await boards_are_empty(store)
    shown = (await table.manager.handle(table.ctx("Ann"), Stats())).public[0]
    assert "Practice against bots: 1 match, " in shown and "(not on the leaderboards)" in shown
    assert "Practice, Classic: best" in shown
    assert "Matches: 0 played" in shown
    await ledger_ok(store)


async def test_a_lobby_match_alone_is_a_solo_game(store: RedisStore) -> None:
    """`start`, then `go` with nobody else: a solo game (solo stats), not a won match."""
    table = Table(manager(store))
    table.last = await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    await table.play_out()
    stats = await store.hash(SCOPE, "stats:ann")
    assert stats.get("solo_games") == "1" and "games" not in stats and "wins" not in stats
    await boards_are_empty(store)
    await ledger_ok(store)


async def test_a_match_between_two_humans_still_counts(store: RedisStore) -> None:
    table = Table(manager(store))
    await begin(table, StartOptions(stakes="pot:5"))
    reply = await table.play_out()
    assert not any("practice" in text or "doesn’t count" in text for text in reply.public)
    assert len(await store.top(SCOPE, "lb:wins")) == 2
    assert set(await store.hash(SCOPE, "rating")) == {"ann", "bob"}
    assert sum((await store.balances(SCOPE, ["ann", "bob"])).values()) == 200
    await ledger_ok(store)
