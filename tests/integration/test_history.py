"""The server's match history (issue 27): one entry per match that ends, written in the same
commit as its end, on every way a match ends; newest first, the newest KEEP kept."""

from __future__ import annotations

from core.game.dice import MatchRecord, SecureDice, verify_record
from core.service.api.commands import Begin, Join, Leave, Solo, Start, Stop
from core.service.features import history
from core.service.features.history import Match
from core.service.model.commit import Commit, OpKind, StoreOp
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager


async def matches(store: RedisStore) -> list[Match]:
    entries = [Match.from_json(text) for text in await store.newest(SCOPE, history.KEY, 500)]
    return [entry for entry in entries if entry is not None]


async def test_a_finished_fair_match_keeps_its_record_and_reviews(store: RedisStore) -> None:
    table = Table(manager(store, dice=SecureDice()))
    table.last = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions(fair=True)))
    await table.play_out()
    [match] = await matches(store)
    assert match.ending == "finished" and [p.name for p in match.players] == ["Ann"]
    assert match.players[0].id == "ann" and match.players[0].review.startswith(match.id)
    fair = MatchRecord.from_json(match.fair)
    assert verify_record(fair).ok
    # the log holds every roll of the match in order: the same as the published record's
    rolled = [tuple(int(d) for d in step[1:]) for _, turn in match.log for step in turn.steps
              if step.startswith("d")]  # fmt: skip
    assert rolled == list(fair.rolls) and rolled
    assert all(seat == 0 for seat, _ in match.log)
    assert match.log[-1][1].ended


async def test_a_stopped_match_is_kept(store: RedisStore) -> None:
    table = Table(manager(store))
    table.last = await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    await table.press("Ann")  # the first roll
    await table.manager.handle(table.ctx("Ann"), Stop())
    [match] = await matches(store)
    assert match.ending == "stopped" and {p.name for p in match.players} == {"Ann", "Bob"}
    assert match.fair == ""
    assert match.log and match.log[0][0] == 0  # the host's first roll


async def test_a_match_left_by_its_last_player_is_kept(store: RedisStore) -> None:
    table = Table(manager(store))
    table.last = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions()))
    await table.manager.handle(table.ctx("Ann"), Leave())
    assert len(await matches(store)) == 1


async def test_a_match_ended_by_its_timers_is_kept(store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    table.last = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions()))
    for _ in range(40):
        if await table.manager.current(table.ctx("Ann")) is None:
            break
        clock.now += 3600
        await table.manager.sweep()
    assert await table.manager.current(table.ctx("Ann")) is None
    assert len(await matches(store)) == 1


async def test_a_cancelled_lobby_and_a_challenge_are_not_matches(store: RedisStore) -> None:
    from core.service.api.commands import Cancel, Challenge

    table = Table(manager(store))
    table.last = await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await table.manager.handle(table.ctx("Ann"), Cancel())
    await table.manager.handle(table.ctx("Ann"), Challenge())
    assert await matches(store) == []


async def test_the_list_keeps_the_newest(store: RedisStore) -> None:
    for number in range(history.KEEP + 5):
        entry = f'{{"n":{number}}}'
        await store.commit(Commit(SCOPE, ops=(StoreOp(OpKind.LCAP, history.KEY, "200", entry),)))
    kept = await store.newest(SCOPE, history.KEY, 1000)
    assert len(kept) == history.KEEP
    assert kept[0] == f'{{"n":{history.KEEP + 4}}}' and kept[-1] == '{"n":5}'


async def test_an_unreadable_entry_is_skipped() -> None:
    assert Match.from_json("not json") is None
    assert Match.from_json('{"id": 1}') is None
