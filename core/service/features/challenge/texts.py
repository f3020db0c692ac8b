"""What the daily challenge says: the channel line, the share, the board, the next start.

Nothing here shows a die: the channel line and the share tell a result, never the rolls.
"""

from __future__ import annotations

from core.game.dice import MatchRecord
from core.service.features.challenge.day import SQUARES, Day, Result, next_start
from core.text.i18n import clock_time, percent, relative_time, t


def accuracy_text(result: Result, lang: str) -> str:
    """`94%` (`94 %` in Danish and Norwegian), or a dash when the turn left nothing to decide."""
    if result.accuracy is None:
        return "—"
    return percent(lang, result.accuracy / 100, 0)


def duration(seconds: int) -> str:
    """`1:05`, `12:40`, `1:02:03`: minutes and seconds, as a stopwatch shows them."""
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def summary(result: Result, lang: str) -> str:
    """`3 left · 94 %`: the result without a die."""
    left = t(lang, "challenge.left", score=result.score)
    return f"{left} · {accuracy_text(result, lang)}"


def channel_line(name: str, number: int, result: Result, streak: int, lang: str) -> str:
    """`Ann finished challenge #42: 3 left · 94 % · 🔥 5`."""
    return t(lang, "challenge.finished", player=name, number=number,
             result=summary(result, lang), streak=streak)  # fmt: skip


def share(number: int, result: Result, streak: int, lang: str) -> str:
    """The share text (one square per decision), then the same for screen readers."""
    squares = "".join(SQUARES[letter] for letter in result.squares)
    head = t(lang, "challenge.share", number=number, result=summary(result, lang), streak=streak)
    words = [t(lang, f"challenge.square.{letter}") for letter in result.squares]
    plain = t(lang, "challenge.share_plain", number=number, score=result.score,
              accuracy=accuracy_text(result, lang), streak=streak,
              decisions=", ".join(words) or "—")  # fmt: skip
    block = f"{head}\n{squares}" if squares else head
    legend = t(lang, "challenge.legend")
    return f"{t(lang, 'challenge.share_intro')}\n```\n{block}\n```\n{legend}\n{plain}"


def next_line(now: float, lang: str) -> str:
    """`Next challenge at 00:00 UTC (in 5 hours).`"""
    start = next_start(now)
    return t(lang, "challenge.next", time=clock_time(lang, 0, 0),
             when=relative_time(lang, start - now))  # fmt: skip


def done_text(day: Day, result: Result, streak: int, now: float, lang: str) -> str:
    """A second `challenge` the same day: the result already played, the day's commitment,
    and when the next challenge starts."""
    played = t(lang, "challenge.already", number=day.number, result=summary(result, lang),
               time=duration(result.seconds), streak=streak)  # fmt: skip
    fixed = t(lang, "challenge.commitment", commitment=day.commitment)
    return f"{played}\n{fixed}\n{next_line(now, lang)}"


def revealed(number: int, record: MatchRecord, lang: str) -> str:
    """Yesterday's seed, now that its day is over: the record anyone can check."""
    return t(lang, "challenge.revealed", number=number, record=record.to_json())


def board_line(rank: int, name: str, result: Result, lang: str) -> str:
    return f"{rank}. {name} — {summary(result, lang)} · {duration(result.seconds)}"
