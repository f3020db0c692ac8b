"""How a leaderboard reads: shared places for equal values, a title that names the rules it
ranks, an empty board that says what puts a player on it, pages that exist, and the Previous /
Next buttons that name a board, its rules and its season."""

from __future__ import annotations

from collections.abc import Sequence

from core.game.errors import InvalidOption
from core.game.rules import PRESETS
from core.service.model import keys
from core.service.model.buttons import ButtonId
from core.service.model.commit import Scope
from core.service.model.ports import GameStore
from core.service.model.views import Button
from core.text.i18n import t
from core.text.render import preset_heading

PER_RULES = ("best", "average")  # the boards kept per rule set; the others count every game
LOWER_IS_BETTER = ("best", "average")

EVERYONE = 10_000  # how many rows a board reads to place the viewer and rank players
MIN_TURNS_FOR_AVERAGE = 3
MIN_DECISIONS_FOR_ACCURACY = 20  # a handful of lucky choices is no ranking


def places(rows: Sequence[tuple[str, float]]) -> list[int]:
    """Each row's place, best first: equal values share a place, and the next place skips
    (1, 2, 2, 4), as `rank` counts them."""
    found: list[int] = []
    for index, (_, value) in enumerate(rows):
        same = index and value == rows[index - 1][1]
        found.append(found[-1] if same else index + 1)
    return found


def position(rows: Sequence[tuple[str, float]], user: str, board: str) -> int | None:
    """1 + how many players are strictly ahead (ties share a place); None when not listed."""
    mine = dict(rows).get(user)
    if mine is None:
        return None
    sign = -1 if board in LOWER_IS_BETTER else 1
    return 1 + sum(1 for _, value in rows if sign * (value - mine) > 0)


def check_preset(board: str, preset: str | None) -> None:
    """A board that counts every game, whatever the rules, refuses a preset it would ignore."""
    if preset is not None and board not in PER_RULES:
        raise InvalidOption("error.board.preset", board=board, boards=", ".join(PER_RULES))


def title(board: str, preset: str | None, lang: str, minimum: int) -> str:
    """The board's title; a board per rule set names its rules (classic when none is given)."""
    text = t(lang, f"board.title.{board}", min=minimum)
    if board in PER_RULES:
        name = (preset or "classic").strip().lower()
        text += " · " + (preset_heading(name, lang) if name in PRESETS else name)
    return text


def empty(board: str, lang: str, minimum: int) -> str:
    """What puts a player on an empty board."""
    return t(lang, f"board.empty.{board}", min=minimum)


def check_page(page: int, pages: int) -> None:
    """A page past the end is refused with how many there are (never the last page instead)."""
    if page >= pages:
        raise InvalidOption("error.board.page", page=page + 1, pages=pages)


SEASON_STEP = 100  # a board button's number: season × 100 + preset number (< 100 presets)


def page_buttons(
    board: str, preset: str | None, page: int, pages: int, lang: str, season: int | None = None
) -> tuple[tuple[Button, ...], ...]:
    """Previous / Next under a leaderboard: `stb:board:<board>:<board number>:<page>`, where the
    board number is the archived season × 100 + the preset's number (see `board_of`)."""
    number = list(PRESETS).index(preset) + 1 if preset in PRESETS else 0
    number += (season or 0) * SEASON_STEP
    buttons = [
        Button(str(ButtonId("board", board, number, target)), t(lang, key))
        for key, target, shown in (("ui.previous", page - 1, page > 0),
                                   ("ui.next", page + 1, page + 1 < pages))
        if shown
    ]  # fmt: skip
    return (tuple(buttons),) if buttons else ()


def board_of(number: int) -> tuple[str | None, int | None]:
    """The preset (None: the server's default, classic) and archived season (None: the
    current one) a board button names."""
    names = list(PRESETS)
    preset, season = number % SEASON_STEP, number // SEASON_STEP
    return (names[preset - 1] if 0 < preset <= len(names) else None), (season or None)


async def averages(
    store: GameStore, scope: Scope, rules: str, season: int | None
) -> list[tuple[str, float]]:
    """Lowest average score per turn, among players with a few turns behind them."""
    turns = await _everyone(store, scope, f"turns:{rules}", season)
    sums = await _everyone(store, scope, f"sum:{rules}", season)
    averages = [(user, sums.get(user, 0) / n) for user, n in turns.items()
                if n >= MIN_TURNS_FOR_AVERAGE]  # fmt: skip
    return sorted(averages, key=lambda row: (row[1], row[0]))


async def _everyone(
    store: GameStore, scope: Scope, board: str, season: int | None
) -> dict[str, float]:
    return dict(await store.top(scope, keys.board(board), EVERYONE, season=season))


async def accuracies(store: GameStore, scope: Scope, season: int | None) -> list[tuple[str, float]]:
    """Highest share of best decisions, among players with enough decisions reviewed."""
    decisions = await _everyone(store, scope, "decisions", season)
    best = await _everyone(store, scope, "decisions_best", season)
    accuracies = [(user, 100 * best.get(user, 0) / n) for user, n in decisions.items()
                  if n >= MIN_DECISIONS_FOR_ACCURACY]  # fmt: skip
    return sorted(accuracies, key=lambda row: (-row[1], row[0]))
