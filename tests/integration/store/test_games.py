"""A game is kept as written, and a move on an outdated version is refused."""

from __future__ import annotations

from core.service.model.commit import (
    Status,
    StoredGame,
)
from core.store.redis_store import RedisStore
from tests.integration.store.helpers import (
    ANN,
    BEN,
    SCOPE,
    new_game,
    next_move,
)


async def test_new_game_is_created_and_loaded(store: RedisStore) -> None:
    """A new lobby is written with its version and found again by load."""
    result = await store.commit(new_game())
    assert result.status is Status.OK
    assert result.version == 1
    assert result.balances == {ANN: 100, BEN: 100}
    assert await store.load(SCOPE, "c1") == StoredGame(1, "lobby c1")
    assert await store.servers() == [SCOPE]


async def test_missing_game_loads_as_none(store: RedisStore) -> None:
    """A channel without a game loads as None, with the balances that exist."""
    await store.commit(new_game("c2"))
    game, balances = await store.load_with_balances(SCOPE, "c1", [ANN, "nobody"])
    assert game is None
    assert balances == {ANN: 100}


async def test_record_keeps_any_text(store: RedisStore) -> None:
    """A record with quotes, emoji and non-Latin text round-trips through the script."""
    record = 'Åse "🎲" 骰子 \\ end'
    await store.commit(new_game(record=record))
    assert await store.load(SCOPE, "c1") == StoredGame(1, record)


async def test_stale_version_is_refused_with_current_record(store: RedisStore) -> None:
    """A commit made on an old version is refused and gets the current version and record."""
    await store.commit(new_game())
    await store.commit(next_move(1))
    result = await store.commit(next_move(1, record="late click"))
    assert (result.status, result.version, result.record) == (Status.STALE, 2, "move 2")
    assert await store.load(SCOPE, "c1") == StoredGame(2, "move 2")


async def test_second_lobby_in_a_channel_is_stale(store: RedisStore) -> None:
    """Opening a game where one exists is refused: the game must not exist yet."""
    await store.commit(new_game())
    result = await store.commit(new_game(record="another"))
    assert (result.status, result.version, result.record) == (Status.STALE, 1, "lobby c1")


async def test_move_on_a_missing_game_is_stale(store: RedisStore) -> None:
    """A click on a game that has ended is refused with no version."""
    result = await store.commit(next_move(3))
    assert (result.status, result.version, result.record) == (Status.STALE, None, None)
