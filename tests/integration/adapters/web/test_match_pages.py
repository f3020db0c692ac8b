"""The page's matches read as chat told them (issue 32): a void match crowns nobody and says
why, and the long game shows its roles and its one box, not scores and rounds."""

from __future__ import annotations

import re

from core.game.dice import SeededDice
from core.service.api.commands import Begin, Configure, Join, Start
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.pages_helpers import SCOPE, SLUG, client
from tests.integration.adapters.web.test_pages import page
from tests.integration.manager_helpers import Clock, Table, manager

ROOT = f"/s/{SLUG}"


async def replays(store: RedisStore) -> tuple[str, list[str]]:
    """The matches list and each match's replay, newest first."""
    await store.web.open(SCOPE, SLUG)
    async with client(store) as web:
        listed = await page(web, f"{ROOT}/matches")
        ids = re.findall(rf'href="{ROOT}/match/([^"]+)"', listed)
        return listed, [await page(web, f"{ROOT}/match/{match}") for match in ids]


async def play_by_the_timer(store: RedisStore, lang: str = "en") -> None:
    """Root and Bob start a staked match and never press a button."""
    clock = Clock()
    table = Table(manager(store, dice=SeededDice(2), clock=clock))
    await table.manager.handle(table.ctx("Root", admin=True), Configure({"lang": lang}))
    options = StartOptions(stakes="pot:3", format="rounds:2", timer=30)
    await table.manager.handle(table.ctx("Root"), Start(options))
    await table.manager.handle(table.ctx("Bob"), Join())
    await table.manager.handle(table.ctx("Root"), Begin())
    while await table.manager.current(table.ctx("x")) is not None:
        clock.now += 31
        await table.manager.sweep()


async def play_long(store: RedisStore) -> None:
    """Root closes, Ann opens; with these dice Root shuts the whole box."""
    table = Table(manager(store, dice=SeededDice(2)))
    await table.manager.handle(table.ctx("Root"), Start(StartOptions(format="long")))
    await table.manager.handle(table.ctx("Ann"), Join())
    table.last = await table.manager.handle(table.ctx("Root"), Begin())
    await table.play_out()


async def test_a_void_match_crowns_nobody_and_says_why(store: RedisStore) -> None:
    await play_by_the_timer(store)
    listed, [replay] = await replays(store)
    void = "void: nobody made a move of their own, so it doesn’t count"
    assert void in listed and void in replay
    assert "🏆" not in listed and "🏆" not in replay
    assert replay.count("There is no decision of yours to grade in that match: the timer "
                        "played your turns for you.") == 2  # fmt: skip
    assert "You had no choices to make" not in replay


async def test_a_void_match_in_danish(store: RedisStore) -> None:
    await play_by_the_timer(store, "da")
    listed, [replay] = await replays(store)
    assert "ugyldig: ingen traf selv et valg, så den tæller ikke" in listed
    assert "Der er intet valg af dine at bedømme i den kamp: uret spillede dine ture for dig." in (
        replay
    )


async def test_the_long_game_shows_roles_and_its_one_box(store: RedisStore) -> None:
    """Root shuts the box: the list says who closed and who opened, the replay has no rounds
    and no scores, and after each turn the box as it then stood."""
    await play_long(store)
    listed, [replay] = await replays(store)
    assert "Root</bdi></a> closes tiles 🏆, <a" in listed and "Ann</bdi></a> opens them" in listed
    assert " 0 🏆" not in listed
    assert "The long game · 9 tiles · any combination · one die after 7-8-9 · finished" in replay
    assert "golf scoring" not in replay and "Round 1" not in replay
    boxes = re.findall(r'<code class="box">([^<]*)</code>', replay)
    assert boxes[:2] == ["| · | · | 3 | · | 5 | 6 | · | · | · |",
                         "| · | 2 | 3 | 4 | 5 | 6 | · | · | · |"]  # fmt: skip
    assert boxes[-1] == "| · | · | · | · | · | · | · | · | · |"  # Root shut the whole box
    assert len(boxes) == replay.count('<li><span class="who">')
