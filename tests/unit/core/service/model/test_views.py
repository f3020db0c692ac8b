"""A reply as kept for repeated deliveries: its summaries keep their Review button."""

from __future__ import annotations

from core.service.model.views import Button, Reply

REVIEW = Button("stb:review:g1:7:0", "Review")


def test_a_stored_reply_keeps_which_summaries_carry_the_review_button() -> None:
    reply = Reply(public=("Round 1", "Fair dice"), review=REVIEW, reviewed=("Round 1",))
    again = Reply.from_json(reply.to_json(), replayed=True)
    assert again.buttons_under("Round 1") == ((REVIEW,),)
    assert again.buttons_under("Fair dice") == ()


def test_a_reply_without_a_review_button_has_no_buttons_under_its_texts() -> None:
    reply = Reply.from_json(Reply(public=("Gift",)).to_json())
    assert reply.review is None and reply.buttons_under("Gift") == ()


def test_a_stored_reply_keeps_the_board_picture() -> None:
    """A repeated delivery shows the same picture: its token and alt text are kept; a reply
    stored before pictures existed reads back without one."""
    from core.service.model.views import GameView

    game = GameView("c1", "g1", 4, "Round 1", "body", picture="9.1ff.53.-.", alt="| 1 | 2 |")
    again = Reply.from_json(Reply(game=game).to_json())
    assert again.game == game
    older = Reply(game=GameView("c1", "g1", 4, "Round 1", "body")).to_json()
    older = older.replace(',"picture":"","alt":""', "")
    assert "picture" not in older
    shown = Reply.from_json(older).game
    assert shown is not None and (shown.picture, shown.alt) == ("", "")
