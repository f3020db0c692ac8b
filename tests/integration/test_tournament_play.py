"""Whole tournaments through the manager (SPEC 12): every table an ordinary game in its own
channel (the thread a surface opens), every round advanced once, standings and prizes as
stated, the ledger balanced, the pairings verifiable, and a restart of the bot between rounds
or in the middle of one changing nothing."""

from __future__ import annotations

import pytest

from core.game.dice import SeededDice
from core.game.tournament.prizes import prizes
from core.game.tournament.standings import standings
from core.game.tournament.values import Status, Tournament
from core.game.tournament.verify import pairing_faults
from core.service.features.tournaments import news
from core.service.features.tournaments.command import OpenTable
from core.service.features.tournaments.records import active, load, pot_account
from core.service.model.views import Reply
from core.service.pipeline.subcommands import parse
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_tournament_commands import Plain, say

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")


async def running(store: RedisStore, tournament_id: str = "") -> Tournament:
    """The channel's tournament (by its id once it may be over)."""
    stored = await (load(store, SCOPE, tournament_id) if tournament_id else
                    active(store, SCOPE, "c1"))  # fmt: skip
    assert stored is not None
    return stored.tournament


async def play_table(store: RedisStore, tournament: Tournament, number: int, seed: int,
                     restart_midway: bool) -> Reply:  # fmt: skip
    """Open the table in its thread and play it out, a new bot process taking over halfway."""
    assert tournament.current is not None
    round_number = tournament.current.number
    table = Table(manager(store, SeededDice(seed), Clock()), channel=f"c1/r{round_number}t{number}")
    opened = await table.manager.handle(table.ctx("Root"),
                                        OpenTable(tournament.id, round_number, number))  # fmt: skip
    assert opened.private is None, opened.private
    table.last = opened
    if restart_midway:
        player = await table.to_act()
        assert player is not None
        await table.press(player)
        table = Table(manager(store, SeededDice(seed + 1), Clock()), channel=table.channel,
                      last=table.last)  # fmt: skip
    return await table.play_out()


@pytest.mark.parametrize(("kind", "size", "count", "rounds"),
                         [("swiss", 3, 7, 3), ("knockout", 2, 8, 3)])  # fmt: skip
async def test_a_whole_tournament_advances_each_round_once_and_pays_its_places(
    store: RedisStore, kind: str, size: int, count: int, rounds: int
) -> None:
    lobby = Table(manager(store, clock=Clock()))
    await say(lobby, "Root", f"create Friday cup kind={kind} rounds=3 table={size} fee=10",
              admin=True)  # fmt: skip
    for name in NAMES[:count]:
        await say(lobby, name, "join")
    await say(lobby, "Root", "start", admin=True)
    news: list[str] = []
    seed, cup = 0, (await running(store)).id  # every table's process is a fresh one
    while (tournament := await running(store, cup)).status is Status.RUNNING:
        current = tournament.current
        assert current is not None
        for table in current.tables:
            seed += 1
            ended = await play_table(store, tournament, table.number, seed, seed % 2 == 0)
            assert {channel for channel, _ in ended.elsewhere} <= {"c1"}
            news += [text for _, text in ended.elsewhere if "— round" in text or "is over" in text]
        if (await running(store, cup)).status is Status.RUNNING:
            assert len((await running(store, cup)).rounds) == current.number + 1
    finished = await running(store, cup)
    assert len(finished.rounds) == rounds
    assert sum(1 for text in news if "— round" in text) == rounds - 1
    assert sum(1 for text in news if "is over" in text) == 1
    pot = 10 * count
    paid = prizes(pot, (60, 30, 10), count)
    places = [line.player for line in standings(finished)][:3]
    balances = await store.balances(SCOPE, [*places, pot_account(finished.id)])
    assert [balances[p] - 90 for p in places] == list(paid)
    assert balances[pot_account(finished.id)] == 0
    assert (await store.verify_ledger(SCOPE)).ok
    assert pairing_faults(finished) == []
    champion = finished.name_of(places[0])
    board = await lobby.manager.handle(lobby.ctx("Ann"), parse("leaderboard tournaments", Plain()))
    assert board.public[0].splitlines()[:2] == ["**🏅 Most tournaments won**", f"1. {champion} — 1"]
    stats = await lobby.manager.handle(lobby.ctx(champion), parse("stats", Plain()))
    assert "Tournaments won: 1" in stats.public[0].splitlines()


async def test_a_round_advances_in_the_commit_that_ends_its_last_table_and_its_news_waits(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The match's end and the round's advance are one commit; if the process stops before
    telling the round's news, the next `tournament` command tells it again (under the same
    keys, so a surface posts it once, and only that once), and nothing advances twice."""
    lobby = Table(manager(store, clock=Clock()))
    await say(lobby, "Root", "create Cup rounds=2", admin=True)
    for name in NAMES[:2]:
        await say(lobby, name, "join")
    await say(lobby, "Root", "start", admin=True)
    cup = await running(store)

    async def stopped(services: object, scope: object, change: object, reply: Reply) -> Reply:
        return reply

    monkeypatch.setattr(news, "after_table", stopped)
    ended = await play_table(store, cup, 1, seed=3, restart_midway=False)
    assert ended.elsewhere == () and ended.tables == ()
    assert len((await running(store, cup.id)).rounds) == 2
    monkeypatch.undo()
    shown = await say(Table(manager(store, clock=Clock())), "Ann", "standings")
    told = [text for _, text in shown.elsewhere]
    assert told[0].startswith("**Cup** — standings after 1 round:")
    assert told[1].startswith("**Cup** — round 2:")
    assert [(c.round, c.table) for c in shown.tables] == [(2, 1)]
    again = await say(Table(manager(store, clock=Clock())), "Bob", "standings")
    assert again.elsewhere == () and again.tables == ()  # told once is enough
    assert len((await running(store, cup.id)).rounds) == 2
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_table_an_admin_stops_counts_as_a_tie_and_the_round_still_ends(
    store: RedisStore,
) -> None:
    lobby = Table(manager(store, clock=Clock()))
    await say(lobby, "Root", "create Cup rounds=1", admin=True)
    for name in NAMES[:2]:
        await say(lobby, name, "join")
    await say(lobby, "Root", "start", admin=True)
    cup = await running(store)
    table = Table(manager(store, clock=Clock()), channel="c1/r1t1")
    await table.manager.handle(table.ctx("Root"), OpenTable(cup.id, 1, 1))
    stopped = await table.manager.handle(table.ctx("Root", admin=True), parse("stop", Plain()))
    assert stopped.private is None or "Only" not in stopped.private
    final = await running(store, cup.id)
    assert final.status is Status.FINISHED
    assert final.rounds[0].tables[0].result is not None
    assert set(final.rounds[0].tables[0].result.winners) == set(final.players)
