"""Review in Slack: the Review buttons of round and match summaries and of a finished match,
and `/shutbox review` (SPEC 5)."""

from __future__ import annotations

from adapters.slack.blocks import mrkdwn
from core.service.features.reviews import kept_of, review_text
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message
from tests.e2e.slack.test_match import (
    MAX_CLICKS,
    first_move,
    open_lobby,
    play_to_the_end,
    to_act,
)

SCOPE = Scope("slack", TEAM)


async def finished_solo(slack: Driver, fake: FakeSlack) -> Message:
    await slack.command("UANN", "solo")
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    game = found[0]
    for _ in range(100):
        if not game.playing:
            return game
        await slack.press("UANN", game, first_move(game))
    raise AssertionError("the solo game did not end")


async def test_review_by_button_and_by_command(slack: Driver, fake: FakeSlack) -> None:
    """Ann's Review press and `/shutbox review` answer her privately with the same review;
    Cid, who did not play, is told there is nothing of his."""
    assert (await slack.say("UANN", "review")).startswith("You have no finished match")
    game = await finished_solo(slack, fake)
    assert [b["text"]["text"] for b in game.buttons] == ["Rematch", "Review"]

    sent = await slack.click("UANN", game, game.button("Review"))
    answer = await fake.reply(sent.key)
    assert answer.body.get("response_type") == "ephemeral"
    assert answer.text.startswith("*Your play against perfect play*")
    assert "Accuracy " in answer.text and "decisions best" in answer.text
    assert await slack.say("UANN", "review") == answer.text

    other = await slack.click("UCID", game, game.button("Review"))
    assert (await fake.reply(other.key)).text.startswith("There is no review of yours")


async def test_stats_show_the_review_accuracy(slack: Driver, fake: FakeSlack) -> None:
    """After a reviewed match Ann's stats carry her accuracy; the accuracy board is known."""
    await finished_solo(slack, fake)
    await slack.command("UANN", "stats")
    found: list[str] = await fake.wait_for(
        lambda: [m.text for m in fake.public if "Stats for Ann" in m.text]
    )
    assert "Review accuracy:" in found[-1]
    await slack.command("UANN", "leaderboard accuracy")
    boards: list[str] = await fake.wait_for(
        lambda: [m.text for m in fake.public if "Closest to perfect play" in m.text]
    )
    assert "at least 20 decisions" in boards[-1]


async def test_a_round_summary_reviews_each_players_match_so_far(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    """Round 1's summary is posted with a Review button under its text; Ann's and Bob's
    presses answer each of them privately with their own decisions of the match so far."""
    game = await open_lobby(slack, fake, "start rounds=2")
    await slack.press("UBOB", game, game.button("Join"))
    await slack.press("UANN", game, game.button("Start"))
    for _ in range(MAX_CLICKS):
        summaries = [m for m in fake.public if "Round 1" in m.text]
        if summaries:
            break
        await slack.press(to_act(game), game, first_move(game))
    [summary] = summaries
    assert [b["text"]["text"] for b in summary.buttons] == ["Review"]
    assert summary.blocks[0]["type"] == "section" and "Round 1" in summary.body
    record = await manager.current(Context(SCOPE, CHANNEL, "watcher", "Watcher"))
    assert record is not None and not record.state.over

    for user in ("UANN", "UBOB"):
        sent = await slack.click(user, summary, summary.button("Review"))
        answer = await fake.reply(sent.key)
        assert answer.body.get("response_type") == "ephemeral"
        assert answer.text == mrkdwn(review_text(kept_of(record, user), "en"))
    assert fake.game_messages(CHANNEL) == [game]


async def test_a_long_game_is_reviewed_by_the_chance_to_win(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    """After a long game of Ann (closing) and Bob (opening) the message's Review answers each
    privately with their decisions graded by their chance to win; the match summary has one."""
    game = await open_lobby(slack, fake, "start format=long")
    await slack.press("UBOB", game, game.button("Join"))
    await slack.press("UANN", game, game.button("Start"))
    await play_to_the_end(slack, game)
    assert [b["text"]["text"] for b in game.buttons] == ["Rematch", "Review"]
    # The summary is posted after the game message is edited: wait for it.
    summaries = await fake.wait_for(lambda: [m for m in fake.public if m.buttons and m is not game])
    assert [b["text"]["text"] for b in summaries[-1].buttons] == ["Review"]
    for user in ("UANN", "UBOB"):
        sent = await slack.click(user, game, game.button("Review"))
        answer = await fake.reply(sent.key)
        assert answer.body.get("response_type") == "ephemeral"
        assert answer.text.startswith(
            "*Your play against perfect play* (aiming for the best chance to win the match)"
        )
