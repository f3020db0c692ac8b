"""The engine plays turns, rounds and every match format as SPEC sections 1-3 say."""

from __future__ import annotations

import pytest

from core.game.actions import AddBot, Begin, Cancel, Choose, Join, Leave, Roll, Stop, Timeout
from core.game.dice import FixedDice, SeededDice
from core.game.engine import apply
from core.game.errors import IllegalMove, NotAllowed, NotYourTurn, StaleAction
from core.game.events import Dropped, ExtraRoll, MatchEnded, Moved, RoundEnded, TurnEnd, TurnEnded
from core.game.moves import mask_of
from core.game.rules import PRESETS, Rules
from core.game.state import Ending, GameState, Phase
from tests.unit.core.game_helpers import begun, config, play, table

NINE = mask_of([9])
# Ann closes 9+3 and 8+4 with two 6-6s; then 2-2 (4) covers nothing among 1, 2, 5, 6, 7: 21.
ANN_SCORES_21 = (
    (Roll("ann"), [(6, 6)]),
    (Choose("ann", tiles=mask_of([9, 3])), []),
    (Roll("ann"), [(6, 6)]),
    (Choose("ann", tiles=mask_of([8, 4])), []),
    (Roll("ann"), [(2, 2)]),
)
# Under the sailors' rule a first roll of 6-6 covers nothing: a quick 45-point turn for tests.
SAILORS = PRESETS["sailors"]


def test_host_sits_in_seat_one_and_acts_first() -> None:
    """The host sits in seat 1 and acts first in round 1."""
    state = begun("Ann", "Bob")
    assert state.phase is Phase.ROLL
    assert state.to_act is not None and state.to_act.id == "ann"


def test_roll_then_choose_closes_the_tiles() -> None:
    """A roll of 4-5 lets the player close 9; the box shows it closed."""
    state, events = play(begun("Ann"), (Roll("ann"), [(4, 5)]), (Choose("ann", tiles=NINE), []))
    assert state.board == Rules().full_mask & ~NINE
    assert any(isinstance(e, Moved) and e.tiles == NINE for e in events)


def test_roll_without_legal_move_ends_the_turn_with_the_open_tiles() -> None:
    """A roll that cannot be covered ends the turn, and the open tiles are the score."""
    state, events = play(begun("Ann", "Bob"), *ANN_SCORES_21)
    ended = [e for e in events if isinstance(e, TurnEnded)]
    assert ended == [TurnEnded(0, 45 - 24, TurnEnd.NO_MOVE, (2, 2))]
    assert state.to_act is not None and state.to_act.id == "bob"


def test_partial_cover_closes_nothing() -> None:
    """A move that does not add up to the roll is refused and changes nothing."""
    state, _ = play(begun("Ann"), (Roll("ann"), [(4, 5)]))
    with pytest.raises(IllegalMove):
        apply(state, Choose("ann", tiles=mask_of([8])), FixedDice([]))


def test_wrong_player_is_told_whose_turn_it_is() -> None:
    """A button pressed by anyone but the player to act names the player to act."""
    state = begun("Ann", "Bob")
    with pytest.raises(NotYourTurn) as error:
        apply(state, Roll("bob"), FixedDice([]))
    assert error.value.params == {"player": "Ann"}


def test_outdated_message_is_stale() -> None:
    """A click carrying an old version is refused as stale."""
    state = begun("Ann", "Bob")
    old = state.version
    state, _ = play(state, (Roll("ann", version=old), [(4, 5)]))
    with pytest.raises(StaleAction):
        apply(state, Roll("ann", version=old), FixedDice([(1, 1)]))


def test_one_die_only_after_the_high_tiles_are_shut() -> None:
    """One die may be rolled only once 7, 8 and 9 are closed; never in hard mode."""
    state = begun("Ann")
    with pytest.raises(IllegalMove):
        apply(state, Roll("ann", count=1), FixedDice([(3,)]))
    for hard, allowed in ((False, True), (True, False)):
        rules = Rules(one_die=not hard)
        assert (1 in rules.dice_choices(mask_of([1, 2, 3, 4, 5, 6]))) is allowed


