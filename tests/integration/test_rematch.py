"""Rematch: a finished match's button opens a new lobby with the same settings (SPEC 5)."""

from __future__ import annotations

from core.service.api.commands import AddBot, Begin, Click, Join, Solo, Start
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import Table, manager

SETTINGS = StartOptions(preset="sailors", format="rounds:2", stakes="pot:5", timer=45)


async def finished_match(table: Table) -> str:
    """Ann, Bob and a bot play a staked two-round match; returns the Rematch button's id."""
    table.last = await table.manager.handle(table.ctx("Ann"), Start(SETTINGS))
    await table.manager.handle(table.ctx("Bob"), Join())
    await table.manager.handle(table.ctx("Ann"), AddBot())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    await table.play_out()
    assert table.last.game is not None and table.last.game.over
    labels = [b.label for row in table.last.game.rows for b in row]
    assert labels == ["Rematch", "Review"]
    return table.button("Rematch")


async def test_a_player_opens_the_rematch_with_the_same_settings(store: RedisStore) -> None:
    """Bob's press opens a lobby he hosts, the bot is seated again, Ann is called to join."""
    table = Table(manager(store))
    button = await finished_match(table)
    before = (await store.hash(table.ctx("x").scope, "rematch:c1"))["m"]
    reply = await table.manager.handle(table.ctx("Bob"), Click(button))
    record = await table.manager.current(table.ctx("Bob"))
    assert record is not None and record.state.phase.value == "lobby"
    assert record.state.host.name == "Bob"
    assert [s.bot for s in record.state.seats] == [False, True]
    assert record.state.config.to_str() in before  # same rules, format, stakes and timer
    assert reply.public[-1] == (
        "🔁 Rematch! Bob opened a new lobby with the same settings. Ann: press Join to play again."
    )
    again = await table.manager.handle(table.ctx("Ann"), Click(button))
    assert again.private == "A game is already open in this channel (host: Bob). Join it there."


async def test_only_the_players_of_the_match_may_open_it(store: RedisStore) -> None:
    table = Table(manager(store))
    button = await finished_match(table)
    reply = await table.manager.handle(table.ctx("Zed"), Click(button))
    assert reply.private == "Only the players of that match can open its rematch."
    assert await table.manager.current(table.ctx("Zed")) is None


async def test_an_older_matchs_rematch_is_refused_once_a_newer_one_finished(
    store: RedisStore,
) -> None:
    table = Table(manager(store))
    old = await finished_match(table)
    await finished_match(table)
    reply = await table.manager.handle(table.ctx("Ann"), Click(old))
    assert reply.private is not None and reply.private.startswith("That match can’t be replayed")


async def test_a_solo_rematch_starts_playing_at_once(store: RedisStore) -> None:
    table = Table(manager(store))
    table.last = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions(preset="hard")))
    await table.play_out()
    table.last = await table.press("Ann", "Rematch")
    record = await table.manager.current(table.ctx("Ann"))
    assert record is not None and record.state.to_act is not None
    assert record.state.config.rules.one_die is False and record.solo
