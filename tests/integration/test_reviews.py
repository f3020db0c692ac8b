"""Review in chat: a match's decisions graded as they are played, shown privately (SPEC 5)."""

from __future__ import annotations

from dataclasses import replace

from core.game.ai.review import Aim, parse_turn, review_turn
from core.game.ai.review import Review as Graded
from core.game.ai.review_long import review_long_turn
from core.game.ai.solver import Objective
from core.game.dice import FixedDice
from core.game.rules import Rules
from core.service.api.commands import (
    AddBot,
    Begin,
    Click,
    Join,
    Leaderboard,
    Review,
    Solo,
    Start,
    Stats,
)
from core.service.features.reviews import Kept, kept_of, review_text
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

TURN = "4-3:7 6-2:8 2-1:2+1 5-4:9 6-5:6+5 6-6:-"
PRESSES = (
    "Roll",
    "7",
    "Roll",
    "8",
    "Roll",
    "2+1",
    "Roll",
    "9",
    "Roll 2 dice",
    "6+5",
    "Roll 2 dice",
)


def rolls(times: int = 1) -> FixedDice:
    return FixedDice([(4, 3), (6, 2), (2, 1), (5, 4), (6, 5), (6, 6)] * times)


async def play_solo(table: Table, player: str = "Ann") -> None:
    table.last = await table.manager.handle(table.ctx(player), Solo(StartOptions(preset="classic")))
    for label in PRESSES:
        await table.press(player, label)


async def test_a_finished_match_offers_review_graded_like_the_command_line(
    store: RedisStore,
) -> None:
    """The Review button answers privately with the same grading `shutbox review` gives."""
    table = Table(manager(store, dice=rolls()))
    await play_solo(table)
    assert table.last.game is not None and table.last.game.over
    reply = await table.press("Ann", "Review")
    expected = review_turn(Rules(), Objective.SUM, parse_turn(TURN))
    assert reply.public == () and reply.game is None and reply.private is not None
    text = reply.private
    assert text.startswith("**Your play against perfect play** (aiming for the lowest expected")
    assert "2-1 → 2+1 ✗ best 3 (−3.99 points)" in text
    assert "4-3 → 7 ✓" in text and "🎲 → two dice ✓" in text
    best, total = expected.best_count, len(expected.decisions)
    assert f"({best} of {total} decisions best)" in text
    assert f"expected loss {expected.expected_loss:.2f} points" in text


async def test_the_review_command_shows_the_last_finished_match(store: RedisStore) -> None:
    """`/shutbox review` answers from the last finished match; before any, it says so."""
    table = Table(manager(store, dice=rolls()))
    none = await table.manager.handle(table.ctx("Ann"), Review())
    assert none.private == (
        "You have no finished match in this channel to review yet. Play one, then try again."
    )
    await play_solo(table)
    reply = await table.manager.handle(table.ctx("Ann"), Review())
    assert reply.private is not None and "2-1 → 2+1 ✗ best 3" in reply.private


async def test_someone_who_did_not_play_gets_no_review(store: RedisStore) -> None:
    """A Review click by a non-player is told, privately, that there is nothing of theirs."""
    table = Table(manager(store, dice=rolls()))
    await play_solo(table)
    reply = await table.press("Zed", "Review")
    assert reply.private is not None and reply.private.startswith("There is no review of yours")


async def test_the_review_is_in_the_clickers_language(store: RedisStore) -> None:
    """A Danish player reads the review in Danish."""
    table = Table(manager(store, dice=rolls()))
    await play_solo(table)
    ctx = replace(table.ctx("Ann"), locale="da")
    reply = await table.manager.handle(ctx, Review())
    assert reply.private is not None and "Dit spil mod perfekt spil" in reply.private


async def test_stats_and_the_accuracy_board_count_every_reviewed_decision(
    store: RedisStore,
) -> None:
    """Stats show the accuracy; the board lists players with 20 decisions or more."""
    table = Table(manager(store, dice=rolls(4)))
    expected = review_turn(Rules(), Objective.SUM, parse_turn(TURN))
    per_match = len(expected.decisions)
    for _ in range(3):
        await play_solo(table)
    board = await table.manager.handle(table.ctx("Ann"), Leaderboard("accuracy"))
    assert "Nobody on this board yet" in board.public[0]  # 3 matches: fewer than 20 decisions
    await play_solo(table)
    stats = await table.manager.handle(table.ctx("Ann"), Stats())
    accuracy = 100 * expected.best_count / per_match
    assert f"Review accuracy: {accuracy:.1f}% over {4 * per_match} decisions" in stats.public[0]
    board = await table.manager.handle(table.ctx("Ann"), Leaderboard("accuracy"))
    assert board.public[0].splitlines()[1] == f"1. Ann — {accuracy:.1f}%"
    fields = await store.hash(SCOPE, "stats:ann")
    assert int(fields["decisions"]) == 4 * per_match


async def test_each_player_sees_only_their_own_decisions(store: RedisStore) -> None:
    """In a match of Ann, Bob and a bot, each human's review counts their own decisions;
    the bot's are not reviewed, and the board of accuracy counts only the two humans."""
    table = Table(manager(store))
    table.last = await table.manager.handle(
        table.ctx("Ann"), Start(StartOptions(format="rounds:2"))
    )
    await table.manager.handle(table.ctx("Bob"), Join())
    await table.manager.handle(table.ctx("Ann"), AddBot())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    await table.play_out()
    kept = await store.hash(SCOPE, "review:c1")
    assert set(kept) == {"ann", "bob"}
    for user in ("ann", "bob"):
        decisions = Kept.from_str(kept[user]).review.count
        fields = await store.hash(SCOPE, f"stats:{user}")
        assert int(fields["decisions"]) == decisions
        reply = await table.manager.handle(table.ctx(user.title()), Review())
        assert reply.private is not None
        assert decisions > 0 and f"of {decisions} decisions best" in reply.private


