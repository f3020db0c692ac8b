"""Ratings: who is rated, the places they are rated by, and the shown number."""

from __future__ import annotations

from core.game.events import MatchEnded
from core.game.state import Ending, GameState
from core.service.features.ratings import ranks, rated, updated
from core.service.features.skill import Skill
from tests.unit.core.game_helpers import begun

ENDED = (MatchEnded(Ending.FINISHED, (1,)),)


def finished(*totals: int, winners: tuple[int, ...] = (1,)) -> GameState:
    state = begun(*(f"P{i}" for i in range(len(totals))))
    for index, total in enumerate(totals):
        state = state.with_seat(index, total=total, idle=False)  # each made a decision
    return state.evolve(winners=winners)


def test_winners_first_then_by_total_with_ties_sharing() -> None:
    state = finished(20, 5, 20, 30)
    assert ranks(state, (0, 1, 2, 3)) == [2, 1, 2, 4]


def test_only_a_finished_match_of_two_humans_or_more_is_rated() -> None:
    state = finished(20, 5)
    assert rated(state, ENDED, solo=False) == (0, 1)
    assert rated(state, ENDED, solo=True) == ()
    assert rated(state, (MatchEnded(Ending.STOPPED, ()),), solo=False) == ()
    assert rated(state, (), solo=False) == ()


def test_a_match_without_a_winner_or_a_decision_is_not_rated() -> None:
    """Everyone left ("No winner"), or nobody made a decision (void): no rating moves."""
    assert rated(finished(45, 45, winners=()), ENDED, solo=False) == ()
    void = finished(20, 5)
    for index in (0, 1):
        void = void.with_seat(index, idle=True)
    assert void.void and rated(void, ENDED, solo=False) == ()


def test_a_newcomer_shows_1500_and_a_win_raises_it() -> None:
    state = finished(20, 5)
    after = updated(state, (0, 1), {})
    assert Skill().shown == 1500
    assert after["p1"].shown > 1500 > after["p0"].shown
    assert Skill.from_str(after["p1"].to_str()).shown == after["p1"].shown
