"""The game message: every legal move reachable, the deadline placeholder, both board styles."""

from __future__ import annotations

from core.game.actions import Choose, Roll
from core.game.dice import FixedDice
from core.game.engine import apply
from core.game.rules import CloseRule, Rules
from core.game.state import Phase
from core.service.model.buttons import parse_button
from core.service.model.record import GameRecord
from core.service.model.views import DEADLINE
from core.service.show.present import MOVES_PER_PAGE, game_view
from tests.unit.core.game_helpers import begun, config

TWELVE_THREE_DICE = Rules(tiles=12, dice=3)


def _choosing(rules: Rules, dice: tuple[int, ...]) -> GameRecord:
    state = begun("Ann", "Bob", cfg=config("rounds:1", rules))
    state, _ = apply(state, Roll("ann", count=rules.dice), FixedDice([dice]))
    return GameRecord(state, "c1", "g1")


def test_every_legal_move_is_reachable_across_pages() -> None:
    """With more moves than buttons fit, `More moves` pages through all of them."""
    record = _choosing(TWELVE_THREE_DICE, (6, 6, 6))
    legal = TWELVE_THREE_DICE.allows(record.state.board, (6, 6, 6)).moves
    assert len(legal) > MOVES_PER_PAGE
    seen: set[int] = set()
    page = 0
    for _ in range(len(legal)):
        view = game_view(record, page=page)
        assert len(view.rows) <= 5 and all(len(row) <= 5 for row in view.rows)
        ids = [parse_button(b.action_id) for row in view.rows for b in row]
        seen |= {b.arg for b in ids if b.verb == "choose"}
        page = next(b.arg for b in ids if b.verb == "page")
        if page == 0:
            break
    assert seen == set(legal)


def test_the_turn_prompt_carries_the_deadline_and_whose_turn() -> None:
    """The game message names the player to act and leaves `{deadline}` for the chat client."""
    view = game_view(GameRecord(begun("Ann", "Bob"), "c1", "g1", deadline=1_900_000_000))
    assert "Ann" in view.body and DEADLINE in view.body and view.deadline == 1_900_000_000
    assert [b.label for b in view.rows[0]] == ["Roll", "Hint"]


def test_one_die_is_offered_once_the_high_tiles_are_shut() -> None:
    """After 7, 8 and 9 are closed the player sees Roll 1 die and Roll 2 dice."""
    state = begun("Ann", "Bob")
    for dice, tiles in (((4, 5), 0b100000000), ((4, 4), 0b10000000), ((3, 4), 0b1000000)):
        state, _ = apply(state, Roll("ann"), FixedDice([dice]))
        state, _ = apply(state, Choose("ann", tiles=tiles), FixedDice([]))
    labels = [b.label for b in game_view(GameRecord(state, "c1", "g1")).rows[0]]
    assert labels == ["Roll 1 die", "Roll 2 dice", "Hint"]


def test_text_style_board_is_monospace_and_readable() -> None:
    """The text style shows `| 1 | 2 | … |` in a code span; tiles above 10 render too."""
    state = begun("Ann", cfg=config("rounds:1", Rules(tiles=12)))
    view = game_view(GameRecord(state, "c1", "g1", style="text"))
    assert "`|  1 |  2 |" in view.body and "| 12 |`" in view.body


def test_danish_game_message() -> None:
    """A Danish server's game message is in Danish."""
    view = game_view(GameRecord(begun("Ann", "Bob"), "c1", "g1", lang="da"))
    assert "Slå" in " ".join(b.label for row in view.rows for b in row)


def _opener_choosing(*, ends_turn: bool) -> GameRecord:
    """The long game's opener (Bob) has rolled 5-6 on a box with 5 and 6 closed."""
    rules = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
    state = begun("Ann", "Bob", cfg=config("long", rules))
    state = state.evolve(turn=1, phase=Phase.CHOOSE, dice=(5, 6), board=0b111001111,
                         ends_turn=ends_turn)  # fmt: skip
    return GameRecord(state, "c1", "g1")


def test_the_long_game_s_opener_is_asked_to_open_tiles() -> None:
    """The opener picks closed tiles to open (or one die's tile under last-die), never to close."""
    body = game_view(_opener_choosing(ends_turn=False)).body
    assert "**Bob** rolled ⚄ ⚅ = 11: pick the closed tiles to open." in body
    last = game_view(_opener_choosing(ends_turn=True)).body
    assert "nothing fits, but you may open one die’s tile, and your turn ends there." in last
    assert "close" not in body.replace("closed", "").replace("closes", "")
