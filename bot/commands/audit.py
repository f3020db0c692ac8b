"""`shutbox audit --server SERVER [--json]`: the server's admin actions, newest first.

Grants, settings changes (old and new value), season ends, games stopped by an admin and
members' erasures, each with who did it and when; kept apart from the chip journal, so folding
the journal never loses one (core/service/features/audit.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from datetime import UTC, datetime

from bot.commands import SERVER_FORM, Subparsers
from core.service.features.audit import AuditEntry


def register(subparsers: Subparsers) -> None:
    """Add `audit` to the command line."""
    parser = subparsers.add_parser("audit", help="list a server's admin actions",
                                   description=__doc__)  # fmt: skip
    parser.add_argument("--server", required=True, help=f"the server, as {SERVER_FORM}")
    parser.add_argument("--json", action="store_true", help="print the entries as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(show(args.server, as_json=args.json))


async def show(server: str, *, as_json: bool) -> int:
    from bot.commands.servers import known_scope
    from bot.runtime import open_runtime
    from bot.settings import load_settings
    from core.service.features.audit import read_entries

    settings = load_settings()
    async with open_runtime(settings.redis.url, settings.core.data_dir) as runtime:
        scope = await known_scope(runtime.store, runtime.redis, server)
        entries = read_entries(await runtime.store.admin.audit_entries(scope))
    if as_json:
        print(json.dumps({"server": server, "entries": [e.as_dict() for e in entries]},
                         ensure_ascii=False))  # fmt: skip
    elif not entries:
        print(f"No admin actions recorded on {server} yet.")
    for entry in [] if as_json else entries:
        print(line(entry))
    return 0


def line(entry: AuditEntry) -> str:
    """`2026-12-02 01:30:00 UTC  grant  by admin (Admin)  to bob (Bob)  amount=40 ...`."""
    when = datetime.fromtimestamp(entry.at, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    who = f"by {entry.actor}" + (f" ({entry.actor_name})" if entry.actor_name else "")
    to = f"  to {entry.target}" + (f" ({entry.target_name})" if entry.target_name else "")
    return f"{when}  {entry.action}  {who}{to if entry.target else ''}  {entry.what()}".rstrip()
