"""The daily challenge's pure parts: the day's seed and dice, squares, streaks, results, texts."""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

import pytest

from core.game.ai.review import Aim, Decision, Kind
from core.game.dice import fair_roll, verify_record
from core.game.rules import Rules
from core.service.features.challenge.day import (
    Day,
    Result,
    Streak,
    Tag,
    day_of,
    day_of_game,
    game_id_of,
    next_start,
    squares,
)
from core.service.features.challenge.texts import channel_line, done_text, duration, share
from core.service.model.commit import Scope

SECRET = "ab" * 32
SCOPE = Scope("discord", "42")
DAY = date(2027, 1, 15)
NOON = 1_800_014_400.0  # 2027-01-15 12:00 UTC


def test_the_day_seed_is_the_hmac_of_the_days_label_under_the_secret() -> None:
    label = b"challenge|discord:42|2027-01-15"
    expected = hmac.new(bytes.fromhex(SECRET), label, hashlib.sha256).hexdigest()
    day = Day(SCOPE, DAY, 3, SECRET)
    assert day.seed == expected
    assert day.commitment == hashlib.sha256(bytes.fromhex(expected)).hexdigest()
    assert SECRET not in repr(day) and expected not in repr(day)


def test_days_and_servers_get_their_own_seeds() -> None:
    seeds = {
        Day(SCOPE, DAY, 1, SECRET).seed,
        Day(SCOPE, date(2027, 1, 16), 2, SECRET).seed,
        Day(Scope("discord", "43"), DAY, 1, SECRET).seed,
        Day(Scope("slack", "42"), DAY, 1, SECRET).seed,
    }
    assert len(seeds) == 4


def test_the_days_record_holds_every_roll_a_turn_can_use_and_verifies() -> None:
    day = Day(SCOPE, DAY, 1, SECRET)
    record = day.record(Rules(tiles=12, dice=3))
    assert len(record.rolls) == 13 and all(len(roll) == 3 for roll in record.rolls)
    assert verify_record(record).ok
    # One die is the first die of the day's roll: the choice does not change the dice.
    assert fair_roll(day.seed, day.client_seed, 4, 1) == record.rolls[4][:1]


def test_yesterday_is_the_day_before_and_the_first_day_has_none() -> None:
    assert Day(SCOPE, DAY, 1, SECRET).previous() is None
    before = Day(SCOPE, DAY, 2, SECRET).previous()
    assert before is not None and (before.day, before.number) == (date(2027, 1, 14), 1)


def test_utc_days_game_ids_and_the_next_start() -> None:
    assert day_of(NOON) == DAY and day_of(NOON + 43_199) == DAY and day_of(NOON + 43_200) != DAY
    assert next_start(NOON) == NOON + 43_200
    assert game_id_of(DAY) == "c20270115" and day_of_game("c20270115") == DAY
    assert day_of_game("c1a2b3c4") is None and day_of_game("c20271315") is None
    assert day_of_game("deadbeef") is None
    assert day_of_game("c٢٠٢٧٠١١٥") is None  # Arabic-Indic digits: int() reads them, we don't
    assert day_of_game("c2027011²") is None


def test_squares_grade_each_decision_by_its_loss() -> None:
    best = Decision(Kind.MOVE, (3, 4), 64, 64, 0.0)
    small = Decision(Kind.MOVE, (3, 4), 8, 64, 0.4)
    big = Decision(Kind.MOVE, (3, 4), 8, 64, 1.0)
    assert squares([best, small, big], Aim.SUM) == "gyr"
    assert squares([small], Aim.COUNT) == "r"  # 0.4 of a tile is a big loss


def test_streaks_count_consecutive_days_and_break_after_a_missed_one() -> None:
    streak = Streak()
    for day in (date(2027, 1, 14), DAY, date(2027, 1, 16)):
        streak = streak.after(day)
    assert (streak.current, streak.best, streak.played) == (3, 3, 3)
    assert streak.after(date(2027, 1, 16)) == streak  # the same day twice counts once
    assert streak.on(date(2027, 1, 17)) == 3 and streak.on(date(2027, 1, 18)) == 0
    later = streak.after(date(2027, 1, 20))
    assert (later.current, later.best, later.played) == (1, 3, 4)
    assert Streak.from_str(later.to_str()) == later and Streak.from_str("") == Streak()


