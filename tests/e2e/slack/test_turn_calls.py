"""Turn calls on Slack (SPEC 8): a threaded reply under the game message names the player
whose turn it is, once per turn, and is deleted when the turn moves on."""

from __future__ import annotations

from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import CHANNEL, TEAM, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message
from tests.e2e.slack.test_match import first_move, open_lobby

SCOPE = Scope("slack", TEAM)


def calls(fake: FakeSlack) -> list[Message]:
    return [m for m in fake.messages.values() if m.text.startswith("🎲 <@")]


async def test_the_player_to_act_is_named_in_the_game_thread_and_the_call_goes_after(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    game = await open_lobby(slack, fake, "start rounds=2")
    await slack.press("UBOB", game, game.button("Join"))
    await slack.press("UANN", game, game.button("Start"))
    await fake.wait_for(lambda: calls(fake))
    (first,) = calls(fake)
    assert first.text == "🎲 <@UANN>, it’s your turn."
    assert first.thread_ts == game.ts and first.channel == CHANNEL
    ctx = Context(SCOPE, CHANNEL, "watcher", "Watcher")
    while (record := await manager.current(ctx)) is not None and record.state.to_act is not None \
            and record.state.to_act.id == "UANN":  # fmt: skip
        await slack.press("UANN", game, first_move(game))
    await fake.wait_for(lambda: len(calls(fake)) == 2 and first.deleted)
    second = calls(fake)[-1]
    assert second.text == "🎲 <@UBOB>, it’s your turn." and not second.deleted
