"""A whole match in a guild channel, played through the real client against the fake Discord."""

from __future__ import annotations

import re

from adapters.discord import ShutboxClient
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, playing, text_of
from tests.e2e.discord.players import ANN, BOB, CID, SCOPE, current, play_out, press

START_CHIPS = 100


async def test_three_players_play_a_pot_match_to_the_end(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager, store: RedisStore
) -> None:
    """Ann opens a pot:5 lobby, Bob and Cid join by button, and the match is played out by
    buttons on one message edited in place; the summaries follow as channel messages."""
    opened = await fake.answered(await fake.command(ANN, "start", stakes="pot:5", rounds=2))
    assert opened.posted and not opened.ephemeral
    game = opened.original
    assert game is not None and "Ann" in text_of(fake.messages[game])
    for user in (BOB, CID):
        assert (await press(fake, user, game, "join")).answer_type == 7
    assert (await press(fake, ANN, game, "begin")).answer_type == 7

    clicks = await play_out(fake, manager, game)

    assert all(click.answer_type == 7 and click.original == game for click in clicks)
    assert playing(fake.messages[game]) == []
    assert "game over" in text_of(fake.messages[game])
    record = await current(manager)
    assert record is None or record.state.over
    summaries = "\n".join(text_of(m) for m in fake.channel_messages() if int(m["id"]) != game)
    assert "**Round 1**" in summaries and "**Round 2**" in summaries
    assert "**Match over**" in summaries
    assert "📈 Ratings: " in summaries  # three humans: a rated match


async def test_balances_and_leaderboard_right_after_a_pot_match(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager, store: RedisStore
) -> None:
    """After the match no chip is made or lost, and `/shutbox balance` and
    `/shutbox leaderboard chips` show the new balances at once."""
    opened = await fake.answered(await fake.command(ANN, "start", stakes="pot:5", rounds=2))
    game = opened.original
    assert game is not None
    for user in (BOB, CID):
        await press(fake, user, game, "join")
    await press(fake, ANN, game, "begin")
    await play_out(fake, manager, game)

    players = (ANN, BOB, CID)
    balances = await store.balances(SCOPE, [str(user.id) for user in players])
    assert sum(balances.values()) == START_CHIPS * len(players)
    assert set(balances.values()) != {START_CHIPS}  # the pots did move chips
    for user in players:
        answer = await fake.answered(await fake.command(user, "balance"))
        assert answer.ephemeral
        assert answer.data["content"] == f"You have {balances[str(user.id)]} chips."

    board = await fake.answered(await fake.command(BOB, "leaderboard", board="chips"))
    assert not board.ephemeral
    listed = re.findall(r"\d+\. (\w+) — (\d+)", board.data["content"])
    expected = sorted(players, key=lambda user: -balances[str(user.id)])
    assert [int(chips) for _, chips in listed] == [balances[str(u.id)] for u in expected]
    assert {name for name, _ in listed} == {"Ann", "Bob", "Cid"}
