"""`/shutbox tournament` through the manager and the typed grammar (SPEC 12): what the
channel is told at each step, and one clear line for each bad input."""

from __future__ import annotations

import re

import pytest

from core.game.errors import ShutboxError
from core.service.api.commands import Click
from core.service.model.views import Reply
from core.service.pipeline.subcommands import parse
from core.store.redis_store import RedisStore
from core.text.i18n import t
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager


class Plain:
    one_word = False

    def find(self, text: str) -> None:
        return None


async def say(table: Table, user: str, text: str, *, admin: bool = False) -> Reply:
    command = parse(f"tournament {text}", Plain())  # type: ignore[arg-type]
    return await table.manager.handle(table.ctx(user, admin=admin), command)


async def refused(table: Table, user: str, text: str, *, admin: bool = False) -> str:
    try:
        reply = await say(table, user, text, admin=admin)
    except ShutboxError as error:
        return t("en", error.key, **error.params)
    assert reply.private, reply
    return reply.private


async def test_a_tournament_from_sign_up_to_round_one_as_the_channel_reads_it(
    store: RedisStore,
) -> None:
    table = Table(manager(store, clock=Clock()))
    made = await say(table, "Root", "create Friday cup kind=swiss rounds=3 table=3 fee=10",
                     admin=True)  # fmt: skip
    assert made.public[0].splitlines()[:2] == [
        "🏆 **Friday cup** — sign up with `/shutbox tournament join`",
        "Swiss, 3 rounds · tables of up to 3 · each match: 1 round",
    ]
    for name in ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"):
        joined = await say(table, name, "join")
    assert joined.public == ("Gus joined **Friday cup** (7 players).",)
    reply = await say(table, "Root", "start", admin=True)
    assert [(c.round, c.table, c.channel) for c in reply.tables] == [(1, 1, "c1"), (1, 2, "c1")]
    assert reply.tables[0].title.startswith("Friday cup · round 1 · table 1: ")
    started = reply.public[0].splitlines()
    assert re.fullmatch(r"🏆 \*\*Friday cup\*\* has started with 7 players; the pot is 70 "
                        r"chips\. Pairing seed commitment \(SHA-256\): `[0-9a-f]{64}`",
                        started[0])  # fmt: skip
    assert started[1] == "**Friday cup** — round 1:"
    assert [line.split(":")[0] for line in started[2:]] == ["Table 1", "Table 2",
                                                            "Bye (counts as a win)"]  # fmt: skip
    balances = await store.balances(SCOPE, ["ann", "pot:tour:" + "x"])
    assert balances["ann"] == 90
    shown = (await say(table, "Ann", "")).public[0].splitlines()
    assert shown[0] == "**Friday cup** — standings after 0 rounds:"
    assert len(shown) == 1 + 7 + 1
    assert (await store.verify_ledger(SCOPE)).ok


async def test_cancel_pays_every_fee_back_and_frees_the_channel(store: RedisStore) -> None:
    table = Table(manager(store, clock=Clock()))
    await say(table, "Root", "create Cup fee=5", admin=True)
    await say(table, "Ann", "join")
    await say(table, "Bob", "join")
    await say(table, "Root", "start", admin=True)
    cancelled = await say(table, "Root", "cancel", admin=True)
    assert cancelled.public == ("**Cup** is cancelled: every entry fee went back.",)
    assert await store.balances(SCOPE, ["ann", "bob"]) == {"ann": 100, "bob": 100}
    assert (await say(table, "Root", "create Next", admin=True)).public


@pytest.mark.parametrize(
    ("text", "admin", "said"),
    [
        ("create Cup", False, "Only an admin can do that."),
        ("create Cup start=2020-01-01T10:00", True,
         "The start time must be a UTC time that is still to come."),
        ("create Cup start=tomorrow", True,
         "Write the start as now, YYYY-MM-DDTHH:MM (a UTC time), not tomorrow."),
        ("create Cup fee=2000000", True,
         "The entry fee must be 0 to 1,000,000 chips, not 2,000,000."),
        ("create Cup table=5", True, "A table seats 2, 3 or 4 players, not 5."),
        ("create Cup format=long table=3", True,
         "The long game is for 2 players: its tables seat 2, not 3."),
        ("create Cup kind=league", True, "A tournament is swiss, knockout, not league."),
        ("create Cup split=50/40", True,
         "The prize split 50/40 doesn’t work: give 1 to 10 whole percentages, best place "
         "first, that add up to 100 (e.g. 60/30/10)."),
        ("join", False, "There is no tournament open or running in this channel. An admin "
                        "opens one with `tournament create`."),
        ("dance", False, "`tournament` does standings, create, join, leave, start, cancel, "
                         "not dance."),
    ],
)  # fmt: skip
async def test_bad_input_gets_one_line(store: RedisStore, text: str, admin: bool,
                                       said: str) -> None:  # fmt: skip
    table = Table(manager(store, clock=Clock()))
    assert await refused(table, "Root", text, admin=admin) == said


async def test_joining_twice_or_without_the_fee_is_refused(store: RedisStore) -> None:
    table = Table(manager(store, clock=Clock()))
    await say(table, "Root", "create Cup fee=150", admin=True)
    assert await refused(table, "Ann", "join") == (
        "The entry fee is 150 chips and your balance is 100: `daily` gives you more."
    )
    await say(table, "Root", "cancel", admin=True)
    await say(table, "Root", "create Cup", admin=True)
    await say(table, "Ann", "join")
    assert await refused(table, "Ann", "join") == "You are already entered in Cup."


async def test_the_sign_up_message_takes_entries_by_its_buttons(store: RedisStore) -> None:
    """Join and Leave under the sign-up message answer with that message, updated."""
    table = Table(manager(store, clock=Clock()))
    made = await say(table, "Root", "create Cup", admin=True)
    (join, leave), = made.buttons
    assert (join.label, leave.label) == ("Join", "Leave")
    joined = await table.manager.handle(table.ctx("Ann"), Click(join.action_id))
    assert joined.public[0].splitlines()[-1] == "Players (1): Ann"
    assert joined.buttons == made.buttons
    left = await table.manager.handle(table.ctx("Ann"), Click(leave.action_id))
    assert left.public[0].splitlines()[-1] == "Players (0): —"
    await say(table, "Root", "cancel", admin=True)
    await say(table, "Root", "create Next", admin=True)
    stale = await table.manager.handle(table.ctx("Ann"), Click(join.action_id))
    assert stale.private == (
        "The tournament Cup has already started or ended: entries and changes are closed."
    )
