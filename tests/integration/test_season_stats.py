"""`stats` speaks of the current season and says which; `stats all` of all time (real Redis)."""

from __future__ import annotations

from core.service.api.commands import Begin, Join, Season, Start, Stats
from core.service.model.settings import StartOptions
from core.service.pipeline.subcommands import parse
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.unit.core.service.api.test_text_commands import PlainNames


async def play_a_match(table: Table) -> None:
    table.last = await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    await table.play_out()


async def stats_of(table: Table, command: Stats) -> list[str]:
    return (await table.manager.handle(table.ctx("Ann"), command)).public[0].splitlines()


async def test_stats_follow_the_season_and_all_time_keeps_everything(store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await play_a_match(table)
    season_one = await stats_of(table, Stats())
    assert season_one[0] == "**Stats for Ann** · Season 1 (`stats all` for all seasons)"
    assert season_one[1].startswith("Matches: 1 played") and season_one[3].startswith("Rating: ")
    clock.now += 3600
    await table.manager.handle(table.ctx("Mod", admin=True), Season(end=True))
    season_two = await stats_of(table, Stats())
    assert season_two[0] == "**Stats for Ann** · Season 2 (`stats all` for all seasons)"
    assert season_two[1] == "Matches: 0 played, 0 won · Rounds: 0 played, 0 won · Boxes shut: 0"
    assert season_two[3] == "Rating: none yet this season (it comes with the first rated match)"
    assert not any("Classic:" in line for line in season_two)
    all_time = await stats_of(table, Stats(all_time=True))
    assert all_time[0] == "**Stats for Ann** · all seasons"
    assert all_time[1].startswith("Matches: 1 played")
    assert any(line.startswith("Classic: best") for line in all_time)
    await play_a_match(table)
    assert (await stats_of(table, Stats()))[1].startswith("Matches: 1 played")
    assert (await stats_of(table, Stats(all_time=True)))[1].startswith("Matches: 2 played")
    archived = await store.hash(SCOPE, "season:1:season_stats")
    assert archived.get("ann|games") == "1" and archived.get("bob|games") == "1"


def test_stats_all_is_read_from_text() -> None:
    assert parse("stats all", PlainNames()) == Stats(None, None, True)
    assert parse("stats Bob all", PlainNames()) == Stats("bob", "Bob", True)
    assert parse("stats Bob", PlainNames()) == Stats("bob", "Bob", False)