def _shut_sequence() -> list[tuple[object, list[tuple[int, ...]]]]:
    """Ann shuts the box: 9, 8, 7, 6+1... with scripted dice."""
    moves = [
        ((4, 5), [9]),
        ((4, 4), [8]),
        ((3, 4), [7]),
        ((3, 3), [6]),
        ((2, 3), [5]),
        ((1, 3), [4]),
        ((1, 2), [3]),
        ((1, 1), [2]),
    ]
    steps: list[tuple[object, list[tuple[int, ...]]]] = []
    for dice, tiles in moves:
        steps += [(Roll("ann"), [dice]), (Choose("ann", tiles=mask_of(tiles)), [])]
    # Now only tile 1 is open: one die is allowed.
    steps += [(Roll("ann", count=1), [(1,)]), (Choose("ann", tiles=mask_of([1])), [])]
    return steps


def test_shutting_the_box_wins_the_round_at_once() -> None:
    """Shutting the box scores 0 and wins the round; players yet to play score the maximum."""
    state = begun("Ann", "Bob", "Cid")
    state, events = play(state, *_shut_sequence())  # type: ignore[arg-type]
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.scores == (0, 45, 45)
    assert ended.winners == (0,) and ended.shut_by == (0,)
    assert state.over and state.winners == (0,)


def test_starting_seat_rotates_each_round() -> None:
    """Round 2 starts with the player in seat 2."""
    state = begun("Ann", "Bob", cfg=config("rounds:2", SAILORS))
    state, _ = play(state, (Roll("ann"), [(6, 6)]), (Roll("bob"), [(6, 6)]))
    assert state.round == 2 and state.to_act is not None and state.to_act.id == "bob"


def test_rounds_format_lowest_total_wins_and_ties_share() -> None:
    """After N rounds the lowest total wins; equal totals share the win."""
    state = begun("Ann", "Bob", cfg=config("rounds:1", SAILORS))
    state, events = play(state, (Roll("ann"), [(6, 6)]), (Roll("bob"), [(6, 6)]))
    assert state.over and state.winners == (0, 1)
    assert next(e for e in events if isinstance(e, RoundEnded)).winners == (0, 1)


# Round 2 (Bob starts): Bob closes 9 then scores 36, Ann scores 45 again: 81 and 90.
BOB_36_ANN_45 = (
    (Roll("bob"), [(4, 5)]),
    (Choose("bob", tiles=NINE), []),
    (Roll("bob"), [(6, 6)]),
    (Roll("ann"), [(6, 6)]),
)


def test_to_45_ends_after_the_round_someone_passes_45() -> None:
    """`to-45`: the match ends after the round in which a total passes 45."""
    state = begun("Ann", "Bob", cfg=config("to-45", SAILORS))
    state, _ = play(state, (Roll("ann"), [(6, 6)]), (Roll("bob"), [(6, 6)]))
    assert not state.over  # 45 each: not past 45 yet
    state, _ = play(state, *BOB_36_ANN_45)
    assert state.over and state.winners == (1,)
    assert [s.total for s in state.seats] == [90, 81]


def test_elimination_last_one_standing_wins() -> None:
    """`elimination`: a player whose total passes 45 is out; the last standing wins."""
    state = begun("Ann", "Bob", cfg=config("elimination", SAILORS))
    state, _ = play(state, (Roll("ann"), [(6, 6)]), (Roll("bob"), [(6, 6)]))
    state, _ = play(state, *BOB_36_ANN_45)
    # Both passed 45 in the same round: the lower total (Bob, 81) wins.
    assert state.over and state.winners == (1,)
    assert all(seat.out for seat in state.seats)


def test_first_shut_plays_on_until_someone_shuts() -> None:
    """`first-shut`: rounds go on until someone shuts the box."""
    state = begun("Ann", cfg=config("first-shut"))
    for _ in range(3):
        state, _ = play(state, *ANN_SCORES_21)
    assert not state.over and state.round == 4
    state, _ = play(state, *_shut_sequence())  # type: ignore[arg-type]
    assert state.over and state.winners == (0,)


def test_bots_play_at_once() -> None:
    """A bot seat plays its whole turn as soon as it is its turn."""
    state = table("Ann", cfg=config("rounds:1", SAILORS))
    state, _ = apply(state, AddBot("ann"), FixedDice([]))
    state, _ = apply(state, Begin("ann"), FixedDice([]))
    state, events = apply(state, Roll("ann"), FixedDice([(6, 6), (6, 6)]))
    assert state.over
    assert [e.seat for e in events if isinstance(e, TurnEnded)] == [0, 1]


