"""The in-browser tournament verifier (static/verify_tournament.js) in a real headless
Chromium: over many tournaments, Swiss and knockout, tables of 2 to 4, byes, odd fields and
repeated meetings, and over the same records tampered with (two players swapped, a wrong
seed, a wrong commitment), the page's verdict is word for word what `shutbox verify` prints."""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from aiohttp import web

from adapters.http import serving_app
from adapters.web.app import PREFIX, pages_app
from bot.commands.verify import verify_tournament
from core.game.tournament.progress import start, withdraw
from core.game.tournament.text_form import from_text, to_text
from core.game.tournament.values import Kind, Round, Status, Tournament
from core.game.tournament.verify import pairing_faults, published
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.pages_helpers import SCOPE, SLUG
from tests.integration.adapters.web.test_browser import (  # noqa: F401
    by,
    driver,
    run,
    wait_for_text,
)
from tests.integration.adapters.web.test_tournament_pages import play_cup
from tests.unit.core.game.tournament.helpers import entered, play_round, played

RECORDS = 90  # fields drawn from one seed: the same records on every run


@pytest.fixture
async def site(store: RedisStore) -> AsyncIterator[tuple[str, str]]:
    tournament_id = await play_cup(store, "knockout")
    await store.web.open(SCOPE, SLUG)
    root = web.Application()
    root.add_subapp(PREFIX, pages_app(store))
    async with serving_app(root, "127.0.0.1", 0) as port:
        yield f"http://127.0.0.1:{port}/s/{SLUG}", tournament_id


def command_line(text: str) -> str:
    """What `shutbox verify '<text>'` prints."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        verify_tournament(text, as_json=False)
    return printed.getvalue().strip()


def swapped(tournament: Tournament, rng: random.Random) -> Tournament:
    """Two players of one table swapped with two of another table (or with the bye)."""
    number = rng.randrange(len(tournament.rounds))
    round_ = tournament.rounds[number]
    seats = [list(t.seats) for t in round_.tables] + ([[round_.bye]] if round_.bye else [])
    if len(seats) < 2:
        seats[0].reverse()  # a lone table: its seating order changes
    else:
        first, second = rng.sample(range(len(seats)), 2)
        seats[first][0], seats[second][0] = seats[second][0], seats[first][0]
    tables = tuple(replace(table, seats=tuple(seats[i]), result=None)
                   for i, table in enumerate(round_.tables))  # fmt: skip
    bye = seats[-1][0] if round_.bye else ""
    rounds = list(tournament.rounds)
    rounds[number] = Round(round_.number, tables, bye)
    # results of the changed round are dropped: who won no longer matters to its own pairing
    if number == len(rounds) - 1:
        return replace(tournament, rounds=tuple(rounds))
    return replace(tournament, rounds=tuple(rounds[: number + 1]))


def met_again(tournament: Tournament) -> bool:
    """Whether two players sat at one table in more than one round."""
    pairs = [frozenset(pair) for r in tournament.rounds for t in r.tables
             for pair in combinations(t.seats, 2)]  # fmt: skip
    return len(pairs) > len(set(pairs))


def played_with_leavers(tournament: Tournament, rng: random.Random, seed: str) -> Tournament:
    """Played out, a player now and then leaving the server during a round (paired no more)."""
    tournament = start(tournament, seed)
    while tournament.status is Status.RUNNING:
        seated = tournament.current.players if tournament.current else ()
        if len(seated) > 2 and rng.random() < 0.4:
            tournament = withdraw(tournament, frozenset({rng.choice(seated)}))
        tournament = play_round(tournament, rng)
    return tournament


def records(seed: int) -> list[str]:
    """Played-out tournaments, published as their records, and some tampered with."""
    rng = random.Random(seed)
    texts = []
    for index in range(RECORDS):
        kind = Kind.KNOCKOUT if index % 3 == 0 else Kind.SWISS
        count = rng.randint(2, 17) if index % 10 else rng.randint(30, 48)
        size, rounds = rng.choice((2, 3, 4)), rng.randint(1, 10)
        key = f"{rng.getrandbits(256):064x}"
        field = entered(count, kind, size, rounds)
        final = published(played_with_leavers(field, rng, key) if index % 5 == 3 else
                          played(field, rng, key)[-1])  # fmt: skip
        texts.append(to_text(final))
        if index % 4 == 1:
            texts.append(to_text(swapped(final, rng)))
        if index % 9 == 2:
            texts.append(to_text(replace(final, seed=f"{rng.getrandbits(256):064x}")))
        if index % 9 == 5:
            texts.append(to_text(replace(final, commitment=final.commitment[::-1])))
    return texts


CHECK_ALL = """
const [texts, done] = arguments;
const form = document.getElementById("verifier");
const box = document.getElementById("record");
(async () => {
  const said = [];
  for (const text of texts) {
    box.value = text;
    await check(form);
    said.push(document.getElementById("verdict").textContent);
  }
  done(said);
})();
"""


async def test_the_page_says_what_shutbox_verify_says_over_many_tournaments(
    driver: Any,  # noqa: F811
    site: tuple[str, str],
) -> None:
    root, _ = site
    texts = records(2026)
    played_out = [from_text(text) for text in texts]
    assert any(r.bye for t in played_out for r in t.rounds)  # byes, and meetings repeated
    assert any(len(t.rounds) > 1 and met_again(t) for t in played_out)
    assert {t.settings.table_size for t in played_out} == {2, 3, 4}
    assert any(t.out for t in played_out)  # players who left the server, paired no more
    expected = [command_line(text) for text in texts]
    assert sum(line.startswith("FAILED") for line in expected) >= 20  # tampering shows
    assert sum(line.startswith("OK") for line in expected) >= RECORDS // 2
    await run(driver.get, f"{root}/verify")
    await run(driver.set_script_timeout, 120)
    said = await run(driver.execute_async_script, CHECK_ALL, texts)
    for text, page, line in zip(texts, said, expected, strict=True):
        assert page == line, text


async def test_a_finished_tournaments_page_links_to_its_checked_record(
    driver: Any,  # noqa: F811
    site: tuple[str, str],
) -> None:
    root, tournament_id = site
    await run(driver.get, f"{root}/tournament/{tournament_id}")
    await run(lambda: driver.find_element(by("LINK_TEXT"), "Check the pairings in your browser")
              .click())  # fmt: skip
    verdict = await wait_for_text(driver, "verdict")
    record = await run(lambda: driver.find_element(by("ID"), "record").get_attribute("value"))
    assert record.startswith("U1|")
    assert (
        verdict
        == command_line(record)
        == ("OK: the seed matches the commitment and all 1 rounds are the pairings it gives.")
    )
    ok = await run(lambda: driver.find_element(by("ID"), "verdict").get_attribute("data-ok"))
    assert ok == "yes"


async def test_a_paste_that_is_no_tournament_record_says_so(
    driver: Any,  # noqa: F811
    site: tuple[str, str],
) -> None:
    root, _ = site
    await run(driver.get, f"{root}/verify")
    said = await run(driver.execute_async_script, CHECK_ALL, ["U1|cup|finished|nonsense"])
    assert said == ["Not a tournament record (the U1|… text shown at its end)."]


def test_the_tampered_records_are_faults_the_pairing_check_finds() -> None:
    """The swaps the browser test makes are caught by the pairing check, not the parser."""
    rng = random.Random(3)
    final = published(played(entered(9, Kind.SWISS, 3, 4), rng, "cd" * 32)[-1])
    assert pairing_faults(final) == []
    assert pairing_faults(swapped(final, rng))
