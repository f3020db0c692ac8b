"""The terminal's view of a reply: the summaries' Review button and the letters that press."""

from __future__ import annotations

from adapters.console.render import pressable, reply_lines
from core.service.model.views import Button, GameView, Reply

ROLL = Button("stb:roll:g1:4:2", "Roll")
HINT = Button("stb:hint:g1:4:0", "Hint")
REVIEW = Button("stb:review:g1:4:0", "Review")


def view(*rows: tuple[Button, ...], over: bool = False) -> GameView:
    return GameView("table", "g1", 4, "Round 2 of 2", "Ann, your turn", rows=rows, over=over)


def test_a_summarys_review_takes_the_letter_after_the_game_messages_buttons() -> None:
    """Roll and Hint are a and b, so the round summary's Review is c, under its text only."""
    reply = Reply(game=view((ROLL, HINT)), public=("Round 1: Ann 12", "Ann joined"),
                  review=REVIEW, reviewed=("Round 1: Ann 12",))  # fmt: skip
    lines = reply_lines(reply, "Ann", 0)
    assert lines[-3:] == ["Round 1: Ann 12", "  [c] Review", "Ann joined"]
    assert pressable(reply.game, REVIEW) == [ROLL, HINT, REVIEW]


def test_a_finished_messages_review_is_the_one_its_summaries_point_to() -> None:
    """The finished message carries Review of the same match (another version): both are b."""
    own = Button("stb:review:g1:9:0", "Review")
    finished = view((Button("stb:rematch:g1:9:0", "Rematch"), own), over=True)
    reply = Reply(game=finished, public=("Match over",), review=REVIEW, reviewed=("Match over",))
    assert reply_lines(reply, "Ann", 0)[-1] == "  [b] Review"
    assert pressable(finished, REVIEW) == [*finished.rows[0]]


def test_without_a_game_message_the_review_is_a() -> None:
    """A summary with no game message on screen: its Review is the only button."""
    reply = Reply(public=("Round 1: Ann 12",), review=REVIEW, reviewed=("Round 1: Ann 12",))
    assert reply_lines(reply, "Ann", 0) == ["Round 1: Ann 12", "  [a] Review"]
    assert pressable(None, None) == [] and pressable(None, REVIEW) == [REVIEW]


def test_the_message_on_screen_sets_the_letter_when_the_reply_has_none() -> None:
    reply = Reply(public=("Round 1: Ann 12",), review=REVIEW, reviewed=("Round 1: Ann 12",))
    lines = reply_lines(reply, "Ann", 0, view=view((ROLL, HINT)))
    assert lines == ["Round 1: Ann 12", "  [c] Review"]
