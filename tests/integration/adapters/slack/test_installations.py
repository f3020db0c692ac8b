"""Slack installations and OAuth states kept in Redis (SPEC 8: many workspaces)."""

from __future__ import annotations

from redis.asyncio import Redis
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation

from adapters.slack.installations import RedisInstallationStore, RedisOAuthStateStore


def installation(user: str = "U1", token: str = "xoxb-1", team: str = "T1") -> Installation:
    return Installation(
        app_id="A1", team_id=team, team_name="Team", user_id=user, bot_token=token,
        bot_id="B1", bot_user_id="UBOT", bot_scopes="commands,chat:write",
    )  # fmt: skip


async def test_a_saved_installation_is_found_with_its_bot(redis: Redis) -> None:
    """What was saved comes back: the bot per workspace, the installation per user."""
    store = RedisInstallationStore(redis)
    await store.async_save(installation())
    bot = await store.async_find_bot(enterprise_id=None, team_id="T1")
    assert bot is not None and bot.bot_token == "xoxb-1"
    assert bot.bot_scopes == ["commands", "chat:write"]
    found = await store.async_find_installation(enterprise_id=None, team_id="T1", user_id="U1")
    assert found is not None and found.user_id == "U1" and found.team_name == "Team"
    assert await store.async_find_bot(enterprise_id=None, team_id="T9") is None
    assert sorted(await redis.keys("stb:slack:install:*")) == [
        "stb:slack:install:{none-T1}:bot", "stb:slack:install:{none-T1}:installer",
        "stb:slack:install:{none-T1}:installer:U1", "stb:slack:install:{none-T1}:users",
    ]  # fmt: skip


async def test_a_reinstall_gives_older_installations_the_new_token(redis: Redis) -> None:
    """Bob reinstalls with a new token: Ann's installation now carries it too."""
    store = RedisInstallationStore(redis)
    await store.async_save(installation("UANN", "xoxb-old"))
    await store.async_save(installation("UBOB", "xoxb-new"))
    ann = await store.async_find_installation(enterprise_id=None, team_id="T1", user_id="UANN")
    assert ann is not None and ann.bot_token == "xoxb-new"


async def test_uninstalling_deletes_everything_of_the_workspace(redis: Redis) -> None:
    """async_delete_all (bolt calls it on app_uninstalled) leaves no key of that workspace."""
    store = RedisInstallationStore(redis)
    await store.async_save(installation("UANN"))
    await store.async_save(installation("UBOB"))
    await store.async_save(installation("UCID", team="T2"))
    await store.async_delete_all(enterprise_id=None, team_id="T1")
    assert await store.async_find_bot(enterprise_id=None, team_id="T1") is None
    assert await redis.keys("stb:slack:install:{none-T1}:*") == []
    assert await store.async_find_bot(enterprise_id=None, team_id="T2") is not None


async def test_an_org_wide_install_is_found_for_any_team(redis: Redis) -> None:
    """An Enterprise Grid org install is stored for the organisation, not one team."""
    store = RedisInstallationStore(redis)
    await store.async_save_bot(Bot(enterprise_id="E1", team_id=None, bot_token="xoxb-org",
                                   bot_id="B1", bot_user_id="UBOT", installed_at=1.0,
                                   is_enterprise_install=True))  # fmt: skip
    bot = await store.async_find_bot(enterprise_id="E1", team_id="T5", is_enterprise_install=True)
    assert bot is not None and bot.bot_token == "xoxb-org"


async def test_an_oauth_state_is_used_once(redis: Redis) -> None:
    """An issued state is accepted once; a replay or an unknown state is refused."""
    states = RedisOAuthStateStore(redis, expiration_seconds=60)
    state = await states.async_issue()
    assert 0 < await redis.ttl(f"stb:slack:state:{state}") <= 60
    assert await states.async_consume(state) is True
    assert await states.async_consume(state) is False
    assert await states.async_consume("made-up") is False
