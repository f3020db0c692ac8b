"""What a tournament tells the channel: the sign-up, each round's tables, the standings with
the rule that orders them, and the end with its prizes and the revealed seed."""

from __future__ import annotations

from datetime import UTC, datetime

from core.game.match import FormatKind, MatchFormat
from core.game.tournament.exits import Exit, exits
from core.game.tournament.progress import revealed_seed
from core.game.tournament.standings import Standing, standings
from core.game.tournament.text_form import to_text
from core.game.tournament.values import Kind, Round, Status, Tournament
from core.game.tournament.verify import published
from core.service.features.tournaments.chips import prizes_out
from core.service.model.buttons import ButtonId
from core.service.model.views import Button, ButtonStyle, TableCall
from core.text.i18n import decimal, t
from core.text.render import describe_rules


def format_text(fmt: MatchFormat, lang: str) -> str:
    if fmt.kind is FormatKind.ROUNDS:
        return t(lang, "lobby.rounds", n=fmt.rounds)
    return t(lang, f"format.{fmt.kind.value}.title")


def utc_text(moment: int) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def kind_text(tournament: Tournament, lang: str) -> str:
    settings = tournament.settings
    if settings.kind is Kind.KNOCKOUT:
        return t(lang, "tournament.kind.knockout")
    return t(lang, "tournament.kind.swiss", rounds=settings.rounds)


def signup(tournament: Tournament, lang: str) -> str:
    """The sign-up message: what it is, how to join, who is in."""
    s = tournament.settings
    split = "/".join(map(str, s.split))
    when = utc_text(s.starts_at) if s.starts_at else t(lang, "tournament.start_by_admin")
    plan = t(lang, "tournament.signup.plan", kind=kind_text(tournament, lang),
             size=s.table_size, format=format_text(s.format, lang))  # fmt: skip
    fee = t(lang, "tournament.signup.fee", fee=s.fee, split=split) if s.fee else (
        t(lang, "tournament.signup.free"))  # fmt: skip
    lines = [
        t(lang, "tournament.signup.title", name=s.name),
        plan,
        t(lang, "lobby.rules", rules=describe_rules(s.rules, lang)),
        fee,
        t(lang, "tournament.signup.when", when=when),
        entrants(tournament, lang),
    ]
    return "\n".join(lines)


def entrants(tournament: Tournament, lang: str) -> str:
    names = ", ".join(e.name for e in tournament.entries) or "—"
    return t(lang, "tournament.entrants", n=len(tournament.entries), names=names)


def round_text(tournament: Tournament, round_: Round, lang: str) -> str:
    """A round's tables and its bye, one line each."""
    lines = [t(lang, "tournament.round.title", name=tournament.settings.name, n=round_.number)]
    for table in round_.tables:
        names = ", ".join(tournament.name_of(p) for p in table.seats)
        lines.append(t(lang, "tournament.round.table", n=table.number, names=names))
    if round_.bye:
        lines.append(t(lang, "tournament.round.bye", player=tournament.name_of(round_.bye)))
    return "\n".join(lines)


def started(tournament: Tournament, dropped: tuple[str, ...], lang: str) -> str:
    lines = [t(lang, "tournament.started", name=tournament.settings.name,
               n=len(tournament.entries), pot=tournament.pot,
               commitment=tournament.commitment)]  # fmt: skip
    if dropped:
        lines.append(t(lang, "tournament.dropped", names=", ".join(dropped)))
    current = tournament.current
    if current is not None:
        lines.append(round_text(tournament, current, lang))
    return "\n".join(lines)


def standings_text(tournament: Tournament, lang: str) -> str:
    """Every player's place (a knockout's: how far each has come), then the rule that ordered
    them."""
    finished = sum(1 for r in tournament.rounds if r.done)
    lines = [t(lang, "tournament.standings.title", name=tournament.settings.name, n=finished)]
    if tournament.settings.kind is Kind.KNOCKOUT:
        lines += [t(lang, "tournament.knockout.line", place=place, player=tournament.name_of(
                      line.player), status=knockout_status(line, lang))
                  for place, line in enumerate(exits(tournament), start=1)]  # fmt: skip
    else:
        lines += [_line(tournament, place, line, lang)
                  for place, line in enumerate(standings(tournament), start=1)]  # fmt: skip
    lines.append(t(lang, f"tournament.tiebreaks.{tournament.settings.kind.value}"))
    return "\n".join(lines)


def knockout_status(line: Exit, lang: str) -> str:
    """Still in, the winner, or where and with what score the player went out."""
    if line.champion:
        return t(lang, "tournament.knockout.champion")
    if not line.out:
        return t(lang, "tournament.knockout.in")
    key = "tournament.knockout.out_tied" if line.tied else "tournament.knockout.out"
    return t(lang, key, round=line.round, table=line.table, score=line.score)


def _line(tournament: Tournament, place: int, line: Standing, lang: str) -> str:
    average = decimal(lang, float(line.average)) if line.played else "—"
    return t(lang, "tournament.standings.line", place=place,
             player=tournament.name_of(line.player), points=line.points,
             opponents=line.opponents_points, average=average)  # fmt: skip


def finished_text(tournament: Tournament, lang: str) -> str:
    """The end: the winner, the prizes paid, and the seed anyone can check the pairings with."""
    lines = [t(lang, "tournament.finished", name=tournament.settings.name,
               player=tournament.name_of(standings(tournament)[0].player))]  # fmt: skip
    for place, (player, amount) in enumerate(prizes_out(tournament), start=1):
        if amount:
            lines.append(t(lang, "tournament.prize", place=place,
                           player=tournament.name_of(player), amount=amount))  # fmt: skip
    lines.append(t(lang, "tournament.seed", seed=revealed_seed(tournament)))
    lines.append(t(lang, "tournament.record", record=to_text(published(tournament))))
    return "\n".join(lines)


THREAD_NAME = 100  # the most characters a Discord thread's name takes


def table_calls(tournament: Tournament, channel: str, lang: str) -> tuple[TableCall, ...]:
    """The current round's tables, each to open in a thread of `channel`."""
    current = tournament.current
    if current is None or tournament.status is not Status.RUNNING:
        return ()
    return tuple(
        TableCall(tournament.id, current.number, table.number, channel,
                  t(lang, "tournament.table.title", name=tournament.settings.name,
                    n=current.number, table=table.number,
                    names=", ".join(tournament.name_of(p) for p in table.seats))[:THREAD_NAME])
        for table in current.tables
    )  # fmt: skip


SIGNUP_VERBS = {"tjoin": "join", "tleave": "leave"}


def signup_buttons(tournament: Tournament, lang: str) -> tuple[tuple[Button, ...], ...]:
    """Join and Leave under the sign-up message."""
    join = Button(str(ButtonId("tjoin", tournament.id, 0)), t(lang, "tournament.button.join"),
                  ButtonStyle.SUCCESS)  # fmt: skip
    leave = Button(str(ButtonId("tleave", tournament.id, 0)), t(lang, "tournament.button.leave"))
    return ((join, leave),)
