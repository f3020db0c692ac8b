"""Black-box: a `shutbox slack` process whose Redis holds one game it can't read goes on
timing out the workspace's other games; that channel answers one clear line, an admin's
`stop` clears it, and the process counts and logs it once (issue 31)."""

from __future__ import annotations

import aiohttp
from redis.asyncio import Redis

from core.text.i18n import t
from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message
from tests.e2e.slack.test_cli import Served, counter_total, served

__all__ = ["served"]  # the process fixture, shared with test_cli.py

TIMER = 10  # the shortest turn timer there is: the process's own sweep, in real time
WAIT = TIMER + 20.0


async def solo(slack: Driver, fake: FakeSlack, user: str, channel: str) -> Message:
    """A new solo game's message in `channel` (not one posted there before)."""
    before = fake.game_messages(channel)
    assert (await slack.command(user, f"solo timer={TIMER}", channel=channel)).status == 200
    found: list[Message] = await fake.wait_for(
        lambda: [m for m in fake.game_messages(channel) if m not in before]
    )
    return found[0]


async def test_a_game_that_cant_be_read_does_not_stop_another_games_timer(
    served: Served, fake: FakeSlack, redis: Redis
) -> None:
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, f"{served.url}/slack/events", fake)
        bad = await solo(slack, fake, "UANN", "CBAD")
        good = await solo(slack, fake, "UBOB", "CGOOD")
        await redis.hset(f"stb:{{slack:{TEAM}}}:game:CBAD", "r", "garbage")

        # Both deadlines pass; the good game's timeout is played, on its message.
        await fake.wait_for(lambda: "(auto)" in good.body, seconds=WAIT)
        assert "(auto)" not in bad.body
        assert await slack.say("UCID", "join", channel="CBAD") == t("en", "error.unreadable.game")
        assert await slack.say("UANN", "stop", channel="CBAD") == t("en", "stop.unreadable")
        assert not await redis.exists(f"stb:{{slack:{TEAM}}}:game:CBAD")
        again = await solo(slack, fake, "UANN", "CBAD")  # the channel plays again
        assert again is not bad and again.playing
        counted = await counter_total(http, served.health, "shutbox_unreadable_records")
    logged = served.log.read_text()  # the process exits 0 (the fixture checks) after this
    assert counted == 1
    assert logged.count("unreadable game record") == 1, logged
    assert "deadline sweep failed" not in logged and "Traceback" not in logged, logged
