"""Totals, round and match results say who won, by how much, and why the match ended."""

from __future__ import annotations

import pytest

from core.game.actions import Begin, Choose, Roll
from core.game.engine import new_game
from core.game.match import MatchConfig, MatchFormat, Stakes
from core.game.rules import preset
from core.game.settlement import Pot
from core.service.model.record import GameRecord
from core.service.model.views import Reply
from core.text.i18n import t
from tests.unit.core.service.show.test_narrate import DOUBLE_SIX, act, body, sailors_table


def match_summary(reply: Reply) -> str:
    return next(text for text in reply.public if text.startswith("**Match over**"))


def test_the_total_includes_the_round_being_played() -> None:
    """Ann's 45 this round is in her total while Bob plays, in every language."""
    record, _ = act(sailors_table("rounds:3"), Begin("ann"))
    record, reply = act(record, Roll("ann"), [DOUBLE_SIX])
    assert "Ann: 45 (total 45)" in body(reply)
    record, _ = act(record, Roll("bob"), [(5, 5)])  # Bob 45 too: round 2 begins
    record, reply = act(record, Roll("bob"), [DOUBLE_SIX])  # Bob starts round 2
    assert "Bob: 45 (total 90)" in body(reply) and "Ann: — (total 45)" in body(reply)


def test_the_match_summary_names_the_winner() -> None:
    """`Match over` says who won the match on the same line."""
    record, _ = act(sailors_table("rounds:1"), Begin("ann"))
    record, _ = act(record, Roll("ann"), [DOUBLE_SIX])  # Ann 45
    record, _ = act(record, Roll("bob"), [(4, 5)])
    record, _ = act(record, Choose("bob", tiles=1 << 8))  # Bob closes 9
    _, reply = act(record, Roll("bob"), [DOUBLE_SIX])  # and ends on 36
    assert match_summary(reply).splitlines()[0] == "**Match over**: 🏆 Bob wins the match."


def test_a_shared_match_win_says_so() -> None:
    record, _ = act(sailors_table("rounds:1"), Begin("ann"))
    record, _ = act(record, Roll("ann"), [DOUBLE_SIX])
    _, reply = act(record, Roll("bob"), [DOUBLE_SIX])
    assert (
        match_summary(reply).splitlines()[0]
        == "**Match over**: 🏆 Ann and Bob share the match win."
    )


@pytest.mark.parametrize(
    ("fmt", "line"),
    [
        ("to-45", "Ann (90) and Bob (90) passed 45, which ends the match: the lowest total wins."),
        (
            "elimination",
            "Out for passing 45: Ann (90) and Bob (90). The last player standing wins.",
        ),
    ],
)
def test_to_45_and_elimination_say_who_passed_45(fmt: str, line: str) -> None:
    """Both players score 45 twice: the match ends on totals past 45, and the summary says whose."""
    record, _ = act(sailors_table(fmt), Begin("ann"))
    reply = None
    for _ in range(2):
        record, _ = act(record, Roll(record.state.to_act.id), [DOUBLE_SIX])  # type: ignore[union-attr]
        record, reply = act(record, Roll(record.state.to_act.id), [DOUBLE_SIX])  # type: ignore[union-attr]
    assert record.state.over and reply is not None
    assert line in match_summary(reply)


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
def test_a_solo_game_ends_with_the_total_not_a_win(lang: str) -> None:
    """Alone at the table there is nobody to beat: no "wins!", no "rounds won"."""
    cfg = MatchConfig(
        rules=preset("sailors"), format=MatchFormat.parse("rounds:1"), stakes=Stakes.parse("none")
    )
    record = GameRecord(new_game(cfg, "ann", "Ann"), "c1", "g1", pot=Pot("pot:c1"), lang=lang)
    record, _ = act(record, Begin("ann"))
    record, reply = act(record, Roll("ann"), [DOUBLE_SIX])
    assert record.state.over
    shown = body(reply) + "\n".join(reply.public)
    assert "🏆" not in shown and "🏁 Ann" in shown and "45" in shown
    assert t(lang, "summary.round_solo", n=1, scores="Ann 45") in shown
    assert {"en": "rounds won", "da": "vundne runder", "nb": "vunne runder"}[lang] not in shown
