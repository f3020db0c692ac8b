"""The servers' pages through aiohttp's test client, on a real Redis: every page escapes
hostile display names, shows no platform id, and carries the safety headers."""

from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient

from adapters.web.guard import Buckets
from core.game.dice import MatchRecord, verify_record
from core.service.features.challenge.day import day_of
from core.service.features.economy import BOARDS
from core.service.model.commit import Commit, OpKind, Scope, StoreOp
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.pages_helpers import (
    IDS,
    IMG,
    NOW,
    SCOPE,
    SCRIPT,
    SLUG,
    client,
    play_hostile_match,
    seed_boards,
    seed_challenge,
)

ROOT = f"/s/{SLUG}"
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)


def assert_safe(response_headers: object, html: str) -> None:
    headers = dict(response_headers)  # type: ignore[call-overload]
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "noindex" in headers["X-Robots-Tag"]
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "Set-Cookie" not in headers
    assert headers["Cache-Control"] == "private, max-age=30"
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert SCRIPT not in html and IMG not in html  # the raw names never appear
    assert "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
    assert not INLINE_SCRIPT.search(html)
    for user in IDS:
        assert user not in html  # display names only


async def page(web: TestClient, path: str, status: int = 200) -> str:
    response = await web.get(path)
    html = await response.text()
    assert response.status == status, html
    if status == 200:
        assert_safe(response.headers, html)
    return html


@pytest.fixture
async def opened(store: RedisStore) -> RedisStore:
    await seed_boards(store)
    await store.web.open(SCOPE, SLUG)
    return store


async def test_the_board_shows_hostile_names_as_text(opened: RedisStore) -> None:
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    assert "Ann &amp; Bob&#39;s" in html
    assert html.index("Ann &amp;") < html.index("&#34;&gt;&lt;img")  # most wins first


@pytest.mark.parametrize("board", BOARDS)
async def test_every_board_has_a_page(opened: RedisStore, board: str) -> None:
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/board/{board}")
    assert 'aria-current="page"' in html


async def test_a_player_page_is_reached_from_the_board(opened: RedisStore) -> None:
    async with client(opened) as web:
        board = await page(web, f"{ROOT}/board/wins")
        links = re.findall(rf'href="{ROOT}/player/([0-9a-f]{{16}})"', board)
        assert len(links) == 3
        html = await page(web, f"{ROOT}/player/{links[-1]}")  # the last: fewest wins
        assert "<h1><bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi></h1>" in html
        assert "Matches: 4 played, 1 won" in html
        assert "🏆 Most matches won" in html and "3 of 3" in html
        await page(web, f"{ROOT}/player/{'0' * 16}", 404)
        await page(web, f"{ROOT}/player/u-script-1001", 404)


async def test_boards_are_paged(store: RedisStore) -> None:
    await seed_boards(store, players=30)
    await store.web.open(SCOPE, SLUG)
    async with client(store) as web:
        first = await page(web, f"{ROOT}/board/wins")
        second = await page(web, f"{ROOT}/board/wins?page=2")
    assert "Page 1 of 2" in first and f'href="{ROOT}/board/wins?page=2"' in first
    assert "Player 29" in first and "Player 04" not in first
    assert '<td class="rank">26</td>' in second and "Player 04" in second
    assert "Page 2 of 2" in second and "Next" not in second


async def test_an_ended_season_keeps_its_board(opened: RedisStore) -> None:
    await opened.seasons.current(SCOPE, int(NOW))
    await opened.seasons.end(SCOPE, 1, int(NOW), "req-1", reset_chips=False)
    async with client(opened) as web:
        now = await page(web, f"{ROOT}/board/wins")
        ended = await page(web, f"{ROOT}/board/wins?season=1")
        await page(web, f"{ROOT}/board/wins?season=2", 404)  # the current one is not archived
        await page(web, f"{ROOT}/board/chips?season=1", 404)  # chips are never archived
    assert "Season 2 (current)" in now and f'href="{ROOT}/board/wins?season=1"' in now
    assert "Nobody on this board yet." in now
    assert "&lt;script&gt;" in ended and "Season 1 (ended)" in ended


