"""Many workspaces: Slack's OAuth install flow stores the installation in Redis, and the new
workspace plays with its own bot token (SPEC 8)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import aiohttp
import pytest
from redis.asyncio import Redis

from adapters.slack.app import SlackConfig, build_app
from adapters.slack.server import serving_http
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import SECRET, Driver
from tests.e2e.slack.fake_slack import FakeSlack

INSTALLED_TEAM = "T0002"
INSTALLED_TOKEN = "xoxb-installed"
COOKIE = "slack-app-oauth-state"


@pytest.fixture
async def base_url(manager: GameManager, fake: FakeSlack, redis: Redis) -> AsyncIterator[str]:
    """The app in OAuth mode (client id and secret, no bot token), on a free port."""
    fake.tokens[INSTALLED_TOKEN] = INSTALLED_TEAM
    config = SlackConfig(signing_secret=SECRET, client_id="111.222", client_secret="shh",
                         api_url=fake.api_url)  # fmt: skip
    async with serving_http(build_app(manager, config, redis), "127.0.0.1", 0) as port:
        yield f"http://127.0.0.1:{port}"


async def install(http: aiohttp.ClientSession, base_url: str, code: str = "good-code") -> int:
    """A browser visits /slack/install, then Slack redirects it back with a code and the state."""
    async with http.get(f"{base_url}/slack/install") as page:
        assert page.status == 200
        html = await page.text()
        cookie = page.headers["Set-Cookie"]
    state = re.search(r"state=([\w-]+)", html)
    assert state and "scope=commands,chat:write,chat:write.public,users:read" in html
    assert f"{COOKIE}={state.group(1)}" in cookie
    url = f"{base_url}/slack/oauth_redirect?code={code}&state={state.group(1)}"
    async with http.get(url, headers={"Cookie": f"{COOKIE}={state.group(1)}"}) as done:
        return done.status


async def test_an_install_round_trip_stores_the_workspace_in_redis(
    base_url: str, fake: FakeSlack, redis: Redis
) -> None:
    """/slack/install, Slack's redirect with a code, oauth.v2.access: the bot token is in Redis
    under stb:slack:install:..., and the state cannot be used twice."""
    async with aiohttp.ClientSession() as http:
        assert await install(http, base_url) == 200
    access = fake.called("oauth.v2.access")
    assert len(access) == 1 and access[0].params["code"] == "good-code"
    stored = json.loads(await redis.get(f"stb:slack:install:{{none-{INSTALLED_TEAM}}}:bot") or "{}")
    assert stored["bot_token"] == INSTALLED_TOKEN and stored["team_id"] == INSTALLED_TEAM
    assert await redis.get(f"stb:slack:install:{{none-{INSTALLED_TEAM}}}:installer:UANN")
    assert not [key async for key in redis.scan_iter("stb:slack:state:*")]


async def test_a_bad_code_installs_nothing(base_url: str, redis: Redis) -> None:
    """Slack refuses the code: no installation is stored."""
    async with aiohttp.ClientSession() as http:
        assert await install(http, base_url, code="stolen") != 200
    assert not [key async for key in redis.scan_iter("stb:slack:install:*")]


async def test_the_installed_workspace_plays_with_its_own_token(
    base_url: str, fake: FakeSlack
) -> None:
    """After the install, a signed /shutbox solo from that workspace posts a game with the
    workspace's bot token."""
    async with aiohttp.ClientSession() as http:
        assert await install(http, base_url) == 200
        slack = Driver(http, f"{base_url}/slack/events", fake, team=INSTALLED_TEAM)
        assert (await slack.command("UANN", "solo")).status == 200
        posted = await fake.wait_for(lambda: fake.called("chat.postMessage"))
    assert posted[0].token == INSTALLED_TOKEN