def test_results_order_by_score_then_accuracy_then_time() -> None:
    results = [
        Result(3, 80.0, 30, "gy"),
        Result(3, 90.0, 90, "gg"),
        Result(2, 10.0, 500, "rr"),
        Result(3, 90.0, 60, "gg"),
    ]
    ranked = sorted(results, key=lambda r: r.rank_value)
    assert [(r.score, r.accuracy, r.seconds) for r in ranked] == [
        (2, 10.0, 500), (3, 90.0, 60), (3, 90.0, 90), (3, 80.0, 30),
    ]  # fmt: skip
    for result in (*results, Result(0, None, 5, "")):
        assert Result.from_str(result.to_str()) == result
    assert Result.from_str("s") is None
    assert Tag.from_str(Tag(DAY, 42, "da").to_str()) == Tag(DAY, 42, "da")


@pytest.mark.parametrize(
    ("parse", "text"),
    [(Result.from_str, "r ² 90.0000 75 gg"), (Result.from_str, "r 3 90.0000 ٧٥ gg"),
     (Streak.from_str, "2027-01-15 ٣ 3 3"), (Streak.from_str, "2027-01-15 1 ² 1"),
     (Tag.from_str, "2027-01-15 ٤٢ da")],
)  # fmt: skip
def test_a_stored_number_in_other_digits_does_not_parse(parse: object, text: str) -> None:
    """Only ASCII digits are digits: `٣` is refused like `x`, never read as 3."""
    with pytest.raises(ValueError):
        parse(text)  # type: ignore[operator]


RESULT = Result(3, 94.1, 75, "ggyr")


@pytest.mark.parametrize(
    ("lang", "line", "head", "plain"),
    [
        ("en", "Ann finished challenge #42: 3 left · 94% · 🔥 5",
         "Shut the Box #42 · 3 left · 94% · 🔥5",
         "In words: Shut the Box challenge 42, 3 left, accuracy 94%, streak 5 days. "
         "Decisions: best, best, small loss, big loss."),
        ("da", "Ann klarede udfordring #42: 3 tilbage · 94\u00a0% · 🔥 5",
         "Shut the Box #42 · 3 tilbage · 94\u00a0% · 🔥5",
         "Med ord: Shut the Box-udfordring 42, 3 tilbage, træfsikkerhed 94\u00a0%, "
         "stime på 5 dage. "
         "Valg: bedst, bedst, lille tab, stort tab."),
        ("nb", "Ann fullførte utfordring #42: 3 igjen · 94\u00a0% · 🔥 5",
         "Shut the Box #42 · 3 igjen · 94\u00a0% · 🔥5",
         "Med ord: Shut the Box-utfordring 42, 3 igjen, treffsikkerhet 94\u00a0%, "
         "rekke på 5 dager. "
         "Valg: best, best, lite tap, stort tap."),
    ],
)  # fmt: skip
def test_the_channel_line_and_the_share_in_each_language(
    lang: str, line: str, head: str, plain: str
) -> None:
    """No die in either; the share has one square per decision and a plain-text version."""
    assert channel_line("Ann", 42, RESULT, 5, lang) == line
    text = share(42, RESULT, 5, lang)
    lines = text.splitlines()
    assert lines[1:4] == ["```", head, "🟩🟩🟨🟥"] and lines[4] == "```"
    assert lines[5].startswith("🟩 ") and lines[6] == plain


@pytest.mark.parametrize(
    ("lang", "next_line"),
    [
        ("en", "Next challenge at 12:00\u202fAM UTC (in 12 hours)."),
        ("da", "Næste udfordring kl. 00.00 UTC (om 12 timer)."),
        ("nb", "Neste utfordring kl. 00:00 UTC (om 12 timer)."),
    ],
)
def test_a_second_attempt_names_the_result_and_the_next_start(lang: str, next_line: str) -> None:
    text = done_text(Day(SCOPE, DAY, 42, SECRET), RESULT, 5, NOON, lang)
    assert text.splitlines()[-1] == next_line and "1:15" in text


def test_durations_read_like_a_stopwatch() -> None:
    assert [duration(s) for s in (0, 65, 760, 3723)] == ["0:00", "1:05", "12:40", "1:02:03"]
