"""A Slack leaderboard pages by 10 with Previous / Next buttons on its own message."""

from __future__ import annotations

from redis.asyncio import Redis

from core.service.model.commit import Commit, OpKind, Scope, StoreOp
from core.store.redis_store import RedisStore
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message


async def test_next_and_previous_edit_the_leaderboard_in_place(
    slack: Driver, fake: FakeSlack, redis: Redis
) -> None:
    ops = []
    for n in range(1, 13):
        ops += [StoreOp(OpKind.ZINCRBY, "lb:wins", f"U{n}", 13 - n),
                StoreOp(OpKind.HSET, "names", f"U{n}", f"P{n}")]  # fmt: skip
    await RedisStore(redis).commit(Commit(Scope("slack", TEAM), ops=tuple(ops)))

    await slack.command("UBOB", "leaderboard wins")
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    board = found[0]
    assert "1. P1 — 12" in board.body and "Page 1 of 2" in board.body
    assert [b["text"]["text"] for b in board.buttons] == ["Next"]

    await slack.press("UCID", board, board.button("Next"))

    assert "11. P11 — 2" in board.body and "1. P1 — 12" not in board.body
    await slack.press("UCID", board, board.button("Previous"))
    assert "1. P1 — 12" in board.body and len(fake.game_messages(CHANNEL)) == 1
