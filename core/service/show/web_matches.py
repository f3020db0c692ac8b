"""The matches on a server's page: the recent ones, one match's replay, a player's own.

Read from the history (core/service/features/history.py). A replay lists every turn in order in the
words the game message uses, then each player's decisions graded against perfect play exactly
as the Review shows them, and the fair-dice record when there is one. Names are the ones the
players had when the match ended; links to players go by page token, never by id.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.game.rules import Rules
from core.service.features import history, reviews
from core.service.features.history import Match
from core.service.model import turns
from core.service.model.commit import Scope
from core.service.model.ports import GameStore
from core.service.show.web_views import plain, player_token
from core.text.i18n import day, t
from core.text.render import describe_rules, render_board

PER_PAGE = 20


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    player: str  # the page token; "" for a bot
    total: int
    winner: bool
    role: str = ""  # the long game's, which has no scores: "closes tiles" or "opens them"

    @property
    def shown(self) -> str:
        """What stands beside the name: the total, or in the long game the role."""
        return self.role or str(self.total)


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: str
    date: str
    ending: str
    seats: tuple[Seat, ...]
    fair: bool
    long: bool = False


@dataclass(frozen=True, slots=True)
class Point:
    date: str
    rating: int


@dataclass(frozen=True, slots=True)
class TurnRow:
    round: int  # 0 in the long game, which has no rounds
    name: str
    text: str
    auto: bool
    board: str  # the box as the turn left it (in the long game, the one box both play on)


@dataclass(frozen=True, slots=True)
class Graded:
    name: str
    player: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    row: MatchRow
    rules: str
    turns: tuple[TurnRow, ...]
    graded: tuple[Graded, ...]
    record: str  # the fair-dice record, "" when none


async def entries(store: GameStore, scope: Scope) -> list[Match]:
    found = await store.newest(scope, history.KEY, history.KEEP)
    return [match for text in found if (match := Match.from_json(text)) is not None]


LONG_ROLES = ("web.match.closer", "web.match.opener")


def row_of(match: Match, slug: str, lang: str) -> MatchRow:
    roles = [t(lang, key) for key in LONG_ROLES] if match.long else []
    seats = tuple(
        Seat(p.name, "" if p.bot else player_token(slug, p.id), p.total, p.winner,
             roles[index] if index < len(roles) else "")
        for index, p in enumerate(match.players)
    )  # fmt: skip
    ending = t(lang, f"web.match.{match.ending}")
    return MatchRow(match.id, day(lang, match.ended), ending, seats, bool(match.fair), match.long)


async def recent(
    store: GameStore, scope: Scope, slug: str, lang: str, page: int = 0, user: str | None = None
) -> tuple[tuple[MatchRow, ...], int, int]:
    """One page of the newest matches (of `user` only, if given): rows, page, pages."""
    found = [m for m in await entries(store, scope) if user is None or m.has(user)]
    pages = max(1, -(-len(found) // PER_PAGE))
    page = min(max(page, 0), pages - 1)
    shown = found[page * PER_PAGE : (page + 1) * PER_PAGE]
    return tuple(row_of(match, slug, lang) for match in shown), page, pages


async def ratings(store: GameStore, scope: Scope, user: str, lang: str) -> tuple[Point, ...]:
    """The player's rating after each rated match still in the history, oldest first."""
    points = [
        Point(day(lang, match.ended), player.rating)
        for match in reversed(await entries(store, scope))
        for player in match.players
        if player.id == user and player.rating
    ]
    return tuple(points)


async def find(store: GameStore, scope: Scope, match_id: str) -> Match | None:
    return next((m for m in await entries(store, scope) if m.id == match_id), None)


async def replay(
    store: GameStore, scope: Scope, slug: str, match_id: str, lang: str
) -> Replay | None:
    match = await find(store, scope, match_id)
    if match is None:
        return None
    rules = Rules.from_str(match.rules)
    names = [p.name for p in match.players]
    boxes = _long_boxes(match, rules) if match.long else [rules.full_mask] * len(match.log)
    played = tuple(
        TurnRow(0 if match.long else turn.round, names[seat] if seat < len(names) else "?",
                turns.words(turn.steps, rules, match.long and seat == 1, lang, "emoji"),
                turn.auto, _board_after(turn.steps, rules, box, opens=match.long and seat == 1))
        for (seat, turn), box in zip(match.log, boxes, strict=True)
    )  # fmt: skip
    graded = tuple(
        Graded(p.name, player_token(slug, p.id), _review_lines(p.review, lang))
        for p in match.players if not p.bot and p.review
    )  # fmt: skip
    told = describe_rules(rules, lang, scoring=not match.long)
    if match.long:
        told = f"{t(lang, 'format.long.title')} · {told}"
    return Replay(row_of(match, slug, lang), told, played, graded,
                  match.fair)  # fmt: skip


def _moved(board: int, steps: tuple[str, ...], *, opens: bool) -> int:
    """The open tiles after a turn's moves: closed, or opened by the long game's opener."""
    for step in steps:
        if step.startswith(turns.MOVED):
            board = board | int(step[1:]) if opens else board & ~int(step[1:])
    return board


def _long_boxes(match: Match, rules: Rules) -> list[int]:
    """The long game's one box as each turn found it: it passes on as it stands."""
    boxes, board = [], rules.full_mask
    for seat, turn in match.log:
        boxes.append(board)
        board = _moved(board, turn.steps, opens=seat == 1)
    return boxes


def _board_after(steps: tuple[str, ...], rules: Rules, start: int, *, opens: bool) -> str:
    """The box after a turn that began with the tiles of `start` open."""
    return render_board(rules, _moved(start, steps, opens=opens), "text")


def _review_lines(kept: str, lang: str) -> tuple[str, ...]:
    """The Review's lines without its title (which speaks to the player: "Your play ...")."""
    lines = reviews.review_text(reviews.Kept.from_str(kept), lang).split("\n")
    return tuple(plain(line) for line in (lines[1:] if len(lines) > 1 else lines))
