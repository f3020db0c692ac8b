"""Slack failing after the commit: retried the platform's way, told truthfully, caught up.

The fake Slack answers chosen calls with a 429 and its Retry-After, a 5xx, a stall longer
than the client waits, or a dropped connection. A move that Redis applied is never reported
as "nothing changed", and the game message catches up through the deadline sweep.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import socket
import urllib.parse
from collections.abc import AsyncIterator

import aiohttp
import pytest

from adapters.slack.app import SlackBot, SlackConfig, build_app
from adapters.slack.server import serving_http
from bot.runtime import sweeping
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import CHANNEL, SECRET, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Fault, Message

SCOPE = Scope("slack", TEAM)
APPLIED = "Your move was applied, but Slack didn’t let the game message update; it will catch up."
WENT_THROUGH = "That went through, but Slack didn’t let the game message update; it will catch up."


class Failures(list[tuple[str, str]]):
    """The failed calls the app reported, with an event set on each."""

    def __init__(self) -> None:
        super().__init__()
        self.reported = asyncio.Event()

    def add(self, call: str, reason: str) -> None:
        self.append((call, reason))
        self.reported.set()


@pytest.fixture
def failures() -> Failures:
    return Failures()


@pytest.fixture
def bot(manager: GameManager, fake: FakeSlack, failures: Failures) -> SlackBot:
    """The app with a 1 s call timeout, its failed calls collected in `failures`."""
    config = SlackConfig(signing_secret=SECRET, bot_token="xoxb-test", api_url=fake.api_url,
                         timeout=1)  # fmt: skip
    return build_app(manager, config, report=failures.add)


@pytest.fixture
async def slack(bot: SlackBot, fake: FakeSlack) -> AsyncIterator[Driver]:
    async with serving_http(bot, "127.0.0.1", 0) as port, aiohttp.ClientSession() as session:
        yield Driver(session, f"http://127.0.0.1:{port}/slack/events", fake)


async def solo(slack: Driver, fake: FakeSlack) -> Message:
    await slack.command("UANN", "solo")
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    return found[0]


async def version(manager: GameManager) -> int:
    manager.games.clear()  # read Redis, not this process's copy
    record = await manager.current(Context(SCOPE, CHANNEL, "watcher", "Watcher"))
    assert record is not None
    return record.version


def shows(message: Message, at: int) -> bool:
    """Whether the message's buttons are those of the game at version `at`."""
    versions = {str(b["action_id"]).split(":")[3] for b in message.playing}
    return versions == {str(at)}


async def test_a_short_rate_limit_is_waited_out_and_nobody_is_told(
    slack: Driver, fake: FakeSlack, manager: GameManager, failures: list[tuple[str, str]]
) -> None:
    """chat.update answers 429 with Retry-After: 1 once: the update is sent again after it."""
    game = await solo(slack, fake)
    fake.fail("chat.update", Fault.rate_limited(1))
    await slack.press("UANN", game, game.button("Roll"))
    assert len(fake.called("chat.update")) == 2
    assert shows(game, await version(manager))
    assert failures == []


@pytest.mark.parametrize(
    ("faults", "reason"),
    [
        ((Fault.rate_limited(1),) * 3, "ratelimited"),
        ((Fault.rate_limited(60),), "ratelimited"),  # too long to wait inside a click
        ((Fault(status=503),) * 2, "http_503"),
        ((Fault(status=500),) * 2, "http_500"),
        ((Fault(stall=2.0),), "timeout"),
        ((Fault(reset=True),) * 2, "connection"),
        ((Fault(error="channel_not_found"),), "channel_not_found"),
    ],
    ids=["429-persisting", "429-long", "503", "500", "timeout", "reset", "channel_not_found"],
)
async def test_a_failed_update_after_the_commit_says_the_move_was_applied(
    slack: Driver, fake: FakeSlack, manager: GameManager, bot: SlackBot,
    failures: list[tuple[str, str]], faults: tuple[Fault, ...], reason: str,
) -> None:  # fmt: skip
    """The roll is committed, chat.update keeps failing: the player hears the truth, the
    failure is counted, and the sweep brings the message up to the game as stored."""
    game = await solo(slack, fake)
    before = await version(manager)
    fake.fail("chat.update", *faults)
    sent = await slack.click("UANN", game, game.button("Roll"))
    assert (await fake.reply(sent.key)).text == APPLIED
    assert failures == [("chat.update", reason)]
    now = await version(manager)
    assert now == before + 1  # the move is in Redis, once
    assert not shows(game, now)
    async with sweeping(manager, "slack", bot.on_timeout, every=0.1):
        await fake.wait_for(lambda: shows(game, now))


