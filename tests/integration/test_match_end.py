"""A match ends exactly once on the service too: one summary, games counted once, and ratings
only with a winner, whatever mix of timeouts, drops and leaves ends it (real Redis)."""

from __future__ import annotations

from core.service.api.commands import Begin, Join, Leave, Solo, Start
from core.service.features.skill import Skill
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

MATCH_OVER = "**Match over**"


async def timed_out_to_the_end(table: Table, clock: Clock) -> list[str]:
    """Let every deadline pass until the game is over; the public texts the sweeps posted."""
    posted: list[str] = []
    for _ in range(40):
        record = await table.manager.current(table.ctx("x"))
        if record is None or record.state.over:
            break
        clock.now += 11
        for _, reply in await table.manager.sweep():
            posted += reply.public
    return posted


async def ledger_ok(store: RedisStore) -> None:
    report = await store.verify_ledger(SCOPE)
    assert report.ok and report.total == 0, report


async def begin(table: Table, options: StartOptions, *, solo: bool = False) -> None:
    if solo:
        table.last = await table.manager.handle(table.ctx("Ann"), Solo(options))
        return
    await table.manager.handle(table.ctx("Ann"), Start(options))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())


VOID = "Nobody made a move of their own in this match, so it doesn’t count: no wins, no ratings."


async def test_two_players_who_never_press_end_a_void_match_once(store: RedisStore) -> None:
    """`start rounds=3 timer=10`, Ann and Bob never press: the third auto-played turn ends the
    last round; the match ends there once (not again when it would drop its last player), and
    as nobody decided anything it is void: the channel is told, nothing is counted or rated."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await begin(table, StartOptions(format="rounds:3", timer=10))
    posted = await timed_out_to_the_end(table, clock)
    summaries = [text for text in posted if MATCH_OVER in text]
    assert len(summaries) == 1 and summaries[0].endswith(VOID), posted
    assert summaries[0].splitlines()[0] == "**Match over**: No winner this time."  # nobody won
    assert not any("Ratings" in text for text in posted)
    for user in ("ann", "bob"):
        assert await store.hash(SCOPE, f"stats:{user}") == {}
    assert await store.hash(SCOPE, "rating") == {}
    assert await store.top(SCOPE, "lb:wins") == []
    await ledger_ok(store)


async def test_a_match_with_one_decision_then_timeouts_counts_once(store: RedisStore) -> None:
    """The first player rolls once, then nobody presses again: the match counts, once, and
    its winner is the one with the lower total among those not dropped."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await begin(table, StartOptions(format="rounds:3", timer=10))
    first = await table.to_act()
    assert first is not None
    await table.press(first)
    posted = await timed_out_to_the_end(table, clock)
    summaries = [text for text in posted if MATCH_OVER in text]
    assert len(summaries) == 1 and VOID not in summaries[0], posted
    stats = {user: await store.hash(SCOPE, f"stats:{user}") for user in ("ann", "bob")}
    assert [stats[user].get("games") for user in ("ann", "bob")] == ["1", "1"], stats
    wins = [int(stats[user].get("wins", "0")) for user in ("ann", "bob")]
    winner = "Ann" if wins == [1, 0] else "Bob"
    assert sum(wins) == 1 and f"🏆 {winner} wins the match." in summaries[0], (wins, summaries)
    assert "Ratings" in "\n".join(posted)
    await ledger_ok(store)


async def test_a_solo_game_timed_out_to_the_end_counts_once(store: RedisStore) -> None:
    """`solo rounds=3 timer=10`, one roll then nothing: one solo game, won by its player."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await begin(table, StartOptions(format="rounds:3", timer=10), solo=True)
    await table.press("Ann")
    posted = await timed_out_to_the_end(table, clock)
    assert sum(MATCH_OVER in text for text in posted) == 1, posted
    assert not any("No winner" in text for text in posted)
    stats = await store.hash(SCOPE, "stats:ann")
    assert stats.get("solo_games") == "1" and stats.get("solo_wins") == "1", stats
    assert "games" not in stats and "wins" not in stats
    await ledger_ok(store)


async def test_when_everyone_leaves_there_is_no_winner_and_no_rating(store: RedisStore) -> None:
    """Bob leaves, then Ann on her turn: her unplayed turn scores the maximum, the match ends
    once with no winner, and no rating moves."""
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions(format="rounds:3")))
    await table.manager.handle(table.ctx("Bob"), Join())
    await table.manager.handle(table.ctx("Ann"), Begin())
    posted: list[str] = []
    for user in ("Bob", "Ann"):
        posted += (await table.manager.handle(table.ctx(user), Leave())).public
    assert sum(MATCH_OVER in text for text in posted) == 1, posted
    summary = next(text for text in posted if MATCH_OVER in text)
    assert "No winner" in summary and summary.count("total 45") == 2, summary
    assert await store.hash(SCOPE, "rating") == {}
    await ledger_ok(store)


async def test_a_match_with_a_winner_after_a_leave_is_rated_by_the_final_order(
    store: RedisStore,
) -> None:
    """Cid leaves at once; Ann and Bob play on: the winner ranks first, Cid (every turn of his
    scored the maximum) last, so Cid's rating is the lowest."""
    table = Table(manager(store))
    table.last = await table.manager.handle(
        table.ctx("Ann"), Start(StartOptions(format="rounds:2"))
    )
    for user in ("Bob", "Cid"):
        await table.manager.handle(table.ctx(user), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    await table.manager.handle(table.ctx("Cid"), Leave())
    await table.play_out()
    shown = {u: Skill.from_str(s).shown for u, s in (await store.hash(SCOPE, "rating")).items()}
    assert set(shown) == {"ann", "bob", "cid"}
    assert shown["cid"] == min(shown.values()) and shown["cid"] < 1500 - 10
    await ledger_ok(store)
