"""The audit log: every admin action (grant, config change, season end, stop of someone else's
game, a member's erasure) with who, when and what.

An entry is written by the same atomic step as the action it records (an `OpKind.AUDIT` op of
the commit, or an argument of the season's script), to the server's own `audit` list, newest
first. It lives outside the chip journal, so folding the journal never loses it; the list keeps
the last `AUDIT_CAP` entries.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from core.game.actions import Action as Act
from core.game.actions import Stop
from core.service.model import keys
from core.service.model.commit import OpKind, StoreOp
from core.service.model.context import Context
from core.text.i18n import t

if TYPE_CHECKING:
    from core.service.model.record import GameRecord

AUDIT_KEY = keys.AUDIT  # relative to the server: `stb:{platform:server}:audit`
AUDIT_CAP = 100_000  # entries kept; years of a busy server's admin actions
SHOWN = 15  # entries `/shutbox audit` shows in chat (the CLI lists them all)
SYSTEM = "system"  # the actor of what the bot does by itself (a season ended by season_days)


class Action:
    """What an entry records (its `action` field)."""

    GRANT = "grant"
    CONFIG = "config"
    SEASON_END = "season_end"
    STOP = "stop"
    ERASE = "erase"


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One admin action: when (unix seconds), who (id and name), what, to whom, and details."""

    at: int
    actor: str
    actor_name: str
    action: str
    target: str = ""
    target_name: str = ""
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        data = {"at": self.at, "by": self.actor, "byn": self.actor_name, "act": self.action,
                "to": self.target, "ton": self.target_name, "d": dict(self.detail)}  # fmt: skip
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> AuditEntry:
        data = json.loads(text)
        return cls(
            int(data["at"]), str(data["by"]), str(data.get("byn", "")), str(data["act"]),
            str(data.get("to", "")), str(data.get("ton", "")), dict(data.get("d", {})),
        )  # fmt: skip

    def as_dict(self) -> dict[str, Any]:
        """The entry as the CLI's JSON shows it."""
        return {"at": self.at, "actor": self.actor, "actor_name": self.actor_name,
                "action": self.action, "target": self.target, "target_name": self.target_name,
                "detail": dict(self.detail)}  # fmt: skip

    def what(self) -> str:
        """The details as `key=value` words, in a stable order (for lists in chat and the CLI)."""
        return " ".join(f"{key}={_shown(value)}" for key, value in sorted(self.detail.items()))


def listing(entries: list[AuditEntry], lang: str) -> str:
    """The entries as chat shows them to an admin: one line each, newest first."""
    if not entries:
        return t(lang, "audit.empty")
    lines = [t(lang, "audit.title", count=len(entries))]
    for entry in entries:
        when = datetime.fromtimestamp(entry.at, UTC).strftime("%Y-%m-%d %H:%M")
        target = f" {entry.target_name or entry.target}" if entry.target else ""
        admin = t(lang, "audit.system") if entry.actor == SYSTEM else entry.actor_name
        lines.append(t(lang, "audit.line", when=when, admin=admin or entry.actor,
                       action=t(lang, f"audit.action.{entry.action}"), target=target,
                       details=entry.what()))  # fmt: skip
    return "\n".join(lines)


def audit_op(entry: AuditEntry) -> StoreOp:
    """The commit op that records `entry` in the same atomic step as the action."""
    return StoreOp(OpKind.AUDIT, AUDIT_KEY, entry.to_json(), AUDIT_CAP)


def read_entries(stored: list[str]) -> list[AuditEntry]:
    """Entries as stored, skipping any this version cannot read."""
    entries = []
    for text in stored:
        try:
            entries.append(AuditEntry.from_json(text))
        except (ValueError, KeyError, TypeError):
            continue
    return entries


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"  # as `config` and `season end` take them
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"{_shown(value[0])}→{_shown(value[1])}"
    return str(value)


def admin_stop(ctx: Context, record: GameRecord, action: Act, now: int) -> tuple[StoreOp, ...]:
    """The audit entry to commit when an admin stops a game someone else hosts, if this is one."""
    host = record.state.host
    if not isinstance(action, Stop) or not action.admin or host.id == ctx.user:
        return ()
    entry = AuditEntry(now, ctx.user, ctx.name, Action.STOP, host.id, host.name,
                       {"channel": record.channel, "game": record.game_id})  # fmt: skip
    return (audit_op(entry),)