@pytest.mark.parametrize(
    "path",
    [f"/s/{'x' * 22}/", "/s/nope/", f"{ROOT}/board/nope", f"{ROOT}/nothing", "/s/", "/s/static/x"],
)
async def test_a_wrong_address_is_a_plain_404(opened: RedisStore, path: str) -> None:
    async with client(opened) as web:
        response = await web.get(path)
        body = await response.text()
    assert response.status == 404
    assert body == "404: Not Found\n"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"


async def test_off_and_rotate_close_the_old_link_at_once(opened: RedisStore) -> None:
    async with client(opened) as web:
        await page(web, f"{ROOT}/")
        await opened.web.open(SCOPE, "NewSlugNewSlugNewSlug0")
        assert await (await web.get(f"{ROOT}/")).text() == "404: Not Found\n"
        await page(web, "/s/NewSlugNewSlugNewSlug0/")
        await opened.web.close(SCOPE)
        await page(web, "/s/NewSlugNewSlugNewSlug0/", 404)


async def test_a_server_page_shows_nothing_of_another(opened: RedisStore) -> None:
    other = Scope("test", "other")
    await opened.commit(Commit(other, ops=(
        StoreOp(OpKind.HSET, "names", "u-zed", "Zed Elsewhere"),
        StoreOp(OpKind.ZINCRBY, "lb:wins", "u-zed", 50),
    )))  # fmt: skip
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/board/wins")
    assert "Zed Elsewhere" not in html


BAD_QUERIES = ["page=0", "page=x", "season=-1", "season=1e3", "page=99999", "page=²",
               "season=¹", "page=①", "page=٣", "page=" + "9" * 5000]  # fmt: skip


@pytest.mark.parametrize("query", BAD_QUERIES)
@pytest.mark.parametrize("path", ["/board/wins", "/matches", "/verify"])
async def test_a_bad_query_is_a_400_with_the_safety_headers(
    opened: RedisStore, query: str, path: str
) -> None:
    """Odd digits too: "²" and "①" pass str.isdigit() but not int()."""
    # each page's own parameters: the verifier's challenge number, the list's page
    query = query.replace("season=", "challenge=" if path == "/verify" else "season=")
    query = query.replace("season=", "page=") if path == "/matches" else query
    query = query.replace("page=", "challenge=") if path == "/verify" else query
    async with client(opened) as web:
        response = await web.get(f"{ROOT}{path}?{query}")
        assert response.status == 400
        assert await response.text() == "400: Bad Request\n"
        assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert response.headers["X-Frame-Options"] == "DENY"


async def test_the_challenge_page_hides_todays_dice_and_results(opened: RedisStore) -> None:
    """Today: how many have played, no result (no one sees one before playing), no dice;
    yesterday: its board and its dice."""
    secret = await seed_challenge(opened, NOW)
    today = day_of(NOW)
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/challenge")
        verify = await page(web, f"{ROOT}/verify?challenge=1")
        empty = await page(web, f"{ROOT}/verify?challenge=2")
    assert "Daily challenge #2" in html
    assert "1 member has finished today’s challenge." in html and "5 left" not in html
    assert "Challenge #1: its results" in html
    assert "&#34;&gt;&lt;img" in html and "2 left" in html
    assert html.index("Ann &amp; Bob") < html.index("&#34;&gt;&lt;img")  # 0 left ranks first
    assert "&lt;script&gt;" not in html  # an unfinished attempt is no result
    assert f'href="{ROOT}/verify?challenge=1"' in html
    from core.service.features.challenge.day import Day

    day = Day(SCOPE, today, 2, secret)
    assert day.seed not in html and day.seed not in verify  # today's seed stays secret
    assert day.commitment in html
    yesterday = day.previous()
    assert yesterday is not None and yesterday.seed in verify
    record = re.search(r'<textarea id="record"[^>]*>([^<]*)</textarea>', verify)
    assert record is not None
    text = record.group(1).replace("&#34;", '"')
    assert verify_record(MatchRecord.from_json(text)).ok
    assert (
        '<textarea id="record" name="record" rows="6" spellcheck="false" autocomplete="off">'
        "</textarea>" in empty
    )


async def test_a_server_without_a_challenge_says_so(opened: RedisStore) -> None:
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/challenge")
    assert "This server has had no daily challenge yet." in html


