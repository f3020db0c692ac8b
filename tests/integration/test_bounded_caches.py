"""What one process keeps of Redis is bounded (SHUTBOX_CACHE_*): however many games it serves,
it holds at most its bound of games, servers and balances, and a game or balance dropped from
the cache is read back from Redis and plays on as if it had never left."""

from __future__ import annotations

from core.service.api.commands import Begin, Click, Join, Solo, Start
from core.service.model.settings import StartOptions
from core.service.pipeline.cached import known_balances, knows_game
from core.service.pipeline.manager import GameManager
from core.service.pipeline.runtime import CacheSizes
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

SMALL = CacheSizes(games=3, servers=2, members=2)
CHANNELS = [f"c{i}" for i in range(8)]
POT = "pot:3"


def bounded(store: RedisStore) -> GameManager:
    return GameManager(store, clock=Clock(), cache_sizes=SMALL)


async def open_solo(table: Table, user: str, stakes: str | None = None) -> None:
    options = StartOptions(stakes=stakes) if stakes else StartOptions()
    table.last = await table.manager.handle(table.ctx(user), Solo(options))


async def test_the_process_holds_no_more_games_than_its_bound(store: RedisStore) -> None:
    """Eight solo games in eight channels: the process holds three of them, the most recent."""
    process = bounded(store)
    for channel in CHANNELS:
        await open_solo(Table(process, channel), f"P{channel}")
    assert len(process.games) == SMALL.games
    assert [knows_game(process, SCOPE, c) for c in CHANNELS] == [False] * 5 + [True] * 3


async def test_a_game_dropped_from_the_cache_plays_on_from_redis(store: RedisStore) -> None:
    """The first game, pushed out by later ones, takes its next click as Redis holds it: the
    click is applied once, at the version after the one its button carries."""
    process = bounded(store)
    first = Table(process, CHANNELS[0])
    await open_solo(first, "Ann")
    for channel in CHANNELS[1:]:
        await open_solo(Table(process, channel), f"P{channel}")
    assert not knows_game(process, SCOPE, CHANNELS[0])
    shown = first.last.game
    assert shown is not None

    reply = await first.press("Ann")

    assert reply.game is not None and reply.game.version == shown.version + 1
    stored = await manager(store).current(first.ctx("Ann"))
    assert stored is not None and stored.version == shown.version + 1
    assert knows_game(process, SCOPE, CHANNELS[0])  # read back, and kept again


async def test_balances_past_the_bound_are_read_back_and_chips_add_up(store: RedisStore) -> None:
    """A staked match of three with room for two balances: the process keeps two, every ante
    and payout is settled on the balances Redis holds, the journal replays to the balances, and
    the three players' chips add up to their starting chips once the pot is paid out."""
    process = bounded(store)
    table = Table(process)
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions(stakes=POT)))
    for player in ("Bob", "Cid"):
        await table.manager.handle(table.ctx(player), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())

    await table.play_out()

    assert len(known_balances(process, SCOPE)) <= SMALL.members
    start = (await process.server_config(SCOPE)).start_chips
    held = await store.balances(SCOPE, ["ann", "bob", "cid"])
    assert sum(held.values()) == 3 * start and set(held.values()) != {start}
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_click_is_applied_once_whatever_the_bound(store: RedisStore) -> None:
    """The same click twice from a process with room for one game: applied once."""
    process = GameManager(store, clock=Clock(), cache_sizes=CacheSizes(games=1))
    table, other = Table(process, "c1"), Table(process, "c2")
    await open_solo(table, "Ann")
    button = table.button()
    await open_solo(other, "Bob")  # pushes Ann's game out
    ctx = table.ctx("Ann", request="same")
    first = await process.handle(ctx, Click(button))
    again = await process.handle(ctx, Click(button))
    assert first.game is not None and again.game is not None
    assert first.game.version == again.game.version
