"""Fuzzing Discord button ids: forged, Unicode-digit and huge ids are answered privately as
outdated buttons; the game and every chip stay as they were, and nothing is logged as a crash."""

from __future__ import annotations

import copy
import logging

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from redis.asyncio import Redis

from adapters.discord import ShutboxClient
from core.service.model.buttons import VERBS
from tests.e2e.discord.fake_discord import FakeDiscord, buttons
from tests.e2e.discord.players import ANN
from tests.e2e.snapshots import snapshot

FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
NUMBER = st.one_of(
    st.from_regex(r"\d{1,12}", fullmatch=True),  # \d: any Unicode digit
    st.sampled_from(["²", "٣", "９", "0" * 99, "9" * 90, "18446744073709551616"]),
)
GAME = st.one_of(st.from_regex(r"[A-Za-z0-9]{1,16}", fullmatch=True), st.text(max_size=20))
CUSTOM_ID = st.builds(
    lambda verb, game, version, arg: f"stb:{verb}:{game}:{version}:{arg}",
    st.sampled_from([*VERBS, "fly"]),
    GAME,
    NUMBER,
    NUMBER,
) | st.builds(lambda rest: f"stb:{rest}", st.text(max_size=60))
games: dict[int, int] = {}  # the solo game message of each test's fake (one per test run)


async def solo_message(fake: FakeDiscord) -> int:
    if id(fake) not in games:
        opened = await fake.answered(await fake.command(ANN, "solo"))
        assert opened.original is not None
        games[id(fake)] = opened.original
    return games[id(fake)]


@FUZZ
@given(custom_id=CUSTOM_ID)
@example(custom_id="stb:review:0:0:0")
@example(custom_id="stb:board:wins:0:0")
@example(custom_id="stb:rematch:abc:1:0")
@example(custom_id="stb:tjoin:0:0:0")  # a sign-up button of no tournament
async def test_any_button_id_is_answered_privately_and_changes_nothing(
    fake: FakeDiscord, bot: ShutboxClient, redis: Redis, caplog: pytest.LogCaptureFixture,
    custom_id: str,
) -> None:  # fmt: skip
    """The player herself presses a forged button on her own game message."""
    game = await solo_message(fake)
    shown = copy.deepcopy(fake.messages[game])
    buttons(shown)[0]["custom_id"] = custom_id
    before, message = await snapshot(redis), copy.deepcopy(fake.messages[game])
    caplog.clear()
    sent = await fake.click(ANN, game, custom_id, snapshot=shown)
    answer = await fake.answered(sent)
    if custom_id.split(":")[1:2] in (["review"], ["rematch"], ["board"]):
        # Buttons of a finished match or a leaderboard page: they never act on the game, and a
        # forged one is answered as such (a review refusal, a board page); nothing changes.
        assert answer.answer is not None and await snapshot(redis) == before
    else:
        assert answer.ephemeral and answer.data["content"] == (
            "That button belongs to an earlier moment of the game; "
            "the game message now shows where it stands."
        )
        assert await snapshot(redis) == before and fake.messages[game] == message
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
