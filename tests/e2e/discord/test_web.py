"""`/shutbox web switch:on|off|rotate` through discord.py: an admin gets the page's link
privately; anyone else is refused; the link is the store's slug."""

from __future__ import annotations

import re

from adapters.discord import ShutboxClient
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord
from tests.e2e.discord.players import ANN, MOD, SCOPE

LINK = re.compile(r"https://bot\.example/s/([A-Za-z0-9_-]{22})/")


async def test_an_admin_turns_the_page_on_rotates_it_and_turns_it_off(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager, store: RedisStore
) -> None:
    manager.public_url = "https://bot.example"
    on = await fake.answered(await fake.command(MOD, "web", switch="on"))
    assert on.ephemeral
    found = LINK.search(on.data["content"])
    assert found and await store.web.server(found.group(1)) == SCOPE
    shown = await fake.answered(await fake.command(ANN, "web"))
    assert shown.ephemeral and shown.data["content"] == f"This server's page: {found.group(0)}"
    refused = await fake.answered(await fake.command(ANN, "web", switch="off"))
    assert refused.data["content"] == "Only an admin can do that."
    rotated = await fake.answered(await fake.command(MOD, "web", switch="rotate"))
    new = LINK.search(rotated.data["content"])
    assert new and new.group(1) != found.group(1)
    assert await store.web.server(found.group(1)) is None
    off = await fake.answered(await fake.command(MOD, "web", switch="off"))
    assert off.data["content"] == "This server's page is off; its link no longer works."
    assert await store.web.server(new.group(1)) is None


async def test_without_a_public_address_the_admin_is_told_why(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    answer = await fake.answered(await fake.command(MOD, "web", switch="on"))
    assert answer.ephemeral and answer.data["content"].startswith(
        "This bot has no public address (SHUTBOX_PUBLIC_URL is not set)"
    )