def test_timeout_plays_the_turn_and_three_drop_the_player() -> None:
    """A missed deadline auto-plays the turn; three in a row drop the player."""
    state = begun("Ann", "Bob", cfg=config("rounds:5", SAILORS))
    dice = SeededDice(7)
    timeouts, dropped = 0, False
    while not dropped:
        if state.to_act is not None and state.to_act.id == "bob":
            state, _ = apply(state, Roll("bob"), FixedDice([(6, 6)]))
            continue
        state, events = apply(state, Timeout("clock"), dice)
        timeouts += 1
        assert all(e.auto for e in events if isinstance(e, Moved))
        dropped = any(isinstance(e, Dropped) and e.seat == 0 for e in events)
    assert timeouts == 3 and state.seats[0].dropped


def test_dropped_player_scores_the_maximum() -> None:
    """A player who leaves mid-match scores the maximum in the remaining rounds."""
    state = begun("Ann", "Bob", cfg=config("rounds:2", SAILORS))
    state, _ = play(state, (Leave("ann"), []), (Roll("bob"), [(6, 6)]), (Roll("bob"), [(6, 6)]))
    assert [s.total for s in state.seats] == [90, 90]
    assert state.over and state.winners == (1,)


def test_long_game_closer_then_opener_and_extra_roll_on_doubles() -> None:
    """`long`: A closes, B opens what A closed; an unusable double grants another roll."""
    state = begun("Ann", "Bob", cfg=config("long"))
    # After Ann's 2-2 (a double: one more roll), 1-3 covers nothing and ends her turn.
    state, events = play(state, *ANN_SCORES_21, (Roll("ann"), [(1, 3)]))
    assert any(isinstance(e, ExtraRoll) for e in events)
    assert state.to_act is not None and state.to_act.id == "bob"
    state, _ = play(
        state,
        (Roll("bob"), [(6, 6)]),
        (Choose("bob", tiles=mask_of([9, 3])), []),
        (Roll("bob"), [(6, 6)]),
        (Choose("bob", tiles=mask_of([8, 4])), []),
    )
    assert state.over and state.winners == (1,)


def test_lobby_rules() -> None:
    """Only the host starts or cancels; seats are limited; the long game needs two players."""
    state = table("Ann", "Bob")
    with pytest.raises(NotAllowed):
        apply(state, Begin("bob"), FixedDice([]))
    with pytest.raises(IllegalMove):
        apply(state, Join("bob", name="Bob"), FixedDice([]))
    with pytest.raises(IllegalMove):
        apply(table("Ann", cfg=config("long")), Begin("ann"), FixedDice([]))
    full = table("A", "B", "C", "D", "E", "F")
    with pytest.raises(IllegalMove):
        apply(full, Join("g", name="G"), FixedDice([]))
    cancelled, events = apply(state, Cancel("ann"), FixedDice([]))
    assert cancelled.ending is Ending.CANCELLED and isinstance(events[-1], MatchEnded)


def test_stop_needs_host_or_admin() -> None:
    """`stop` is refused to other players and allowed to the host or an admin."""
    state = begun("Ann", "Bob")
    with pytest.raises(NotAllowed):
        apply(state, Stop("bob"), FixedDice([]))
    stopped, _ = apply(state, Stop("bob", admin=True), FixedDice([]))
    assert stopped.ending is Ending.STOPPED


def test_lobby_expires() -> None:
    """A lobby that never starts closes when its deadline passes."""
    state, _ = apply(table("Ann"), Timeout("clock"), FixedDice([]))
    assert state.ending is Ending.EXPIRED


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_text_form_round_trips_through_a_whole_match(preset: str) -> None:
    """Every state of a match survives `to_str`/`from_str` unchanged."""
    state = begun("Ann", "Bob Ø;:/,%", cfg=config("rounds:2", PRESETS[preset], hints=False))
    dice = SeededDice(preset)
    while not state.over:
        assert GameState.from_str(state.to_str()) == state
        state, _ = apply(state, Timeout("clock"), dice)
    assert GameState.from_str(state.to_str()) == state
