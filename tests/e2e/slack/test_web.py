"""`/shutbox web [on|off|rotate]` through slack-bolt: the link privately, admins only, and one
line for a word it does not know."""

from __future__ import annotations

import re

from core.service.model.commit import Scope
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import TEAM, Driver

SCOPE = Scope("slack", TEAM)
LINK = re.compile(r"https://bot\.example/pages/s/([A-Za-z0-9_-]{22})/")


async def test_an_admin_opens_and_closes_the_page(slack: Driver, manager: GameManager) -> None:
    manager.public_url = "https://bot.example/pages/"
    assert await slack.say("UBOB", "web on") == "Only an admin can do that."
    on = await slack.say("UANN", "web on")
    found = LINK.search(on)
    assert found and await manager.store.web.server(found.group(1)) == SCOPE
    assert await slack.say("UBOB", "web") == f"This server's page: {found.group(0)}"
    assert await slack.say("UANN", "web sideways") == (
        "`web` takes no action called “sideways”. Actions: on, off, rotate."
    )
    assert await slack.say("UANN", "web off") == (
        "This server's page is off; its link no longer works."
    )
    assert await manager.store.web.server(found.group(1)) is None
