"""Seasons in a Discord server: an admin's `/shutbox season action:end` archives and resets the
boards, anyone else is refused, and `leaderboard board:wins season:1` reads the archive."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.service.model.commit import Commit, OpKind, StoreOp
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, text_of
from tests.e2e.discord.players import ANN, BOB, DAG, MOD, SCOPE


async def bob_won_twice(store: RedisStore) -> None:
    bob = str(BOB.id)
    ops = (StoreOp(OpKind.ZINCRBY, "lb:wins", bob, 2), StoreOp(OpKind.HSET, "names", bob, "Bob"),
           StoreOp(OpKind.ZSET, "lb:rating", bob, 1520))  # fmt: skip
    await store.commit(Commit(SCOPE, ops=ops))


async def test_an_admin_ends_the_season_and_the_old_board_stays_readable(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    await bob_won_twice(store)
    await fake.answered(await fake.command(ANN, "give", player=BOB, amount=20))
    ended = await fake.answered(
        await fake.command(MOD, "season", options={"action": "end", "reset-chips": True})
    )
    assert not ended.ephemeral
    assert ended.data["content"] == (
        "🏁 Season 1 is over; Season 2 starts now.\n"
        "Every player's chips went back to the bank; everyone starts again with 100 chips."
    )
    now = await fake.answered(await fake.command(ANN, "leaderboard", board="wins"))
    assert text_of(fake.messages[now.original or 0]) == (
        "**🏆 Most matches won**\nNobody on this board yet: win a match against another player"
        " (bots don’t count) to be the first."
    )
    old = await fake.answered(await fake.command(ANN, "leaderboard", board="wins", season=1))
    assert text_of(fake.messages[old.original or 0]) == (
        "**🏆 Most matches won · Season 1**\n1. Bob — 2"
    )
    assert await store.balances(SCOPE, [str(ANN.id), str(BOB.id)]) == {}
    assert (await store.verify_ledger(SCOPE)).ok
    balance = await fake.answered(await fake.command(BOB, "balance"))
    assert balance.data["content"] == "You have 100 chips."


async def test_only_an_admin_ends_a_season(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    await bob_won_twice(store)
    refused = await fake.answered(await fake.command(ANN, "season", action="end"))
    assert refused.ephemeral and refused.data["content"] == "Only an admin can do that."
    shown = await fake.answered(await fake.command(DAG, "season"))  # public: the server's language
    assert not shown.ephemeral and shown.data["content"].startswith("🗓️ Season 1 started on ")
    unknown = await fake.answered(await fake.command(ANN, "leaderboard", board="wins", season=1))
    assert unknown.ephemeral
    assert unknown.data["content"] == "There is no ended Season 1; this is Season 1."


async def test_stats_name_the_season_and_all_seasons_reads_all_time(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    """`/shutbox stats` speaks of Season 1; `all-seasons:True` of all time."""
    ann = str(ANN.id)
    ops = (StoreOp(OpKind.HINCRBY, f"stats:{ann}", "games", 4),)
    await store.commit(Commit(SCOPE, ops=ops))
    season = await fake.answered(await fake.command(ANN, "stats"))
    shown = text_of(fake.messages[season.original or 0])
    assert shown.startswith("**Stats for Ann** · Season 1 (`stats all` for all seasons)\n")
    assert "Matches: 0 played" in shown
    every = await fake.answered(await fake.command(ANN, "stats", options={"all-seasons": True}))
    shown = text_of(fake.messages[every.original or 0])
    assert shown.startswith("**Stats for Ann** · all seasons\nMatches: 4 played")
