"""`/shutbox tournament <action>`: the command value, and the settings `create` reads from it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from core.game.match import MatchFormat
from core.game.rules import preset
from core.game.tournament.errors import InvalidTournament
from core.game.tournament.prizes import parse_split
from core.game.tournament.values import DEFAULT_SPLIT, Kind, Settings
from core.service.model.services import Command

ACTIONS = ("standings", "create", "join", "leave", "start", "cancel")
ADMIN_ACTIONS = ("create", "start", "cancel")
KINDS = tuple(kind.value for kind in Kind)
START_FORMS = ("now", "YYYY-MM-DDTHH:MM")


@dataclass(frozen=True, slots=True)
class TournamentCommand(Command):
    """A tournament action; `create` takes the settings (each a typed word, None: not given)."""

    action: str = "standings"
    name: str = ""
    kind: str | None = None
    rounds: int | None = None
    preset: str | None = None
    format: str | None = None
    table: int | None = None
    fee: int | None = None
    split: str | None = None
    start: str | None = None
    tournament: str = ""  # a sign-up button's tournament: only that one is joined or left
    panel: bool = False  # pressed on the sign-up message: answer with it, updated in place


def settings_of(command: TournamentCommand, now: float) -> Settings:
    """The settings `create` asks for; anything left out is the default (Swiss, 3 rounds,
    classic rules, one round a match, tables of 2, no fee, 60/30/10, started by hand)."""
    kind = (command.kind or Kind.SWISS.value).strip().lower()
    if kind not in KINDS:
        raise InvalidTournament("error.tournament.kind", value=kind[:20], allowed=", ".join(KINDS))
    return Settings(
        name=command.name.strip(),
        kind=Kind(kind),
        rounds=command.rounds if command.rounds is not None else 3,
        rules=preset(command.preset or "classic"),
        format=MatchFormat.parse(command.format or "rounds:1"),
        table_size=command.table if command.table is not None else 2,
        fee=command.fee if command.fee is not None else 0,
        split=parse_split(command.split) if command.split else DEFAULT_SPLIT,
        starts_at=starts_at(command.start or "now", now),
    )


def starts_at(text: str, now: float) -> int:
    """`now` (0: an admin's `start`) or a UTC time still to come, as Unix seconds."""
    if text.strip().lower() == "now":
        return 0
    try:
        when = datetime.strptime(text.strip().upper().rstrip("Z"), "%Y-%m-%dT%H:%M")
    except ValueError:
        raise InvalidTournament("error.tournament.start_form", value=text[:20],
                                allowed=", ".join(START_FORMS)) from None  # fmt: skip
    moment = int(when.replace(tzinfo=UTC).timestamp())
    if moment <= now:
        raise InvalidTournament("error.tournament.start")
    return moment


@dataclass(frozen=True, slots=True)
class OpenTable(Command):
    """Open a tournament table's match here (a surface sends it from the table's new thread)."""

    tournament: str
    round: int
    table: int
