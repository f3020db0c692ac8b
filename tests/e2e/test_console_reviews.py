"""Review in the playground: the Review button under round and match summaries, pressed by its
letter like every other button, and the long game's review."""

from __future__ import annotations

from redis.asyncio import Redis

from adapters.console import CHANNEL, SCOPE, Playground
from adapters.console.parse import button_key
from adapters.console.render import buttons
from core.game.dice import SeededDice
from core.service.features.reviews import kept_of
from core.service.model.context import Context
from tests.e2e.test_console import MAX_PRESSES, make, play_out, send_all


async def play_until_round_one_ends(playground: Playground) -> list[str]:
    """Press `a` until a screen shows round 1's summary; that screen's lines."""
    for _ in range(MAX_PRESSES):
        out = await playground.send("a")
        if any(line.startswith("Round 1:") for line in out):
            return out
    raise AssertionError("round 1 did not end")


async def decisions_so_far(playground: Playground, user: str) -> int:
    record = await playground.manager.current(Context(SCOPE, CHANNEL, "watcher", "Watcher"))
    assert record is not None and not record.state.over
    return kept_of(record, user).review.count


async def test_a_round_summary_offers_its_review_by_letter(redis: Redis) -> None:
    """Ann and Bob play two rounds at one keyboard. Round 1's summary ends with a Review button
    lettered after the game message's own; its letter answers whoever is at the keyboard
    privately with their decisions so far. The next screen's letters are its own again."""
    playground = make(redis, SeededDice(5), name="Ann")
    await send_all(playground, "start rounds=2", "as Bob", "join", "go")
    out = await play_until_round_one_ends(playground)
    assert playground.view is not None and not playground.view.over
    letter = button_key(len(buttons(playground.view)))
    summary = next(n for n, line in enumerate(out) if line.startswith("Round 1:"))
    assert f"  [{letter}] Review" in out[summary + 1 :]

    for name in ("Bob", "Ann"):
        await playground.send(f"as {name}")
        first, *rest = await playground.send(letter)
        aim = "(aiming for the lowest expected score)"
        assert first == f"(to {name} only) Your play against perfect play {aim}"
        made = await decisions_so_far(playground, name.lower())
        assert made and f"of {made} decisions best)" in rest[-1]

    await playground.send("a")  # a new screen without a summary
    refused = "\n".join(await playground.send("zz"))
    assert "No command or button “zz”" in refused and "Review" not in refused


async def test_a_finished_matchs_summaries_share_the_messages_review(redis: Redis) -> None:
    """On the last screen the summaries' Review is the finished message's own `[b] Review`,
    and it reviews the whole match."""
    playground = make(redis, SeededDice(5), name="Ann")
    await send_all(playground, "start rounds=2", "bot", "go")
    out = await play_out(playground)
    last = out[out.index("=== Shut the Box — game over ===") :]
    assert "  [a] Rematch  [b] Review" in last
    assert last.count("  [b] Review") == 2  # under the round 2 summary and the match's
    review = await playground.send("b")
    assert review[0] == (
        "(to Ann only) Your play against perfect play (aiming for the lowest expected score)"
    )
    assert review == await playground.send("review")


async def test_a_long_game_is_reviewed_in_the_playground(redis: Redis) -> None:
    """After a long game against a bot, the Review button grades Cy by the chance to win."""
    playground = make(redis, SeededDice(7))
    await send_all(playground, "start format=long", "bot", "go")
    out = await play_out(playground)
    assert "  [a] Rematch  [b] Review" in out
    review = await playground.send("b")
    assert review[0] == (
        "(to Cy only) Your play against perfect play (aiming for the best chance to win the match)"
    )
    assert review[-1].startswith("  Accuracy ")
