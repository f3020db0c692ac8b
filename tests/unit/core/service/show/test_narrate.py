"""The game message and the summaries tell each player what happened to them, in plain words."""

from __future__ import annotations

import pytest

from core.game.actions import (
    Action,
    AddBot,
    Begin,
    Cancel,
    Choose,
    Join,
    Leave,
    Roll,
    Stop,
    Timeout,
)
from core.game.dice import FixedDice
from core.game.engine import apply, new_game
from core.game.errors import IllegalMove
from core.game.match import MatchConfig, MatchFormat, Stakes
from core.game.rules import preset
from core.game.settlement import Pot
from core.service.model.commit import Scope
from core.service.model.record import GameRecord
from core.service.model.views import Reply
from core.service.pipeline.game_commit import plan_change
from tests.unit.core.game_helpers import begun

SCOPE = Scope("test", "s1")
SAILORS = preset("sailors")
DOUBLE_SIX = (6, 6)  # under the sailors' rule a first 6-6 ends the turn with every tile open


def act(
    record: GameRecord, action: Action, rolls: list[tuple[int, ...]] | None = None
) -> tuple[GameRecord, Reply]:
    """One click through the engine and the manager's planning, as a surface would see it."""
    dice = FixedDice(rolls or [])
    state, events = apply(record.state, action, dice)
    assert dice.remaining == 0, f"{action} left dice unused"
    plan = plan_change(
        SCOPE, record, state, events, balances={"ann": 100, "bob": 100}, now=0,
        request_id=None, start_balance=100, fair=None,
    )  # fmt: skip
    return plan.final, plan.reply


def body(reply: Reply) -> str:
    assert reply.game is not None
    return reply.game.body


def sailors_table(fmt: str = "rounds:2", *, stakes: str = "none", bot: bool = False) -> GameRecord:
    cfg = MatchConfig(rules=SAILORS, format=MatchFormat.parse(fmt), stakes=Stakes.parse(stakes))
    state = new_game(cfg, "ann", "Ann")
    record = GameRecord(state, "c1", "g1", pot=Pot("pot:c1"))
    if bot:
        return act(record, AddBot("ann"))[0]
    return act(record, Join("bob", name="Bob"))[0]


def test_a_players_turn_ending_roll_stays_on_the_message_with_its_reason() -> None:
    """Ann's 6-6 and why it ended her turn stay under her score while Bob plays."""
    record, _ = act(sailors_table(), Begin("ann"))
    record, reply = act(record, Roll("ann"), [DOUBLE_SIX])
    assert "Ann: 45 (total 45)" in body(reply)
    assert "↳ ⚅ ⚅ = 12 ✗ there is no tile 12, and a double can’t close 6 twice" in body(reply)


def test_a_new_round_shows_no_lines_of_the_last_round_under_its_title() -> None:
    """Round 2's message keeps each player's round-1 turn, marked as such, and no old notices."""
    record, _ = act(sailors_table(), Begin("ann"))
    record, _ = act(record, Roll("ann"), [DOUBLE_SIX])
    record, reply = act(record, Roll("bob"), [(5, 5)])
    assert reply.game is not None and reply.game.title == "Round 2 of 2"
    assert "Bob rolled 10:" not in body(reply)
    assert "↳ round 1: ⚄ ⚄ = 10 ✗ tile 10 is shut" not in body(reply)
    assert "↳ round 1: ⚄ ⚄ = 10 ✗ there is no tile 10, and a double can’t close 5 twice" in (
        body(reply)
    )


def test_leaving_a_game_says_the_player_left() -> None:
    """`leave` during a game is a leave, not three missed turns."""
    record, _ = act(sailors_table(), Begin("ann"))
    _, reply = act(record, Leave("bob"))
    assert "Bob left the match" in body(reply) and "missed three turns" not in body(reply)


def test_a_timeout_says_the_turn_was_played_automatically() -> None:
    """When Ann's time runs out the message says so, and her turn line is marked automatic."""
    record, _ = act(sailors_table(), Begin("ann"))
    _, reply = act(record, Timeout("clock"), [DOUBLE_SIX])
    assert "⏱ Ann ran out of time; the rest of the turn was played automatically:" in body(reply)
    assert "↳ played automatically: ⚅ ⚅ = 12 ✗" in body(reply)


def test_a_dropped_players_total_includes_the_turn_just_played() -> None:
    """The third timeout drops Ann and ends the match: her total counts that last 45."""
    record, _ = act(sailors_table("rounds:5", bot=True), Begin("ann"))
    record, _ = act(record, Timeout("clock"), [DOUBLE_SIX] * 3)  # Ann, the bot; the bot again
    record, _ = act(record, Timeout("clock"), [DOUBLE_SIX])  # Ann; round 3 begins with her
    record, reply = act(record, Timeout("clock"), [DOUBLE_SIX])
    assert record.state.over
    assert "Ann: 45 (total 135) · dropped" in body(reply)


