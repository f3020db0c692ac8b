"""Turn calls on Discord (SPEC 8): a short message mentions only the player whose turn it is,
once per turn, and is deleted when the turn moves on; `/shutbox ping calls:off` stops it."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, text_of
from tests.e2e.discord.players import ANN, BOB, current, press


def calls(fake: FakeDiscord) -> list[dict[str, object]]:
    return [m for m in fake.messages.values() if text_of(m).startswith("🎲 <@")]


def call_requests(fake: FakeDiscord) -> list[dict[str, object]]:
    return [r.body for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")
            and "it’s your turn" in str((r.body or {}).get("content", ""))]  # fmt: skip


async def two_player_game(fake: FakeDiscord) -> int:
    opened = await fake.answered(await fake.command(ANN, "start", rounds=2))
    game = opened.original
    assert game is not None
    await press(fake, BOB, game, "join")
    await press(fake, ANN, game, "begin")
    return game


async def test_the_player_to_act_is_mentioned_alone_and_the_call_goes_when_they_act(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager, store: RedisStore
) -> None:
    game = await two_player_game(fake)
    await fake.until(lambda: len(calls(fake)) == 1)
    (first,) = calls(fake)
    assert text_of(first) == f"🎲 <@{ANN.id}>, it’s your turn."
    assert call_requests(fake)[0]["allowed_mentions"] == {"parse": [], "users": [ANN.id]}
    while (record := await current(manager)) is not None and record.state.to_act is not None \
            and record.state.to_act.name == "Ann":  # fmt: skip
        await fake.answered(await fake.click(ANN, game))
    await fake.until(lambda: len(calls(fake)) == 2 and int(first["id"]) in fake.deleted)
    second = calls(fake)[-1]
    assert text_of(second) == f"🎲 <@{BOB.id}>, it’s your turn."
    assert int(second["id"]) not in fake.deleted
    # a call's message id is kept longer than any turn, so a slow turn's call still comes down
    kept = [k async for k in store._redis.scan_iter(match="*claim:post:ping:*")]
    assert kept and all([await store._redis.ttl(k) > 3600 for k in kept])


async def test_a_member_who_turned_calls_off_is_not_mentioned(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    said = await fake.answered(await fake.command(ANN, "ping", calls="off"))
    assert said.ephemeral and said.data["content"].startswith("You won’t be called")
    await two_player_game(fake)
    await fake.settle()
    assert calls(fake) == []
