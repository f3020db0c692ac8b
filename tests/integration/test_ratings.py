"""Ratings (OpenSkill Plackett–Luce): written by the commit that ends a match between humans."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from core.service.api.commands import AddBot, Begin, Join, Leaderboard, Solo, Start, Stats
from core.service.features.skill import Skill
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager


async def play(table: Table, *players: str, bots: int = 0) -> Reply:
    host, *others = players
    table.last = await table.manager.handle(table.ctx(host), Start(StartOptions(format="rounds:1")))
    for player in others:
        await table.manager.handle(table.ctx(player), Join())
    for _ in range(bots):
        await table.manager.handle(table.ctx(host), AddBot())
    table.last = await table.manager.handle(table.ctx(host), Begin())
    return await table.play_out()


async def test_a_match_between_two_players_rates_both_as_openskill_does(store: RedisStore) -> None:
    """The winner gains what Plackett–Luce gives, the loser loses; the summary says so."""
    table = Table(manager(store))
    await play(table, "Ann", "Bob")
    stored = await store.hash(SCOPE, "rating")
    assert set(stored) == {"ann", "bob"}
    final = await store.hash(SCOPE, "stats:ann")
    ann_won = final.get("wins") == "1"
    model = PlackettLuce()
    winner, loser = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    expected = {"ann": winner if ann_won else loser, "bob": loser if ann_won else winner}
    for user, team in expected.items():
        skill = Skill.from_str(stored[user])
        assert abs(skill.mu - team[0].mu) < 1e-5 and abs(skill.sigma - team[0].sigma) < 1e-5
    board = dict(await store.top(SCOPE, "lb:rating", 10))
    assert board == {user: float(Skill.from_str(text).shown) for user, text in stored.items()}
    stats = (await table.manager.handle(table.ctx("Ann"), Stats())).public[0]
    assert f"Rating: {Skill.from_str(stored['ann']).shown:,}" in stats


async def test_the_match_summary_shows_each_new_rating_and_change(store: RedisStore) -> None:
    """`📈 Ratings: Ann 1530 (+30) · Bob 1470 (−30)` follows the match summary."""
    table = Table(manager(store))
    final = await play(table, "Ann", "Bob")
    stored = {u: Skill.from_str(s).shown for u, s in (await store.hash(SCOPE, "rating")).items()}
    changes = {u: f"+{r - 1500}" if r >= 1500 else f"−{1500 - r}" for u, r in stored.items()}
    ann, bob = (f"{n} {stored[u]:,} ({changes[u]})" for u, n in (("ann", "Ann"), ("bob", "Bob")))
    assert final.public[-1] == f"📈 Ratings: {ann} · {bob}"
    board = (await table.manager.handle(table.ctx("Ann"), Leaderboard("rating"))).public[0]
    top = max(stored, key=lambda user: stored[user])
    assert board.splitlines()[1] == f"1. {top.title()} — {stored[top]:,}"


async def test_bots_and_solo_games_are_not_rated(store: RedisStore) -> None:
    table = Table(manager(store))
    await play(table, "Ann", bots=1)
    table.last = await table.manager.handle(table.ctx("Bob"), Solo(StartOptions()))
    await table.play_out()
    assert await store.hash(SCOPE, "rating") == {}


class ReadsAnOldRating(RedisStore):
    """The ratings read once before another match of the same player ended (a race)."""

    stale_reads = 1

    async def hash_fields(
        self, scope: object, key: str, fields: Sequence[str]
    ) -> dict[str, str]:
        if key == "rating" and self.stale_reads:
            self.stale_reads -= 1
            return {}
        return await super().hash_fields(scope, key, fields)  # type: ignore[arg-type]


async def test_a_rating_that_moved_meanwhile_is_rated_from_where_it_is_now(
    store: RedisStore,
) -> None:
    """Ann's other match ended first: the commit that ends this one finds her rating changed
    since it was read, is planned again, and rates her from her rating as it stands."""
    earlier = Skill(30.0, 7.0)
    await store.set_fields(SCOPE, "rating", {"ann": earlier.to_str()})
    table = Table(manager(ReadsAnOldRating(store._redis)))
    await play(table, "Ann", "Bob")
    won = (await store.hash(SCOPE, "stats:ann")).get("wins") == "1"
    model = PlackettLuce()
    ann, bob = model.rating(mu=earlier.mu, sigma=earlier.sigma), model.rating()
    ranks = [1.0, 2.0] if won else [2.0, 1.0]
    [[rated_ann], _] = model.rate([[ann], [bob]], ranks=ranks)
    stored = Skill.from_str((await store.hash(SCOPE, "rating"))["ann"])
    assert abs(stored.mu - rated_ann.mu) < 1e-5 and abs(stored.sigma - rated_ann.sigma) < 1e-5
