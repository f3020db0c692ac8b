"""A knockout's standings as the channel is told them after each round (SPEC 12): who is
still in, who went out in which round at which table with what score, then the winner."""

from __future__ import annotations

from core.game.tournament.values import Status
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import Clock, Table, manager
from tests.integration.test_tournament_commands import say
from tests.integration.test_tournament_play import NAMES, play_table, running


async def test_each_rounds_standings_say_how_far_each_player_came(store: RedisStore) -> None:
    lobby = Table(manager(store, clock=Clock()))
    await say(lobby, "Root", "create Cup kind=knockout table=2", admin=True)
    for name in NAMES[:4]:
        await say(lobby, name, "join")
    await say(lobby, "Root", "start", admin=True)
    seed, cup = 0, (await running(store)).id
    told: list[list[str]] = []
    while (tournament := await running(store, cup)).status is Status.RUNNING:
        assert tournament.current is not None
        for table in tournament.current.tables:
            seed += 1
            ended = await play_table(store, tournament, table.number, seed, False)
            told += [text.splitlines() for _, text in ended.elsewhere if "standings" in text]
    after_one, final = told
    assert after_one[0] == "**Cup** — standings after 1 round:"
    assert [" — still in" in line for line in after_one[1:5]] == [True, True, False, False]
    assert all(" — out in round 1 at table " in line for line in after_one[3:5])
    assert final[1].endswith(" — 🏆 winner")
    assert " — out in round 2 at table 1, score " in final[2]
    assert not any("point" in line for line in [*after_one[1:5], *final[1:5]])
