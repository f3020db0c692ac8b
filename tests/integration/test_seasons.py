"""Seasons (issue 14): `season`, an admin's `season end [reset_chips=yes]`, archived boards read
with `season=N`, and `season_days` ending a season by itself, on a real Redis."""

from __future__ import annotations

import asyncio

from core.game.rules import build_rules
from core.game.settlement import Transfer
from core.service.api.commands import (
    Balance,
    Click,
    Configure,
    Daily,
    Give,
    Leaderboard,
    Rank,
    Season,
    Stats,
)
from core.service.features.gifts import Recipient, Standing
from core.service.model.commit import Commit, OpKind, StoreOp
from core.store.redis_store import RedisStore
from core.text.i18n import day
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

CLASSIC = build_rules("classic").to_str()
DAY = 24 * 60 * 60


async def played_a_season(store: RedisStore) -> None:
    """Ann and Bob on the wins, rating and best boards, with ratings; Ann gave Bob 30 chips."""
    ops = [
        StoreOp(OpKind.ZINCRBY, "lb:wins", "ann", 3), StoreOp(OpKind.ZINCRBY, "lb:wins", "bob", 1),
        StoreOp(OpKind.ZSET, "lb:rating", "ann", 1512),
        StoreOp(OpKind.ZSET, "lb:rating", "bob", 1488),
        StoreOp(OpKind.ZMIN, f"lb:best:{CLASSIC}", "bob", 4),
        StoreOp(OpKind.HSET, "rating", "ann", "27.000000 7.000000"),
        StoreOp(OpKind.HSET, "names", "ann", "Ann"), StoreOp(OpKind.HSET, "names", "bob", "Bob"),
    ]  # fmt: skip
    await store.commit(Commit(SCOPE, ops=tuple(ops)))
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Ann"), Give(Recipient("bob", "Bob", Standing.MEMBER), 30))


