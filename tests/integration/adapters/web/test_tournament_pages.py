"""A server's tournaments on its page (SPEC 10, 12): the list, one tournament's standings,
rounds, tables and results with each match's replay, and once it is over the seed and the
record the verifier checks; hostile names stay text and no platform id shows."""

from __future__ import annotations

import re

from core.game.tournament.text_form import from_text
from core.game.tournament.verify import pairing_faults, published
from core.service.features.tournaments.command import OpenTable
from core.service.features.tournaments.records import load
from core.service.pipeline.subcommands import parse
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.pages_helpers import IDS, IMG, SCOPE, SCRIPT, SLUG, client
from tests.integration.adapters.web.pages_helpers import HostileTable as Hostile
from tests.integration.adapters.web.test_pages import page
from tests.integration.manager_helpers import manager
from tests.integration.test_tournament_commands import Plain

ROOT = f"/s/{SLUG}"


async def play_cup(store: RedisStore, kind: str = "swiss") -> str:
    """Two hostile names play a one-round Swiss (or a knockout) to its end; its id."""
    lobby = Hostile(manager(store))
    for user, text in (("Root", f"create Ann's cup rounds=1 kind={kind}"), (SCRIPT, "join"),
                       (IMG, "join"), ("Root", "start")):  # fmt: skip
        await lobby.manager.handle(lobby.ctx(user, admin=True), parse(f"tournament {text}",
                                                                      Plain()))  # type: ignore[arg-type]  # fmt: skip
    tournament_id = (await store.hash(SCOPE, "tours"))[lobby.channel]
    table = Hostile(manager(store), channel="c1/t1")
    table.last = await table.manager.handle(table.ctx("Root"), OpenTable(tournament_id, 1, 1))
    await table.play_out()
    return tournament_id


async def test_a_finished_tournament_shows_its_rounds_standings_and_record(
    store: RedisStore,
) -> None:
    tournament_id = await play_cup(store)
    await store.web.open(SCOPE, SLUG)
    async with client(store) as web:
        listed = await page(web, f"{ROOT}/tournaments")
        assert f'href="{ROOT}/tournament/{tournament_id}">Ann&#39;s cup</a> · over' in listed
        html = await page(web, f"{ROOT}/tournament/{tournament_id}")
        assert "<h1>Ann&#39;s cup</h1>" in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "Round 1" in html and "Standings" in html
        replay = re.search(rf'href="{ROOT}/match/([A-Za-z0-9_-]+)">replay</a>', html)
        assert replay is not None
        await page(web, f"{ROOT}/match/{replay.group(1)}")
        record = re.search(r"<pre>(U1\|[^<]+)</pre>", html)
        assert record is not None
        await page(web, f"{ROOT}/tournament/ffffffff", 404)
        await page(web, f"{ROOT}/tournament/..%2f", 404)
    stored = await load(store, SCOPE, tournament_id)
    assert stored is not None
    shown = from_text(record.group(1).replace("&amp;", "&").replace("&#39;", "'"))
    assert shown == published(stored.tournament) and pairing_faults(shown) == []
    assert [e.name for e in shown.entries] == [e.name for e in stored.tournament.entries]
    assert not any(user in html for user in IDS)


async def test_a_knockouts_standings_say_how_far_each_player_came(store: RedisStore) -> None:
    """A knockout's places have no Swiss points: the winner, and where the other went out."""
    tournament_id = await play_cup(store, "knockout")
    await store.web.open(SCOPE, SLUG)
    async with client(store) as web:
        html = await page(web, f"{ROOT}/tournament/{tournament_id}")
    assert "<th>How far</th>" in html and "Opponents" not in html
    assert "<td>🏆 winner</td>" in html
    assert re.search(r"<td>out in round 1 at table 1, score \d+( \(.+\))?</td>", html)


async def test_the_verifier_fills_in_an_ended_tournaments_record(store: RedisStore) -> None:
    """`verify?tournament=ID` puts an ended tournament's record in the box (the page's link);
    an id of no tournament, or one that is not an id, leaves it empty."""
    tournament_id = await play_cup(store)
    await store.web.open(SCOPE, SLUG)
    async with client(store) as web:
        html = await page(web, f"{ROOT}/tournament/{tournament_id}")
        assert f'href="{ROOT}/verify?tournament={tournament_id}">Check the pairings' in html
        filled = await page(web, f"{ROOT}/verify?tournament={tournament_id}")
        for wrong in ("ffffffff", "..%2f", "<b>"):
            empty = await page(web, f"{ROOT}/verify?tournament={wrong}")
            assert re.search(r'<textarea id="record"[^>]*></textarea>', empty), wrong
    found = re.search(r'<textarea id="record"[^>]*>(U1\|[^<]+)</textarea>', filled)
    assert found is not None
    stored = await load(store, SCOPE, tournament_id)
    assert stored is not None
    shown = found.group(1).replace("&amp;", "&").replace("&#39;", "'")
    assert from_text(shown) == published(stored.tournament)
