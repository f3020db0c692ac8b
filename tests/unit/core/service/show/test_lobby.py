"""The lobby explains the format and stakes, the most a player can lose, and what bots play for."""

from __future__ import annotations

import pytest

from core.game.actions import Begin, Choose, Roll
from core.game.dice import FixedDice
from core.game.engine import apply, new_game
from core.game.match import MatchConfig, MatchFormat, Stakes
from core.game.rules import preset
from core.game.settlement import Pot
from core.service.model.record import GameRecord
from core.service.pipeline.game_commit import plan_change
from core.service.show.present import game_view
from core.text.i18n import t
from tests.unit.core.service.show.test_narrate import DOUBLE_SIX, SCOPE, act, sailors_table


def lobby(fmt: str, stakes: str = "none", *, lang: str = "en", hints: bool = True) -> str:
    cfg = MatchConfig(
        rules=preset("classic"), format=MatchFormat.parse(fmt), stakes=Stakes.parse(stakes),
        hints=hints,
    )  # fmt: skip
    record = GameRecord(new_game(cfg, "ann", "Ann"), "c1", "g1", pot=Pot("pot:c1"), lang=lang)
    return game_view(record).body


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
@pytest.mark.parametrize("fmt", ["rounds:3", "to-45", "elimination", "first-shut", "long"])
@pytest.mark.parametrize("stakes", ["none", "pot:5", "canoga:2"])
def test_the_lobby_explains_its_format_and_stakes(lang: str, fmt: str, stakes: str) -> None:
    """One line each: what the format and the stakes mean, in the table's language."""
    if fmt == "long" and stakes.startswith("canoga"):
        return  # refused when the lobby opens
    kind = MatchFormat.parse(fmt).kind.value
    body = lobby(fmt, stakes, lang=lang)
    assert t(lang, f"format.{kind}.description") in body
    stakes_kind = Stakes.parse(stakes).kind.value
    explained = (
        "stakes.pot.long"
        if fmt == "long" and stakes_kind == "pot"
        else (f"stakes.{stakes_kind}.description")
    )
    assert (t(lang, explained) in body) is (stakes != "none")


def test_a_canoga_lobby_shows_the_most_a_player_can_lose() -> None:
    """45 points × 2 chips, doubled on a shut: 180 a round, 540 over three rounds."""
    body = lobby("rounds:3", "canoga:2")
    assert "💸 The most a player can lose: 180 chips a round, 540 chips over the match." in body
    assert "💸 The most a player can lose: 180 chips a round." in lobby("to-45", "canoga:2")
    assert "💸 The most a player can lose: 10 chips a round." in lobby("rounds:1", "pot:5")
    assert "💸" not in lobby("rounds:3")


def test_the_long_game_lobby_has_no_scoring_and_antes_once() -> None:
    """The long game has no scores and one pot for the match."""
    body = lobby("long", "pot:5")
    assert "golf scoring" not in body and "a round" not in body
    assert "pot, 5 chips for the match" in body
    assert "💸 The most a player can lose: the ante, 5 chips." in body


def test_hints_off_is_shown() -> None:
    assert "Hints: off" in lobby("rounds:1", hints=False)
    assert "Hints" not in lobby("rounds:1")


def test_stakes_with_a_bot_say_bots_play_for_nothing() -> None:
    record = sailors_table(stakes="pot:5", bot=True)
    assert "🤖 Bots play for nothing" in game_view(record).body
    assert "🤖 Bots play for nothing" not in game_view(sailors_table(stakes="pot:5")).body
    assert "🤖 Bots play for nothing" not in game_view(sailors_table(bot=True)).body


def _canoga_round(balances: dict[str, int], stakes: str = "canoga") -> str:
    """Ann scores 45 (a first 6-6 under the sailors' rule); Bob closes 9 and scores 36, so Ann
    owes Bob 9 points' worth. Returns the round summary."""
    record, _ = act(sailors_table("rounds:2", stakes=stakes), Begin("ann"))
    reply = None
    for action, rolls in [
        (Roll("ann"), [DOUBLE_SIX]), (Roll("bob"), [(4, 5)]), (Choose("bob", tiles=1 << 8), []),
        (Roll("bob"), [DOUBLE_SIX]),
    ]:  # fmt: skip
        state, events = apply(record.state, action, FixedDice(rolls))
        plan = plan_change(
            SCOPE, record, state, events, balances=balances, now=0, request_id=None,
            start_balance=100, fair=None,
        )  # fmt: skip
        record, reply = plan.final, plan.reply
    assert reply is not None
    return reply.public[0]


def test_a_capped_canoga_payment_is_said_in_the_round_summary() -> None:
    """Ann owes 9 chips but has 5: she pays 5, and the summary says so."""
    summary = _canoga_round({"ann": 5, "bob": 100})
    assert "💰 Ann → Bob: 5 chips" in summary
    assert "Ann paid all they had: 5 chips of 9." in summary


def test_a_full_canoga_payment_says_nothing_more() -> None:
    summary = _canoga_round({"ann": 100, "bob": 100})
    assert "💰 Ann → Bob: 9 chips" in summary and "paid all" not in summary


def test_a_canoga_round_a_bot_wins_says_nobody_pays() -> None:
    """Ann scores 45 and the bot less: bots win no chips, and the summary says so."""
    record, _ = act(sailors_table("rounds:2", stakes="canoga", bot=True), Begin("ann"))
    _, reply = act(record, Roll("ann"), [DOUBLE_SIX, (3, 4), DOUBLE_SIX, DOUBLE_SIX])
    assert (
        "🤖 Bot 1 won the round, and bots win no chips: nobody pays this round."
        in (reply.public[0])
    )