async def test_a_game_slack_would_not_post_is_posted_by_the_catch_up(
    slack: Driver, fake: FakeSlack, manager: GameManager, bot: SlackBot,
    failures: list[tuple[str, str]],
) -> None:  # fmt: skip
    """/shutbox solo is committed but chat.postMessage fails twice with 503: the player is
    told it went through, and the sweep posts the game message once."""
    fake.fail("chat.postMessage", Fault(status=503), Fault(status=503))
    sent = await slack.command("UANN", "solo")
    assert (await fake.reply(sent.key)).text == WENT_THROUGH
    assert failures == [("chat.postMessage", "http_503")]
    assert fake.game_messages(CHANNEL) == []
    async with sweeping(manager, "slack", bot.on_timeout, every=0.1):
        found = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    assert len(found) == 1 and shows(found[0], await version(manager))


async def test_a_refused_click_whose_refresh_fails_is_not_called_applied(
    slack: Driver, fake: FakeSlack, failures: list[tuple[str, str]]
) -> None:
    """An outdated Roll is refused and the refresh of the message fails: the player hears the
    refusal and that the message will catch up, never that a move was applied."""
    game = await solo(slack, fake)
    before = copy.deepcopy(game)
    await slack.press("UANN", game, game.button("Roll"))
    fake.fail("chat.update", Fault(status=503), Fault(status=503))
    sent = await slack.click("UANN", before, before.button("Roll"))
    assert (await fake.reply(sent.key)).text == (
        "That button belongs to an earlier moment of the game; the game message now shows "
        "where it stands.\nSlack didn’t let the game message update just now; it will catch up."
    )
    assert failures == [("chat.update", "http_503")]


async def test_a_private_answer_slack_refuses_is_counted(
    slack: Driver, fake: FakeSlack, failures: Failures
) -> None:
    """The response_url answers 503 twice: the failure is counted by call and reason."""
    fake.fail("response_url", Fault(status=503), Fault(status=503))
    await slack.command("UANN", "balance")
    async with asyncio.timeout(10):
        await failures.reported.wait()
    assert failures == [("response_url", "http_503")]
    assert fake.responses == []


async def test_an_unreachable_web_api_after_the_commit_says_the_move_was_applied(
    slack: Driver, fake: FakeSlack, manager: GameManager, bot: SlackBot, failures: Failures
) -> None:
    """The Web API stops answering at all (connection refused) after the game was posted:
    the click still commits, and its response_url says so."""
    game = await solo(slack, fake)
    before = await version(manager)
    bot.app.client.base_url = closed_url()  # each request's client is made from this one
    sent = await slack.click("UANN", game, game.button("Roll"))
    assert (await fake.reply(sent.key)).text == APPLIED
    assert failures == [("chat.update", "unreachable")]
    assert await version(manager) == before + 1


def closed_url() -> str:
    """An address nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/api/"


async def test_a_click_without_a_response_url_logs_one_warning_and_no_traceback(
    slack: Driver, fake: FakeSlack, manager: GameManager, failures: Failures,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    """A signed block_actions sent as JSON with no response_url: the click applies, the game
    message is edited, and the private answer that has nowhere to go is one warning line."""
    import json as jsonlib

    from tests.e2e.slack.driver import signed_headers

    game = await solo(slack, fake)
    before = await version(manager)
    bob_roll = game.button("Roll")
    body = jsonlib.loads(
        urllib.parse.parse_qs(slack.click_body("UBOB", game, bob_roll, key="k", action_ts="1.2"))[
            "payload"][0]
    )  # fmt: skip
    del body["response_url"]
    raw = jsonlib.dumps(body)
    headers = signed_headers(raw) | {"Content-Type": "application/json"}
    with caplog.at_level(logging.INFO):
        status, _ = await slack.post(raw, headers=headers)
        async with asyncio.timeout(10):
            await failures.reported.wait()
    assert status == 200
    assert failures == [("response_url", "missing")]  # Bob was told it is not his turn
    assert await version(manager) == before
    assert not [record for record in caplog.records if record.exc_info]
