"""The standings the channel is told after each round: a Swiss counts points, opponents and
the average; a knockout says who is still in, who went out where with what score, and the
winner, in every language."""

from __future__ import annotations

import random

import pytest

from core.game.tournament.exits import exits
from core.game.tournament.progress import record, start
from core.game.tournament.values import Kind, TableResult
from core.service.features.tournaments.texts import standings_text
from core.text.i18n import LANGS, t
from tests.unit.core.game.tournament.helpers import SEED, entered, played


@pytest.mark.parametrize("lang", LANGS)
def test_a_knockout_after_round_one_says_who_is_in_and_who_went_out_where(lang: str) -> None:
    tournament = start(entered(4, Kind.KNOCKOUT, 2), SEED)
    (a, b), (c, d) = (table.seats for table in tournament.rounds[0].tables)
    tournament = record(tournament, 1, 1, TableResult((a,), (3, 17)))
    tournament = record(tournament, 1, 2, TableResult((d,), (25, 0)))
    lines = standings_text(tournament, lang).splitlines()
    still_in = t(lang, "tournament.knockout.in")
    out_b = t(lang, "tournament.knockout.out", round=1, table=1, score=17)
    out_c = t(lang, "tournament.knockout.out", round=1, table=2, score=25)
    name = tournament.name_of
    # both still in went on from their table: the lower score there first; then the beaten
    assert lines[1:5] == [
        t(lang, "tournament.knockout.line", place=1, player=name(d), status=still_in),
        t(lang, "tournament.knockout.line", place=2, player=name(a), status=still_in),
        t(lang, "tournament.knockout.line", place=3, player=name(b), status=out_b),
        t(lang, "tournament.knockout.line", place=4, player=name(c), status=out_c),
    ]
    assert lines[-1] == t(lang, "tournament.tiebreaks.knockout")


@pytest.mark.parametrize("lang", LANGS)
def test_a_finished_knockout_names_its_winner_first(lang: str) -> None:
    final = played(entered(5, Kind.KNOCKOUT, 2), random.Random(5))[-1]
    lines = standings_text(final, lang).splitlines()
    champion = final.name_of(exits(final)[0].player)
    assert lines[1] == t(lang, "tournament.knockout.line", place=1, player=champion,
                         status=t(lang, "tournament.knockout.champion"))  # fmt: skip
    assert len(lines) == 1 + 5 + 1


def test_a_swiss_keeps_its_points_opponents_and_average() -> None:
    final = played(entered(4, Kind.SWISS, 2, rounds=2), random.Random(4))[-1]
    lines = standings_text(final, "en").splitlines()
    assert all(" point" in line and "opponents" in line for line in lines[1:5])