async def test_the_verifier_loads_its_script_from_a_file(opened: RedisStore) -> None:
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/verify")
        script = await web.get("/s/static/verify.js")
        style = await web.get("/s/static/style.css")
        assert script.status == 200 and style.status == 200
        assert script.headers["Content-Type"].startswith("text/javascript")
        assert style.headers["Content-Type"].startswith("text/css")
        assert script.headers["X-Content-Type-Options"] == "nosniff"
        assert "crypto.subtle" in await script.text()
    assert '<script src="/s/static/verify.js" defer></script>' in html
    assert 'data-ok="OK: the server seed matches the commitment and all {count} rolls' in html


async def test_the_tournament_verifier_is_a_file_of_its_own_sent_safely(
    opened: RedisStore,
) -> None:
    """verify_tournament.js: served like verify.js, loaded before it, its texts translated."""
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/verify")
        script = await web.get("/s/static/verify_tournament.js")
        assert script.status == 200
        assert script.headers["Content-Type"].startswith("text/javascript")
        assert script.headers["X-Content-Type-Options"] == "nosniff"
        assert "script-src 'self'" in script.headers["Content-Security-Policy"]
        assert "ShutboxTournament" in await script.text()
    assert html.index("/s/static/verify_tournament.js") < html.index("/s/static/verify.js")
    assert 'data-tournament-round="round {round} is not the pairing its seed gives"' in html


async def test_an_address_over_its_limit_gets_429(opened: RedisStore) -> None:
    buckets = Buckets(rate=0.001, burst=3)
    async with client(opened, buckets) as web:
        statuses = [(await web.get(f"{ROOT}/")).status for _ in range(5)]
        limited = await web.get(f"{ROOT}/")
        assert limited.headers["Retry-After"] == "30"
    assert statuses == [200, 200, 200, 429, 429]


async def test_matches_list_and_replay_every_turn_with_its_review(opened: RedisStore) -> None:
    await play_hostile_match(opened)
    from core.service.features.history import KEY, Match

    [entry] = [Match.from_json(text) for text in await opened.newest(SCOPE, KEY, 10)]
    assert entry is not None
    async with client(opened) as web:
        listed = await page(web, f"{ROOT}/matches")
        assert f'href="{ROOT}/match/{entry.id}"' in listed
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in listed and "&#34;&gt;&lt;img" in listed
        html = await page(web, f"{ROOT}/match/{entry.id}")
        verify = await page(web, f"{ROOT}/verify?match={entry.id}")
        tokens = re.findall(rf'href="{ROOT}/player/([0-9a-f]{{16}})"', html)
        player = await page(web, f"{ROOT}/player/{tokens[0]}")
        await page(web, f"{ROOT}/match/nosuchmatch", 404)
        await page(web, f"{ROOT}/match/{'x' * 65}", 404)
    assert html.count('<li><span class="who">') == len(entry.log) > 0
    assert html.count('<code class="box">|') == len(entry.log)  # the box after each turn
    assert "Every decision against perfect play" in html and "Accuracy" in html
    assert f'href="{ROOT}/verify?match={entry.id}"' in html
    assert f'href="{ROOT}/match/{entry.id}"' in player
    record = re.search(r'<textarea id="record"[^>]*>([^<]*)</textarea>', verify)
    assert record is not None
    fair = MatchRecord.from_json(record.group(1).replace("&#34;", '"'))
    assert verify_record(fair).ok and fair.to_json() == entry.fair


async def test_no_matches_yet_says_so(opened: RedisStore) -> None:
    async with client(opened) as web:
        html = await page(web, f"{ROOT}/matches")
    assert "No match has ended here yet." in html


async def test_a_player_page_draws_the_rating_over_time(opened: RedisStore) -> None:
    await play_hostile_match(opened)
    await play_hostile_match(opened)
    from core.service.features.history import KEY, Match

    entries = [Match.from_json(text) for text in await opened.newest(SCOPE, KEY, 10)]
    mine = [p.rating for e in reversed(entries) if e for p in e.players if p.name == SCRIPT]
    assert len(mine) == 2 and all(mine)
    async with client(opened) as web:
        board = await page(web, f"{ROOT}/board/wins")
        token = re.search(rf'href="{ROOT}/player/([0-9a-f]{{16}})"><bdi>&lt;script', board)
        assert token is not None
        html = await page(web, f"{ROOT}/player/{token.group(1)}")
    assert "Rating over time" in html and "<polyline points=" in html
    assert f"{mine[0]:,} on " in html and f"→ {mine[1]:,} on " in html
    assert html.count('<a href="' + ROOT + "/match/") == 2