async def test_season_one_starts_the_first_time_anyone_asks(store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    first = await table.manager.handle(table.ctx("Ann"), Season())
    assert first.public == (f"🗓️ Season 1 started on {day('en', clock.now)}.",)
    clock.now += 3 * DAY
    again = await table.manager.handle(table.ctx("Bob"), Season())
    assert again.public == first.public  # the start stays where it was


async def test_an_admin_ends_the_season_archiving_every_board_and_the_ratings(
    store: RedisStore,
) -> None:
    await played_a_season(store)
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Ann"), Season())
    clock.now += DAY
    ended = await table.manager.handle(table.ctx("Mod", admin=True), Season(end=True))
    assert ended.public == ("🏁 Season 1 is over; Season 2 starts now.",)
    now = await table.manager.handle(table.ctx("Ann"), Season())
    assert now.public == (f"🗓️ Season 2 started on {day('en', clock.now)}.",)

    wins = await table.manager.handle(table.ctx("Ann"), Leaderboard("wins"))
    assert wins.public == (
        "**🏆 Most matches won**\nNobody on this board yet: win a match against another player"
        " (bots don’t count) to be the first.",
    )
    assert await store.hash(SCOPE, "rating") == {}
    old = await table.manager.handle(table.ctx("Ann"), Leaderboard("wins", season=1))
    assert old.public == ("**🏆 Most matches won · Season 1**\n1. Ann — 3\n2. Bob — 1",)
    rating = await table.manager.handle(table.ctx("Ann"), Leaderboard("rating", season=1))
    assert rating.public[0].splitlines()[1:] == ["1. Ann — 1,512", "2. Bob — 1,488"]
    best = await table.manager.handle(table.ctx("Ann"), Leaderboard("best", season=1))
    assert best.public[0].splitlines()[1:] == ["1. Bob — 4"]
    assert await store.hash(SCOPE, "season:1:rating") == {"ann": "27.000000 7.000000"}
    # chips stay: the chips board still mirrors the balances
    chips = await table.manager.handle(table.ctx("Ann"), Leaderboard("chips"))
    assert chips.public[0].splitlines()[1:] == ["1. Bob — 130", "2. Ann — 70"]
    assert await store.balances(SCOPE, ["ann", "bob"]) == {"ann": 70, "bob": 130}


async def test_only_an_admin_ends_a_season(store: RedisStore) -> None:
    await played_a_season(store)
    table = Table(manager(store))
    refused = await table.manager.handle(table.ctx("Ann"), Season(end=True))
    assert refused.private == "Only an admin can do that." and not refused.public
    still = await table.manager.handle(table.ctx("Ann"), Leaderboard("wins"))
    assert still.public[0].splitlines()[1:] == ["1. Ann — 3", "2. Bob — 1"]


async def test_reset_chips_pays_every_balance_to_the_mint_and_keeps_the_ledger(
    store: RedisStore,
) -> None:
    """Balances go back through journaled `season` transfers; a running game's pot stays;
    the next daily opens the account again with the start chips."""
    await played_a_season(store)
    await store.commit(Commit(SCOPE, ensure_accounts=("cid",),
                              transfers=(Transfer("cid", "pot:c9", 10),)))  # fmt: skip
    table = Table(manager(store))
    ended = await table.manager.handle(
        table.ctx("Mod", admin=True), Season(end=True, reset_chips=True)
    )
    assert ended.public == (
        "🏁 Season 1 is over; Season 2 starts now.\n"
        "Every player's chips went back to the bank; everyone starts again with 100 chips.",
    )
    assert await store.balances(SCOPE, ["ann", "bob", "cid", "pot:c9"]) == {"pot:c9": 10}
    season = [(s, d, a) async for s, d, a, meta in store.journal(SCOPE) if meta["why"] == "season"]
    assert sorted(season) == [("ann", "mint", 70), ("bob", "mint", 130), ("cid", "mint", 90)]
    assert (await store.verify_ledger(SCOPE)).ok
    balance = await table.manager.handle(table.ctx("Ann"), Balance())
    assert balance.private == "You have 100 chips."
    daily = await table.manager.handle(table.ctx("Bob"), Daily())
    assert daily.private is not None and "125" in daily.private
    assert (await store.verify_ledger(SCOPE)).ok


async def test_the_same_season_end_delivered_twice_ends_one_season(store: RedisStore) -> None:
    one, two = Table(manager(store)), Table(manager(store))
    await one.manager.handle(one.ctx("Mod", admin=True, request="end-1"), Season(end=True))
    again = await two.manager.handle(two.ctx("Mod", admin=True, request="end-1"), Season(end=True))
    assert again.private == "That request was already handled." and not again.public
    now = await one.manager.handle(one.ctx("Ann"), Season())
    assert now.public[0].startswith("🗓️ Season 2 started")


async def test_a_season_that_has_not_ended_is_one_private_line(store: RedisStore) -> None:
    table = Table(manager(store))
    early = await table.manager.handle(table.ctx("Ann"), Leaderboard("wins", season=1))
    assert early.private == "There is no ended Season 1; this is Season 1." and not early.public
    await table.manager.handle(table.ctx("Mod", admin=True), Season(end=True))
    later = await table.manager.handle(table.ctx("Ann"), Leaderboard("wins", season=7))
    assert later.private == "There is no ended Season 7; this is Season 2."
    chips = await table.manager.handle(table.ctx("Ann"), Leaderboard("chips", season=1))
    assert chips.private == "The chips board follows the balances and is not kept per season."
    alone = await table.manager.handle(table.ctx("Mod", admin=True), Season(reset_chips=True))
    assert alone.private == "reset_chips goes only with season end."


async def test_an_archived_board_pages_within_its_season(store: RedisStore) -> None:
    ops = []
    for n in range(1, 13):
        ops += [StoreOp(OpKind.ZINCRBY, "lb:wins", f"p{n:02d}", 13 - n),
                StoreOp(OpKind.HSET, "names", f"p{n:02d}", f"P{n:02d}")]  # fmt: skip
    await store.commit(Commit(SCOPE, ops=tuple(ops)))
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Mod", admin=True), Season(end=True))
    first = await table.manager.handle(table.ctx("p01"), Leaderboard("wins", season=1))
    second = await table.manager.handle(table.ctx("p01"), Click(first.buttons[0][0].action_id))
    assert second.public[0].splitlines()[0] == "**🏆 Most matches won · Season 1**"
    assert second.public[0].splitlines()[1:3] == ["11. P11 — 2", "12. P12 — 1"]


async def test_season_days_ends_a_season_by_itself_once(store: RedisStore) -> None:
    """With `season_days=7`, the first board asked for after a week announces the end; two
    processes asking at once end one season between them."""
    await played_a_season(store)
    clock = Clock()
    one, two = Table(manager(store, clock=clock)), Table(manager(store, clock=clock))
    await one.manager.handle(one.ctx("Mod", admin=True), Configure({"season_days": "7"}))
    await one.manager.handle(one.ctx("Ann"), Season())
    clock.now += 7 * DAY - 1
    assert (await one.manager.handle(one.ctx("Ann"), Rank())).public[0].startswith("**Where Ann")
    clock.now += 1
    replies = await asyncio.gather(
        one.manager.handle(one.ctx("Ann"), Leaderboard("wins")),
        two.manager.handle(two.ctx("Bob"), Stats()),
    )
    announced = [r.public[0] for r in replies if r.public[0].startswith("🏁")]
    assert announced == ["🏁 Season 1 is over; Season 2 starts now."]
    now = await one.manager.handle(one.ctx("Ann"), Season())
    assert now.public == (f"🗓️ Season 2 started on {day('en', clock.now)}.",)
    old = await one.manager.handle(one.ctx("Ann"), Leaderboard("wins", season=1))
    assert old.public[0].splitlines()[1:] == ["1. Ann — 3", "2. Bob — 1"]


async def test_season_days_zero_never_ends_a_season(store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Ann"), Season())
    clock.now += 3650 * DAY
    reply = await table.manager.handle(table.ctx("Ann"), Season())
    assert reply.public[0].startswith("🗓️ Season 1 started")
