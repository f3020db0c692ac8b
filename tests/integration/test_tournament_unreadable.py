"""A tournament's stored table results on a real Redis: one that can't be read (a hand edit, a
number in other digits such as `²`) stays in its box: counted once, that table alone waits,
and every readable result is still counted."""

from __future__ import annotations

import pytest

from core.game.tournament.values import Entry, Kind, Settings, Status, TableResult
from core.service.features.tournaments.book import Book
from core.service.features.tournaments.records import load
from core.service.features.tournaments.tables import TableLink, inbox, result_text
from core.service.model.commit import Scope
from core.service.model.unreadable import Kind as RecordKind
from core.service.model.unreadable import Unreadable
from core.store.redis_store import RedisStore

SCOPE = Scope("test", "guild")
CHANNEL = "c1"
SEED = "5e" * 32
PLAYERS = ("u1", "u2", "u3", "u4")


@pytest.mark.parametrize("text", ["cup:1:²", "cup:٣:1", "cup:1:", "cup:x:1"])
def test_a_table_link_with_other_digits_is_no_link(text: str) -> None:
    assert TableLink.parse(text) is None


async def test_an_unreadable_inbox_result_is_counted_and_the_readable_ones_still_count(
    store: RedisStore,
) -> None:
    seen: list[Unreadable] = []
    book = Book(store, SCOPE, start_balance=100, clock=lambda: 1_000.0,
                on_unreadable=lambda scope, error: seen.append(error))  # fmt: skip
    await book.create(CHANNEL, "cup", Settings("Cup", Kind.SWISS, 2, table_size=2))
    for player in PLAYERS:
        await book.join(CHANNEL, Entry(player, player.upper()))
    started = await book.start(CHANNEL, SEED)
    first, second = started.after.rounds[0].tables
    stranger = f"nobody@{'*'.join('1' for _ in second.seats)}"  # a winner not at the table
    key = f"{SCOPE.tag}:{inbox('cup')}"
    redis = store._redis
    await redis.hset(key, mapping={
        "1:1": result_text(_win(first.seats)), "1:²": "u1@3*5", "1:2": "u1@²*5", "1:3": stranger,
    })  # fmt: skip

    changes = await book.catch_up("cup")

    stored = await load(store, SCOPE, "cup")
    assert stored is not None and stored.tournament.status is Status.RUNNING
    assert [table.done for table in stored.tournament.rounds[0].tables] == [True, False]
    assert len(changes) == 1
    assert {e.kind for e in seen} == {RecordKind.TOURNAMENT}
    assert sorted(e.record.rsplit(" ", 1)[1] for e in seen) == ["1:2", "1:3", "1:²"]


def _win(players: tuple[str, ...]) -> TableResult:
    return TableResult((players[0],), tuple(3 if p == players[0] else 9 for p in players))
