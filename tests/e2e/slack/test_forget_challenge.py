"""Black-box (issue 31): a member who began today's daily challenge in a `shutbox slack`
process and left it unfinished is erased by a `shutbox user forget` process, which leaves no
key name or value holding their id, and the ledger verifies."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from redis.asyncio import Redis

from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack
from tests.e2e.slack.test_backup_during_play import shutbox
from tests.e2e.slack.test_cli import Served, served
from tests.integration.test_member_data import everything

__all__ = ["served"]  # the process fixture, shared with test_cli.py

SERVER = f"slack:{TEAM}"


async def test_forget_erases_a_member_with_an_unfinished_challenge(
    served: Served, fake: FakeSlack, redis: Redis, redis_url: str, tmp_path: Path
) -> None:
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, f"{served.url}/slack/events", fake)
        assert "25" in await slack.say("UBOB", "give <@UCID|cid> 25")
        sent = await slack.command("UBOB", "challenge")
        screen = await fake.reply(sent.key)
        assert screen.body["blocks"], screen.body  # the attempt is open, not played
    assert [k async for k in redis.scan_iter(match=f"stb:{{{SERVER}}}:game:challenge:*:UBOB")]

    code, out, err = await shutbox(tmp_path, redis_url, "user", "forget", "--server", SERVER,
                                   "--user", "UBOB", "--by", "ops")  # fmt: skip
    assert (code, err) == (0, ""), err
    assert out.startswith(f"Erased UBOB on {SERVER}: 75 chips back to the mint, ")
    assert [kv for kv in await everything(redis) if "UBOB" in kv[1]] == []
    code, out, err = await shutbox(tmp_path, redis_url, "ledger", "verify")
    assert (code, err) == (0, "") and out.startswith(f"{SERVER}: OK — "), out
