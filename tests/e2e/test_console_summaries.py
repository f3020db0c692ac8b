"""A round's summary is shown whole under the game message (SPEC 3: every chip movement), even
where one of its lines reads the same as one of the message's."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.dice import SeededDice
from tests.e2e.test_console import make, play_out, send_all


async def test_a_shuts_extra_ante_stays_in_the_summary_above_the_next_rounds_ante(
    redis: Redis,
) -> None:
    """Ann shuts round 2: Root's extra ante is in its summary, though round 3's message opens
    with Root's ante in the same words."""
    playground = make(redis, SeededDice(0), name="Ann")
    out = await send_all(playground, "start rounds:3 pot:50", "as Root", "join", "as Ann", "go")
    out += await play_out(playground)
    start = next(n for n, line in enumerate(out) if line.startswith("Round 2: Ann 0, Root 19"))
    assert out[start + 1 : start + 4] == [
        "🎉 Ann shut the box!", "💰 Root → the pot: 50 chips", "💰 The pot → Ann: 150 chips",
    ]  # fmt: skip
    round_3 = out.index("=== Round 3 of 3 ===")
    assert "💰 Root → the pot: 50 chips" in out[round_3:start]  # the next round's own ante
