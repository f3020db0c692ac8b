"""Rematch in a Slack channel: the finished match's button opens the next lobby (SPEC 5)."""

from __future__ import annotations

from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack
from tests.e2e.slack.test_match import open_lobby, play_to_the_end


async def test_rematch_opens_a_lobby_and_mentions_the_players(
    slack: Driver, fake: FakeSlack
) -> None:
    """Ann and Bob play a match; Bob's Rematch posts a lobby of his own with the same rules
    (the finished board stays), Ann is mentioned, and her second press is pointed to it."""
    game = await open_lobby(slack, fake, "start kids rounds=1")
    await slack.press("UBOB", game, game.button("Join"))
    await slack.press("UANN", game, game.button("Start"))
    await play_to_the_end(slack, game)
    rematch = game.button("Rematch")

    final = game.body
    sent = await slack.click("UBOB", game, rematch)
    assert sent.status == 200
    lobbies = await fake.wait_for(lambda: [m for m in fake.game_messages(CHANNEL) if m is not game])
    assert "Host: Bob" in lobbies[0].body and lobbies[0].button("Join")
    assert game.body == final
    called = await fake.wait_for(lambda: [m.text for m in fake.public if "Rematch!" in m.text])
    assert called[-1].endswith("<@UANN>: press Join to play again.")
    again = await slack.click("UANN", game, rematch)
    assert (await fake.reply(again.key)).text == (
        "A game is already open in this channel (host: Bob). Join it there."
    )
