"""A server's tournaments on its page: the list, and one tournament's rounds, tables, results,
standings (with the rule that orders them) and each table's replay, then its seed and record
once it is over, for the verifier."""

from __future__ import annotations

from dataclasses import dataclass

from core.game.tournament.exits import exits
from core.game.tournament.progress import revealed_seed
from core.game.tournament.standings import standings
from core.game.tournament.text_form import to_text
from core.game.tournament.values import Kind, Round, Status, Tournament
from core.game.tournament.verify import published
from core.service.features.tournaments import texts
from core.service.features.tournaments.records import ACTIVE, FINISHED, load
from core.service.features.tournaments.tables import games
from core.service.model.commit import Scope
from core.service.model.ports import GameStore
from core.text.i18n import decimal, t


@dataclass(frozen=True, slots=True)
class TableRow:
    number: int
    players: str
    result: str  # "" while its match is played
    match: str  # the match's id for its replay; "" when none is kept


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    tables: tuple[TableRow, ...]
    bye: str


@dataclass(frozen=True, slots=True)
class PlaceRow:
    place: int
    name: str
    points: int
    opponents: int
    average: str
    how_far: str = ""  # a knockout's: still in, the winner, or where the player went out


@dataclass(frozen=True, slots=True)
class TournamentView:
    id: str
    name: str
    plan: str
    status: str
    commitment: str
    seed: str  # "" until it is over
    record: str  # its text form once over, for `shutbox verify`
    places: tuple[PlaceRow, ...]
    knockout: bool  # its places say how far each player came, not Swiss points
    tiebreaks: str
    rounds: tuple[RoundView, ...]


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: str
    name: str
    status: str


async def tournament_list(store: GameStore, scope: Scope, lang: str) -> list[TournamentRow]:
    """Every tournament the server has had: running ones first, then the ended ones."""
    running = [i for i in (await store.hash(scope, ACTIVE)).values() if i]
    ended = list(await store.hash(scope, FINISHED))
    rows = []
    for tournament_id in dict.fromkeys([*running, *reversed(ended)]):
        stored = await load(store, scope, tournament_id)
        if stored is not None:
            found = stored.tournament
            rows.append(TournamentRow(found.id, found.settings.name, _status(found, lang)))
    return rows


async def tournament_page(store: GameStore, scope: Scope, tournament_id: str,
                          lang: str) -> TournamentView | None:  # fmt: skip
    stored = await load(store, scope, tournament_id)
    if stored is None:
        return None
    found = stored.tournament
    matches = await store.hash(scope, games(found.id))
    over = found.status in (Status.FINISHED, Status.CANCELLED)
    return TournamentView(
        id=found.id, name=found.settings.name,
        plan=t(lang, "tournament.signup.plan", kind=texts.kind_text(found, lang),
               size=found.settings.table_size, format=texts.format_text(found.settings.format,
                                                                       lang)),
        status=_status(found, lang), commitment=found.commitment, seed=revealed_seed(found),
        record=to_text(published(found)) if over and found.seed else "",
        places=_places(found, lang) if found.rounds else (),
        knockout=found.settings.kind is Kind.KNOCKOUT,
        tiebreaks=t(lang, f"tournament.tiebreaks.{found.settings.kind.value}"),
        rounds=tuple(_round(found, r, matches) for r in found.rounds),
    )  # fmt: skip


def _status(tournament: Tournament, lang: str) -> str:
    return t(lang, f"web.tournament.status.{tournament.status.value}")


def _places(tournament: Tournament, lang: str) -> tuple[PlaceRow, ...]:
    if tournament.settings.kind is Kind.KNOCKOUT:
        return tuple(
            PlaceRow(place, tournament.name_of(line.player), 0, 0, "",
                     texts.knockout_status(line, lang))
            for place, line in enumerate(exits(tournament), start=1)
        )  # fmt: skip
    return tuple(
        PlaceRow(place, tournament.name_of(line.player), line.points, line.opponents_points,
                 decimal(lang, float(line.average)) if line.played else "—")
        for place, line in enumerate(standings(tournament), start=1)
    )  # fmt: skip


def _round(tournament: Tournament, round_: Round, matches: dict[str, str]) -> RoundView:
    rows = []
    for table in round_.tables:
        names = ", ".join(tournament.name_of(p) for p in table.seats)
        result = ""
        if table.result is not None:
            winners = ", ".join(tournament.name_of(p) for p in table.result.winners)
            totals = " · ".join(map(str, table.result.totals))
            result = f"🏆 {winners} ({totals})"
        rows.append(TableRow(table.number, names, result,
                             matches.get(f"{round_.number}:{table.number}", "")))  # fmt: skip
    bye = tournament.name_of(round_.bye) if round_.bye else ""
    return RoundView(round_.number, tuple(rows), bye)
