"""What a game keeps of each player's decisions: every one a review lists, then a tally, so a
long match's record stays small and its review reads the same."""

from __future__ import annotations

from core.game.ai.review import Aim, Decision, Kind
from core.service.features.reviews import MAX_LINES, Kept, review_text, with_decisions

BEST = Decision(Kind.MOVE, (4, 3), 64, 64, 0.0)
MISS = Decision(Kind.MOVE, (5, 3), 34, 20, 0.25)


def _match(decisions: int) -> tuple[Decision, ...]:
    """Every third decision a miss that costs a quarter of a point."""
    return tuple(MISS if i % 3 == 2 else BEST for i in range(decisions))


def test_decisions_past_what_a_review_lists_are_kept_as_one_tally() -> None:
    words = with_decisions("", _match(45)).split()
    assert len(words) == MAX_LINES + 1
    assert words[-1] == "+15:10:1.25"  # the last 15: 10 best, 5 misses of 0.25


def test_kept_one_click_at_a_time_equals_kept_at_once() -> None:
    text = ""
    for decision in _match(100):
        text = with_decisions(text, [decision])
    assert text == with_decisions("", _match(100))
    assert len(text) < 12 * (MAX_LINES + 1)


def test_a_folded_review_reads_as_the_whole_list_would() -> None:
    """The first lines, `… more`, then accuracy and loss over every decision."""
    whole = Kept("g", Aim.SUM, _match(60))
    folded = Kept.from_str(whole.to_str())
    assert len(folded.decisions) == MAX_LINES and folded.folded.count == 30
    assert folded.review.count == 60 and folded.review.best_count == 40
    assert folded.review.expected_loss == whole.review.expected_loss == 5.0
    assert review_text(folded, "en") == review_text(whole, "en")
    assert "30 more" in review_text(folded, "en")


def test_a_kept_review_survives_the_trip_with_its_tally() -> None:
    kept = Kept.from_str(Kept("g", Aim.SUM, _match(60)).to_str())
    assert Kept.from_str(kept.to_str()) == kept
    assert Kept.from_str(Kept("g", Aim.SUM, ()).to_str()) == Kept("g", Aim.SUM, ())


def test_rolls_the_timer_played_are_kept_beside_the_decisions() -> None:
    """`~N` counts the player's rolls the timer played, click by click, tally and all."""
    text = with_decisions("", [], 3)
    text = with_decisions(text, _match(40), 2)
    kept = Kept.from_str(f"g sum {text}")
    assert kept.timed == 5 and kept.review.count == 40
    assert Kept.from_str(kept.to_str()) == kept


def test_a_review_with_nothing_graded_says_whether_the_timer_played() -> None:
    """No decision to grade because the timer played is not "no choices to make"."""
    timed, none = Kept("g", Aim.SUM, (), timed=4), Kept("g", Aim.SUM, ())
    assert review_text(timed, "en") == (
        "There is no decision of yours to grade in that match: the timer played your turns for you."
    )
    assert review_text(none, "en").startswith("You had no choices to make in that match")
    assert review_text(timed, "nb") == (
        "Det er ingen valg av deg å vurdere i den kampen: klokka spilte turene dine for deg."
    )
