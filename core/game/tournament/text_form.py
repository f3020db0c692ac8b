"""The tournament's compact text form, which round-trips: `from_text(to_text(t)) == t`.

`U1|<id>|<status>|<settings>|<seed>|<commitment>|<entries>|<rounds>[|<out>]`, where
- settings are `name,kind,rounds,rules,format,table size,fee,split,starts at` (split `60+30+10`);
- entries are `id:name` joined by `,`;
- rounds are joined by `/`, each `bye!table;table`, a table `id*id*id` followed, once its match
  is over, by `=winner*winner@total*total*total`;
- out (only when someone left the server after the start) is `id:rounds paired` joined by `,`.
Ids and names are percent-encoded, so none of these marks occurs inside them.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from core.game.errors import CorruptState
from core.game.match import MatchFormat
from core.game.rules import Rules
from core.game.tournament.values import (
    Entry,
    Kind,
    Round,
    Settings,
    Status,
    Table,
    TableResult,
    Tournament,
)

VERSION = "U1"


def _q(text: str) -> str:
    return quote(text, safe="")


def _u(text: str) -> str:
    return unquote(text, errors="strict")


def to_text(tournament: Tournament) -> str:
    t = tournament
    entries = ",".join(f"{_q(e.id)}:{_q(e.name)}" for e in t.entries)
    rounds = "/".join(_round_text(r) for r in t.rounds)
    parts = (VERSION, _q(t.id), t.status.value, _settings_text(t.settings), t.seed,
             t.commitment, entries, rounds)  # fmt: skip
    out = ",".join(f"{_q(p)}:{n}" for p, n in t.out)
    return "|".join((*parts, out) if out else parts)


def _settings_text(s: Settings) -> str:
    split = "+".join(map(str, s.split))
    fields = (_q(s.name), s.kind.value, str(s.rounds), s.rules.to_str(), s.format.to_str(),
              str(s.table_size), str(s.fee), split, str(s.starts_at))  # fmt: skip
    return ",".join(fields)


def _round_text(round_: Round) -> str:
    return f"{_q(round_.bye)}!" + ";".join(_table_text(t) for t in round_.tables)


def _table_text(table: Table) -> str:
    seats = "*".join(map(_q, table.seats))
    if table.result is None:
        return seats
    winners = "*".join(map(_q, table.result.winners))
    return f"{seats}={winners}@" + "*".join(map(str, table.result.totals))


def from_text(text: str) -> Tournament:
    """The tournament a text form holds; `CorruptState` for anything else."""
    try:
        version, tid, status, settings, seed, promise, entries, rounds, *rest = text.split("|")
        (out,) = rest or ("",)
        if version != VERSION:
            raise ValueError(version)
        return Tournament(
            id=_u(tid),
            settings=_settings(settings),
            status=Status(status),
            entries=tuple(_entry(e) for e in entries.split(",")) if entries else (),
            rounds=tuple(_round(i, r) for i, r in enumerate(rounds.split("/"), 1)) if rounds
            else (),
            seed=seed,
            commitment=promise,
            out=tuple(_out(o) for o in out.split(",")) if out else (),
        )  # fmt: skip
    except (ValueError, IndexError) as exc:
        raise CorruptState(text=text[:80]) from exc


def _settings(text: str) -> Settings:
    name, kind, rounds, rules, fmt, size, fee, split, starts = text.split(",")
    return Settings(_u(name), Kind(kind), int(rounds), Rules.from_str(rules),
                    MatchFormat.parse(fmt), int(size), int(fee),
                    tuple(int(s) for s in split.split("+")), int(starts))  # fmt: skip


def _entry(text: str) -> Entry:
    pid, name = text.split(":")
    return Entry(_u(pid), _u(name))


def _out(text: str) -> tuple[str, int]:
    pid, paired = text.split(":")
    return _u(pid), int(paired)


def _round(number: int, text: str) -> Round:
    bye, tables = text.split("!")
    return Round(number, tuple(_table(i, t) for i, t in enumerate(tables.split(";"), 1)), _u(bye))


def _table(number: int, text: str) -> Table:
    seats, _, result = text.partition("=")
    players = tuple(_u(p) for p in seats.split("*"))
    if not result:
        return Table(number, players)
    winners, totals = result.split("@")
    outcome = TableResult(tuple(_u(w) for w in winners.split("*")),
                          tuple(int(n) for n in totals.split("*")))  # fmt: skip
    return Table(number, players, outcome)
