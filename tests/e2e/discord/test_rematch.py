"""Rematch in a Discord channel: the finished match's button opens the next lobby (SPEC 5)."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.service.pipeline.manager import GameManager
from tests.e2e.discord.fake_discord import FakeDiscord, text_of
from tests.e2e.discord.players import ANN, BOB, CID, current, play_out, press


async def test_rematch_opens_a_lobby_with_the_same_settings_and_calls_the_players(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Ann and Bob play a pot:5 match; Bob's Rematch posts his new lobby as a message of its own
    (the finished board stays) with the same stakes, Ann is mentioned, and she joins with the
    lobby's own button."""
    opened = await fake.answered(await fake.command(ANN, "start", stakes="pot:5", rounds=1))
    game = opened.original
    assert game is not None
    await press(fake, BOB, game, "join")
    await press(fake, ANN, game, "begin")
    await play_out(fake, manager, game)
    finished = await current(manager)
    assert finished is None

    final = text_of(fake.messages[game])
    rematch = await press(fake, BOB, game, "rematch")

    assert rematch.posted and not rematch.ephemeral  # a new message: the lobby
    new = rematch.original
    assert new is not None and new != game and text_of(fake.messages[game]) == final
    lobby = await current(manager)
    assert lobby is not None and lobby.state.host.name == "Bob"
    assert lobby.state.config.stakes.to_str() == "pot:5"
    await fake.until(lambda: any(f"<@{ANN.id}>: press Join" in text_of(m)
                                 for m in fake.channel_messages()))  # fmt: skip
    await press(fake, ANN, new, "join")
    joined = await current(manager)
    assert joined is not None and [s.name for s in joined.state.seats] == ["Bob", "Ann"]
    refused = await fake.answered(await fake.command(CID, "start"))
    assert refused.ephemeral and "A lobby is already open" in refused.data["content"]
