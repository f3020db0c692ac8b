"""A leaderboard in Discord pages by 10 with Previous / Next buttons on its own message."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.service.model.commit import Commit, OpKind, StoreOp
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, buttons, text_of
from tests.e2e.discord.players import ANN, BOB, SCOPE


async def twelve_winners(store: RedisStore) -> None:
    ops = []
    for n in range(1, 13):
        ops += [StoreOp(OpKind.ZINCRBY, "lb:wins", f"p{n}", 13 - n),
                StoreOp(OpKind.HSET, "names", f"p{n}", f"P{n}")]  # fmt: skip
    await store.commit(Commit(SCOPE, ops=tuple(ops)))


async def test_next_and_previous_edit_the_leaderboard_in_place(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    await twelve_winners(store)
    posted = await fake.answered(await fake.command(ANN, "leaderboard", board="wins"))
    assert not posted.ephemeral and posted.original is not None
    board = posted.original
    assert "1. P1 — 12" in text_of(fake.messages[board])
    assert [b["label"] for b in buttons(fake.messages[board])] == ["Next"]

    following = await fake.answered(
        await fake.click(BOB, board, str(buttons(fake.messages[board])[0]["custom_id"]))
    )

    assert following.answer_type == 7 and following.original == board
    shown = text_of(fake.messages[board])
    assert "11. P11 — 2" in shown and "Page 2 of 2" in shown and "1. P1 — 12" not in shown
    assert [b["label"] for b in buttons(fake.messages[board])] == ["Previous"]