async def play_until_a_summary(table: Table) -> Reply:
    """Everyone presses their first button until a click posts a public summary."""
    while (player := await table.to_act()) is not None:
        reply = await table.press(player)
        if reply.public:
            return reply
    raise AssertionError("the match ended without a summary")


async def test_each_round_summary_carries_a_review_of_the_match_so_far(store: RedisStore) -> None:
    """After round 1 of 2, the round summary's Review button answers each clicker privately
    with their own decisions of round 1; after the match it answers with the whole match."""
    table = Table(manager(store))
    table.last = await table.manager.handle(
        table.ctx("Ann"), Start(StartOptions(format="rounds:2"))
    )
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    round_one = await play_until_a_summary(table)
    game = table.last.game
    assert game is not None and not game.over
    summary = round_one.public[0]
    assert round_one.buttons_under(summary) == ((round_one.review,),)
    review = round_one.review
    assert review is not None and review.label == "Review"
    assert review.action_id == f"stb:review:{game.game_id}:{game.version}:0"

    record = await table.manager.current(table.ctx("Ann"))
    assert record is not None
    for user in ("ann", "bob"):
        so_far = kept_of(record, user).review.count
        reply = await table.manager.handle(table.ctx(user.title()), Click(review.action_id))
        assert reply.public == () and reply.game is None and reply.private is not None
        assert so_far and f"of {so_far} decisions best)" in reply.private
        assert reply.private == review_text(kept_of(record, user), "en")
    bystander = await table.manager.handle(table.ctx("Zed"), Click(review.action_id))
    assert bystander.private is not None and bystander.private.startswith("There is no review")

    last = await play_until_a_summary(table)
    while table.last.game is not None and not table.last.game.over:
        last = await play_until_a_summary(table)
    assert last.review is not None and last.reviewed and last.reviewed[-1] in last.public
    kept = Kept.from_str((await store.hash(SCOPE, "review:c1"))["ann"])
    assert kept.review.count > kept_of(record, "ann").review.count
    after = await table.manager.handle(table.ctx("Ann"), Click(review.action_id))
    assert after.private == review_text(kept, "en")


# A long game of Ann (closing) and Bob (opening), turn by turn: Ann closes down to 3 and 4 and
# is stuck on 6-5; Bob opens 7 and is stuck on 3-1; Ann closes 4+3, then 7, and wins.
LONG_TURNS = (
    ("ann", "4-3:7 6-2:8 2-1:2+1 5-4:9 6-5:6+5 6-5:-"),
    ("bob", "4-3:7 3-1:-"),
    ("ann", "4-3:4+3 5-2:7"),
)
LONG_PRESSES = (
    ("Ann", ("Roll", "7", "Roll", "8", "Roll", "2+1", "Roll", "9", "Roll 2 dice", "6+5",
             "Roll 2 dice")),
    ("Bob", ("Roll", "7", "Roll")),
    ("Ann", ("Roll", "4+3", "Roll", "7")),
)  # fmt: skip


def long_game_reviews() -> dict[str, Graded]:
    """Each player's review, turn by turn with `review_long_turn` from where the box stood."""
    rules, board = Rules(), Rules().full_mask
    found: dict[str, Graded] = {"ann": Graded(()), "bob": Graded(())}
    for user, turn in LONG_TURNS:
        steps = parse_turn(turn)
        found[user] += review_long_turn(rules, board, 0 if user == "ann" else 1, steps)
        for step in steps:
            board ^= step.move
    return found


async def test_a_finished_long_game_is_reviewed_by_the_chance_to_win(store: RedisStore) -> None:
    """Both sides of a long game are graded by their chance to win the match: the final
    message's Review, `/shutbox review` and the stats agree with `review_long_turn`."""
    dice = [(4, 3), (6, 2), (2, 1), (5, 4), (6, 5), (6, 5), (4, 3), (3, 1), (4, 3), (5, 2)]
    table = Table(manager(store, dice=FixedDice(dice)))
    table.last = await table.manager.handle(table.ctx("Ann"), Start(StartOptions(format="long")))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    for player, labels in LONG_PRESSES:
        for label in labels:
            reply = await table.press(player, label)
    assert table.last.game is not None and table.last.game.over
    assert reply.review is not None and reply.reviewed  # the match summary's Review
    expected = long_game_reviews()
    for user in ("ann", "bob"):
        kept = Kept.from_str((await store.hash(SCOPE, "review:c1"))[user])
        assert kept.aim is Aim.WIN
        assert [d.to_str() for d in kept.decisions] == [
            d.to_str() for d in expected[user].decisions
        ]
        fields = await store.hash(SCOPE, f"stats:{user}")
        assert int(fields["decisions"]) == len(expected[user].decisions)
        assert int(fields["decisions_best"]) == expected[user].best_count
    ann, bob = expected["ann"], expected["bob"]
    assert ann.best_count < len(ann.decisions)  # 2+1 for a 2-1 gave away some of her chance
    text = (await table.press("Ann", "Review")).private
    assert text is not None and text.startswith(
        "**Your play against perfect play** (aiming for the best chance to win the match)"
    )
    miss = next(d for d in ann.decisions if not d.was_best)
    assert f"2-1 → 2+1 ✗ best 3 (−{100 * miss.loss:.2f}% chance to win)" in text
    assert f"expected loss {100 * ann.expected_loss:.2f}% chance to win" in text
    command = (await table.manager.handle(table.ctx("Bob"), Review())).private
    assert command is not None
    assert f"({bob.best_count} of {len(bob.decisions)} decisions best)" in command
