"""The Instrument middleware: one record per handled command, with its outcome, time and request
id."""

from __future__ import annotations

import inspect

import redis.asyncio as aioredis

from bot.instrument import ActionRecord, Instrument, Observer, Outcome, button_action
from bot.telemetry import Telemetry
from core.game.dice import SeededDice
from core.service.api.commands import Begin, Click, Join, Start
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.services import command_types
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.service.pipeline.bus import command_name
from core.service.pipeline.manager import HANDLERS, GameManager
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table


def watched(
    store: RedisStore, observers: list[Observer], clock: Clock | None = None
) -> GameManager:
    """A manager with the Instrument middleware, as the bot's runtime builds it."""
    middleware = (Instrument(observers),)
    return GameManager(store, clock=clock or Clock(), dice=SeededDice(1), middleware=middleware)


def instrumented(
    store: RedisStore, clock: Clock | None = None
) -> tuple[GameManager, list[ActionRecord]]:
    records: list[ActionRecord] = []
    return watched(store, [records.append], clock), records


async def open_match(table: Table) -> None:
    await table.manager.handle(table.ctx("Ann", request="r-start"), Start(StartOptions()))
    await table.manager.handle(table.ctx("Bob", request="r-join"), Join())
    table.last = await table.manager.handle(table.ctx("Ann", request="r-begin"), Begin())


def test_every_public_command_of_the_manager_is_instrumented() -> None:
    """Every command reaches its handler through `handle` and so through the middleware: the
    manager answers no other public call with a Reply, and every command has a handler."""
    public = [
        name for name, member in inspect.getmembers(GameManager, inspect.iscoroutinefunction)
        if not name.startswith("_")
        and inspect.signature(member).return_annotation in (Reply, "Reply")
    ]  # fmt: skip
    assert public == ["handle"]
    commands = [command_name(kind) for kind in HANDLERS]
    assert "click" in commands and "start" in commands
    unwrapped = [kind for kind in command_types() if kind not in HANDLERS]
    assert unwrapped == []


async def test_each_command_reports_once_with_its_request_id(store: RedisStore) -> None:
    """start, join, begin and a click each give one `ok` record with the request id."""
    manager, records = instrumented(store)
    table = Table(manager)
    await open_match(table)
    await table.press("Ann", request="r-roll")
    assert [(r.action, r.outcome, r.request_id) for r in records] == [
        ("start", Outcome.OK, "r-start"),
        ("join", Outcome.OK, "r-join"),
        ("begin", Outcome.OK, "r-begin"),
        ("click.roll", Outcome.OK, "r-roll"),
    ]
    assert all(r.seconds > 0 and r.scope == SCOPE and r.channel == "c1" for r in records)


async def test_a_rule_saying_no_is_refused_with_its_key(store: RedisStore) -> None:
    """A click by the wrong player is `refused`, with the error's catalog key."""
    manager, records = instrumented(store)
    table = Table(manager)
    await open_match(table)
    reply = await table.press("Bob", request="r-bob")
    assert reply.private is not None
    assert (records[-1].outcome, records[-1].error, records[-1].user) == (
        Outcome.REFUSED, "error.not_your_turn", "bob",
    )  # fmt: skip


async def test_a_repeated_delivery_is_a_duplicate(store: RedisStore) -> None:
    """The same request delivered again gets its first result and is counted as a duplicate."""
    manager, records = instrumented(store)
    table = Table(manager)
    await open_match(table)
    button = table.button()
    first = await manager.handle(table.ctx("Ann", request="r-twice"), Click(button))
    again = await manager.handle(table.ctx("Ann", request="r-twice"), Click(button))
    assert again == first
    assert [r.outcome for r in records[-2:]] == [Outcome.OK, Outcome.DUPLICATE]


async def test_redis_out_of_reach_is_an_error(unused_tcp_port: int) -> None:
    """When Redis cannot be reached the command is an `error` and counts in errors_total."""
    client = aioredis.Redis(port=unused_tcp_port, decode_responses=True, socket_timeout=1)
    telemetry = Telemetry()
    manager = watched(RedisStore(client), [telemetry.observe])
    ctx = Context(Scope("test", "down"), "c1", "ann", "Ann", request_id="r-down")
    reply = await manager.handle(ctx, Start(StartOptions()))
    await client.aclose()
    assert reply.private is not None
    sample = telemetry.registry.get_sample_value
    assert sample("shutbox_actions_total", {"action": "start", "outcome": "error"}) == 1
    assert sample("shutbox_errors_total", {"action": "start", "error": "error.redis"}) == 1


async def test_a_timeout_applied_by_the_sweep_is_reported(store: RedisStore) -> None:
    """A turn timer that runs out is one `timeout` record."""
    clock = Clock()
    manager, records = instrumented(store, clock)
    await open_match(Table(manager))
    clock.now += 3600
    assert await manager.sweep()
    assert records[-1].action == "timeout" and records[-1].outcome is Outcome.OK


async def test_a_failing_observer_never_breaks_a_command(store: RedisStore) -> None:
    """An observer that raises is logged; the player still gets the game."""

    def broken(record: ActionRecord) -> None:
        raise RuntimeError("metrics are down")

    manager = watched(store, [broken])
    reply = await manager.handle(Table(manager).ctx("Ann"), Start(StartOptions()))
    assert reply.game is not None


def test_buttons_become_a_fixed_set_of_action_names() -> None:
    """Button ids map to `click.<verb>`; anything else is `click.invalid` (bounded labels)."""
    assert button_action("stb:roll:abc:3:0") == "click.roll"
    assert button_action("stb:choose:abc:4:96") == "click.choose"
    assert button_action("nonsense") == "click.invalid"
    assert button_action("stb:drop table:x:1:0") == "click.invalid"
