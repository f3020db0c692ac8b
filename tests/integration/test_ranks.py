"""Ranks and the viewer's own line under the top 10 (SPEC 5), on a real Redis."""

from __future__ import annotations

from core.service.api.commands import Click, Leaderboard, Rank
from core.service.model.commit import Commit, OpKind, StoreOp
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

PLAYERS = [f"p{n:02d}" for n in range(1, 13)]  # p01 has 12 wins ... p12 has 1


async def twelve_winners(store: RedisStore) -> None:
    ops = []
    for index, user in enumerate(PLAYERS):
        ops += [StoreOp(OpKind.ZINCRBY, "lb:wins", user, 12 - index),
                StoreOp(OpKind.HSET, "names", user, user.upper())]  # fmt: skip
    await store.commit(Commit(SCOPE, ops=tuple(ops)))


async def test_the_board_shows_ten_and_the_viewers_own_line(store: RedisStore) -> None:
    """P12 sees the top 10, then `…` and their own 12th place."""
    await twelve_winners(store)
    table = Table(manager(store))
    board = (
        (await table.manager.handle(table.ctx("p12"), Leaderboard("wins"))).public[0].splitlines()
    )
    assert board[1] == "1. P01 — 12" and board[10] == "10. P10 — 3"
    assert board[11:] == ["…", "12. P12 — 1", "Page 1 of 2"]
    top = (await table.manager.handle(table.ctx("p03"), Leaderboard("wins"))).public[0].splitlines()
    assert len(top) == 12 and "…" not in top  # in the top 10: no line of their own


async def test_previous_and_next_page_through_the_board(store: RedisStore) -> None:
    """Page 1 offers Next; Next shows places 11 and 12 with Previous, which goes back."""
    await twelve_winners(store)
    table = Table(manager(store))
    first = await table.manager.handle(table.ctx("p01"), Leaderboard("wins"))
    assert [[b.label for b in row] for row in first.buttons] == [["Next"]]
    second = await table.manager.handle(table.ctx("p05"), Click(first.buttons[0][0].action_id))
    assert second.public[0].splitlines()[1:] == [
        "11. P11 — 2",
        "12. P12 — 1",
        "…",
        "5. P05 — 8",
        "Page 2 of 2",
    ]
    assert [[b.label for b in row] for row in second.buttons] == [["Previous"]]
    back = await table.manager.handle(table.ctx("p05"), Click(second.buttons[0][0].action_id))
    assert back.public[0].splitlines()[1] == "1. P01 — 12"


async def test_rank_gives_the_place_on_every_board_the_player_is_on(store: RedisStore) -> None:
    await twelve_winners(store)
    table = Table(manager(store))
    reply = await table.manager.handle(table.ctx("p04"), Rank())
    assert reply.public == ("**Where P04 stands**\n#4 of 12 by wins",)  # as the board names p04
    other = await table.manager.handle(table.ctx("p04"), Rank("p12", "P12"))
    assert other.public == ("**Where P12 stands**\n#12 of 12 by wins",)
    nobody = await table.manager.handle(table.ctx("zed"), Rank())
    assert nobody.public == ("zed is not on any leaderboard yet.",)
