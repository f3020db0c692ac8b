"""Discord failing after the commit: retried discord.py's way, told truthfully, caught up.

The fake answers chosen calls with a 429 and its retry_after, a 5xx, or "Unknown interaction"
(an interaction that expired). A move that Redis applied is never reported as "nothing
changed", and the game message catches up through the deadline sweep.
"""

from __future__ import annotations

import pytest

from adapters.discord import ShutboxClient
from bot.runtime import sweeping
from core.service.pipeline.manager import GameManager
from tests.e2e.discord.fake_discord import FakeDiscord, Fault, Json, playing, text_of
from tests.e2e.discord.players import ANN, button_id, version

APPLIED = "Your move was applied, but Discord didn’t let the game message update; it will catch up."


def shows(message: Json, at: int) -> bool:
    """Whether the message's game buttons are those of the game at version `at`."""
    return {str(b["custom_id"]).split(":")[3] for b in playing(message)} == {str(at)}


async def solo(fake: FakeDiscord) -> int:
    opened = await fake.answered(await fake.command(ANN, "solo"))
    assert opened.original is not None
    return opened.original


@pytest.mark.gateway_only  # the callback route
async def test_a_rate_limited_answer_is_sent_again_after_retry_after(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """The click's answer gets a 429 once: discord.py waits as told and sends it again."""
    game = await solo(fake)
    fake.fail("callback", Fault(429, retry_after=0.2))
    sent = await fake.answered(await fake.click(ANN, game, button_id(fake, game, "roll")))
    assert len(fake.requests_to("POST", f"/interactions/{sent.id}/")) == 2
    assert shows(fake.messages[game], await version(manager))
    assert sent.followups == []


@pytest.mark.gateway_only  # the callback route
async def test_an_expired_interaction_after_the_commit_says_the_move_was_applied(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """The roll is committed, but Discord says the interaction is gone (and the sweep's first
    edit gets a 503): the player hears the truth, each failure is counted, and the game
    message catches up with the game as stored."""
    failures: list[tuple[str, str]] = []
    bot.report = lambda call, reason: failures.append((call, reason))
    game = await solo(fake)
    before = await version(manager)
    fake.fail("callback", Fault(404, code=10062))
    sent = await fake.click(ANN, game, button_id(fake, game, "roll"))
    await fake.until(lambda: bool(sent.followups))
    assert text_of(fake.messages[sent.followups[0]]) == APPLIED
    now = await version(manager)
    assert now == before + 1 and not shows(fake.messages[game], now)
    fake.fail("channel_edit", Fault(503))
    async with sweeping(manager, "discord", bot.show_timeout, every=0.1):
        await fake.until(lambda: shows(fake.messages[game], now), within=10)
    assert failures == [("interaction", "interaction_expired"), ("channel", "http_503")]