def test_a_pot_won_by_a_bot_carries_over_and_the_message_shows_the_pot() -> None:
    """Bots never win chips: the summary says the pot carries over; the message shows the pot."""
    record, _ = act(sailors_table(stakes="pot:5", bot=True), Begin("ann"))
    record, reply = act(record, Roll("ann"), [DOUBLE_SIX, (3, 4), DOUBLE_SIX, DOUBLE_SIX])
    assert "🤖 Bot 1 won the round; the pot of 5 chips carries over." in reply.public[0]
    assert "💰 Pot: 10 chips" in body(reply)


def test_a_cancelled_lobby_shows_no_board() -> None:
    """Cancelling a lobby shows that it was cancelled, not a box of closed tiles."""
    _, reply = act(sailors_table(), Cancel("ann"))
    assert body(reply).splitlines()[0] == "The host cancelled the game."
    assert "⬛" not in body(reply)


def test_cancel_during_a_game_points_to_stop() -> None:
    """A started game cannot be cancelled; the refusal names stop."""
    with pytest.raises(IllegalMove) as refused:
        apply(begun("Ann", "Bob"), Cancel("ann"), FixedDice([]))
    assert refused.value.key == "error.cancel_started"


def test_stopping_an_unstaked_game_does_not_mention_stakes() -> None:
    """Only a staked game says its stakes went back."""
    record, _ = act(sailors_table(), Begin("ann"))
    _, reply = act(record, Stop("ann"))
    assert "Stopped in round 1: that round does not count in the totals." in body(reply)
    assert "stakes" not in body(reply)
    staked, _ = act(sailors_table(stakes="pot:5"), Begin("ann"))
    _, reply = act(staked, Stop("ann"))
    assert "does not count in the totals, and its stakes went back." in body(reply)


def test_the_final_board_names_whose_box_it_is() -> None:
    """The finished match shows the last box played under its player's name."""
    record, _ = act(sailors_table("rounds:1"), Begin("ann"))
    record, _ = act(record, Roll("ann"), [DOUBLE_SIX])
    _, reply = act(record, Roll("bob"), [(5, 5)])
    lines = body(reply).splitlines()
    assert lines[0] == "Last box played (Bob):" and lines[1].startswith("1️⃣")


def test_round_summary_lists_winners_the_languages_way() -> None:
    """Two winners are listed as the language lists things."""
    record, _ = act(sailors_table("rounds:1"), Begin("ann"))
    record, _ = act(record, Roll("ann"), [DOUBLE_SIX])
    _, reply = act(record, Roll("bob"), [DOUBLE_SIX])
    assert "winners: Ann and Bob" in reply.public[0]


def test_the_final_board_belongs_to_who_shut_it_not_to_who_was_skipped() -> None:
    """A shut box ends the round: the board shown is the shutter's, not a skipped player's."""
    record, _ = act(sailors_table("rounds:1"), Begin("ann"))
    shut = [(4, 5), (3, 5), (1, 6), (2, 4), (1, 6), (3, 5)]  # 9, 8, 7; then the dice's tiles
    moves = [0b100000000, 0b10000000, 0b1000000, 0b1010, 0b100001, 0b10100]
    for dice, tiles in zip(shut, moves, strict=True):
        record, _ = act(record, Roll("ann"), [dice])
        record, reply = act(record, Choose("ann", tiles=tiles))
    assert record.state.over and "Bob doesn’t get to play" in body(reply)
    assert body(reply).splitlines()[0] == "Last box played (Ann):"


def test_a_pot_won_by_a_bot_in_the_last_round_goes_back() -> None:
    """In the last round there is nothing to carry over to: the pot goes back to the players."""
    record, _ = act(sailors_table("rounds:1", stakes="pot:5", bot=True), Begin("ann"))
    _, reply = act(record, Roll("ann"), [DOUBLE_SIX, (3, 4), DOUBLE_SIX])
    assert (
        "🤖 Bot 1 won the last round, and bots win no chips: the pot of 5 chips goes back"
        in (reply.public[0])
    )


def test_start_on_a_started_game_says_it_has_started() -> None:
    """Pressing Start again is not told that new players can join the next game."""
    with pytest.raises(IllegalMove) as refused:
        apply(begun("Ann", "Bob"), Begin("ann"), FixedDice([]))
    assert refused.value.key == "error.already_started"
