"""Leaderboards agree with `rank` on places, name their rules, and say what they cannot show."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from core.game.rules import preset
from core.service.api.commands import Leaderboard, Rank
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE

CTX = Context(SCOPE, "c1", "ann", "Ann", admin=True)


async def _wins(redis: Redis, wins: dict[str, int]) -> GameManager:
    await redis.zadd(f"{SCOPE.tag}:lb:wins", wins)
    for user in wins:
        await redis.hset(f"{SCOPE.tag}:names", user, user.capitalize())
    return GameManager(RedisStore(redis))


async def test_equal_values_share_a_place_as_rank_says(redis: Redis) -> None:
    """Ann and Bob both won 5: both are 1st, Cy is 3rd, on the board and in `rank`."""
    manager = await _wins(redis, {"ann": 5, "bob": 5, "cy": 3})
    board = (await manager.handle(CTX, Leaderboard("wins"))).public[0]
    assert "1. Ann — 5" in board and "1. Bob — 5" in board and "3. Cy — 3" in board
    rank = (await manager.handle(CTX, Rank("bob", "Bob"))).public[0]
    assert "#1 of 3" in rank


async def test_a_page_past_the_end_says_so(redis: Redis) -> None:
    manager = await _wins(redis, {f"p{n:02d}": 100 - n for n in range(12)})
    reply = await manager.handle(CTX, Leaderboard("wins", page=4))
    assert reply.private == "There is no page 5: this board has 2 pages."
    assert not reply.public


async def test_a_board_per_rule_set_names_its_preset(redis: Redis) -> None:
    ten = preset("ten").to_str()
    await redis.zadd(f"{SCOPE.tag}:lb:best:{ten}", {"ann": 4})
    manager = GameManager(RedisStore(redis))
    board = (await manager.handle(CTX, Leaderboard("best", "ten"))).public[0]
    assert board.startswith("**⭐ Best single score · Ten tiles (ten)**")
    classic = (await manager.handle(CTX, Leaderboard("best"))).public[0]
    assert classic.startswith("**⭐ Best single score · Classic**")


async def test_a_board_that_ignores_the_preset_refuses_it(redis: Redis) -> None:
    manager = await _wins(redis, {"ann": 1})
    reply = await manager.handle(CTX, Leaderboard("wins", "hard"))
    assert reply.private is not None and "takes no preset" in reply.private
    assert "best, average" in reply.private


@pytest.mark.parametrize(
    ("board", "says"),
    [
        ("average", "3 turns in matches under these rules put a player on it."),
        ("accuracy", "20 decisions reviewed against perfect play put a player on it."),
        ("wins", "win a match"),
        ("rating", "finish a match against at least one other player"),
    ],
)
async def test_an_empty_board_says_what_puts_a_player_on_it(
    redis: Redis, board: str, says: str
) -> None:
    manager = GameManager(RedisStore(redis))
    assert says in (await manager.handle(CTX, Leaderboard(board))).public[0]


async def test_rank_names_the_player_as_they_are_known(redis: Redis) -> None:
    """`rank ann` typed in lower case reads as Ann, the name the board shows."""
    manager = await _wins(redis, {"ann": 2})
    rank = (await manager.handle(CTX, Rank("ann", "ann"))).public[0]
    assert rank.startswith("**Where Ann stands**")
