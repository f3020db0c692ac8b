"""Turn calls (SPEC 8): when the turn passes to a human the reply carries one call for that
turn, written `<@id>`, and the key of the earlier call to take down; a server's `config
ping=start|off` and a member's `ping off` are honoured, and a solo game calls nobody."""

from __future__ import annotations

from collections.abc import Sequence

from core.service.api.commands import Begin, Join, Start
from core.service.features.pings import OPTED_OUT
from core.service.model.commit import Scope
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.service.pipeline.subcommands import parse
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import Table, manager
from tests.integration.test_tournament_commands import Plain


async def begun(table: Table, rounds: int = 2) -> Reply:
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions(format=f"rounds:{rounds}")))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    return table.last


async def until_bob(table: Table) -> list[Reply]:
    """Ann plays her first button until the turn is Bob's; every reply on the way."""
    replies = []
    while await table.to_act() == "Ann":
        replies.append(await table.press("Ann"))
    return replies


async def test_the_first_turn_and_each_next_human_are_called_once(store: RedisStore) -> None:
    table = Table(manager(store))
    first = await begun(table)
    assert first.call is not None and first.call.user == "ann"
    assert first.call.text == "🎲 <@ann>, it’s your turn."
    assert first.uncall == ""
    replies = await until_bob(table)
    *during, passed = replies
    assert all(r.call is None and not r.uncall for r in during)  # one call per turn
    assert passed.call is not None and passed.call.user == "bob"
    assert passed.uncall == first.call.key and passed.call.key != first.call.key


async def test_a_member_who_opted_out_is_not_called_and_off_calls_nobody(
    store: RedisStore,
) -> None:
    table = Table(manager(store))
    said = await table.manager.handle(table.ctx("Bob"), parse("ping off", Plain()))
    assert said.private == ("You won’t be called when it’s your turn any more. "
                            "`/shutbox ping on` turns it back on.")  # fmt: skip
    await begun(table)
    passed = (await until_bob(table))[-1]
    assert passed.call is None and passed.uncall  # Ann's call comes down
    other = Table(manager(store), channel="c2")
    await other.manager.handle(other.ctx("Root", admin=True), parse("config ping=off", Plain()))
    assert (await begun(other)).call is None


async def test_start_calls_only_the_first_turn_and_solo_calls_nobody(store: RedisStore) -> None:
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Root", admin=True), parse("config ping=start", Plain()))
    assert (await begun(table)).call is not None
    assert (await until_bob(table))[-1].call is None
    solo = Table(manager(store), channel="c3")
    alone = await solo.manager.handle(solo.ctx("Cid"), parse("solo", Plain()))
    assert alone.call is None


async def test_ping_says_which_it_is_and_refuses_another_word(store: RedisStore) -> None:
    table = Table(manager(store))
    shown = await table.manager.handle(table.ctx("Ann"), parse("ping", Plain()))
    assert shown.private == "You are called when it’s your turn. `/shutbox ping off` stops it."
    refused = await table.manager.handle(table.ctx("Ann"), parse("ping maybe", Plain()))
    assert refused.private == "“maybe” is not a valid value for ping. Allowed: on, off."


class CountsOptOutReads(RedisStore):
    """The real store, noting which opt-outs a click reads, and whether it read all of them."""

    asked: list[tuple[str, ...]]
    whole = 0

    async def hash(self, scope: Scope, key: str) -> dict[str, str]:
        self.whole += key == OPTED_OUT
        return await super().hash(scope, key)

    async def hash_fields(self, scope: Scope, key: str, fields: Sequence[str]) -> dict[str, str]:
        if key == OPTED_OUT:
            self.asked.append(tuple(fields))
        return await super().hash_fields(scope, key, fields)


async def test_a_turn_call_reads_only_the_opt_outs_of_who_it_calls_or_uncalls(
    store: RedisStore,
) -> None:
    """A server's opt-outs grow with its members: a click reads the one or two it needs, and
    none once nobody is to be called (`ping=start` after the first turn)."""
    counting = CountsOptOutReads(store._redis)
    counting.asked = []
    table = Table(manager(counting))
    await begun(table)
    await until_bob(table)
    assert counting.whole == 0
    assert counting.asked == [("ann",), ("ann", "bob")]  # the first call; Ann's down, Bob's up
    later = Table(manager(counting), channel="c2")
    await later.manager.handle(later.ctx("Root", admin=True), parse("config ping=start", Plain()))
    counting.asked = []
    await begun(later)
    await until_bob(later)
    assert counting.asked == [("ann",), ("ann",)]  # Ann's call, then taking it down
