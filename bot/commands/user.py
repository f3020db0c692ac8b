"""`shutbox user export|forget --server SERVER --user USER`: one member's data on one server.

`export` prints, as JSON, everything the bot holds about the member: balance, names, stats,
boards of this and past seasons, ratings, reviews, rematch records, journal entries, audit
entries, stored replies. `forget` erases it in one atomic step: the chips go back to the mint
in one journal entry, the journal names a random pseudonym instead of the member, and every
other record of them goes; `ledger verify` still passes and nobody else's balance changes.
The erasure is recorded in the server's audit log.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import time
from typing import TYPE_CHECKING, Any

from bot.commands import SERVER_FORM, CommandError, Subparsers

if TYPE_CHECKING:
    from core.service.model.commit import Scope
    from core.store.member_data import MemberData

SHOWN = 5  # member ids named in the line for an unknown --user
ID_SHAPES = {
    "discord": "numbers (Discord: Copy User ID)",
    "slack": "like U012ABCDEF (Slack: Copy member ID)",
    "local": "the players' names in lower case, words joined by -",
}
ACTIONS = {
    "export": "print everything held about the member, as JSON",
    "forget": "erase the member's data (chips go back to the mint)",
}


def register(subparsers: Subparsers) -> None:
    """Add `user export` and `user forget` to the command line."""
    parser = subparsers.add_parser("user", help="export or erase one member's data",
                                   description=__doc__)  # fmt: skip
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    for name, text in ACTIONS.items():
        action = actions.add_parser(name, help=text)
        action.add_argument("--server", required=True, help=f"as {SERVER_FORM}")
        action.add_argument("--user", required=True, help="the member's id on the platform (in "
                            "the playground: the name in lower case, e.g. ann)")  # fmt: skip
        action.set_defaults(func=run, action=name)
    forget = actions.choices["forget"]
    forget.add_argument("--by", help="who asked, for the audit log (default: your login)")


def run(args: argparse.Namespace) -> int:
    user = args.user.strip()
    if not user or ":" in user or any(c.isspace() for c in user):
        raise CommandError(f"--user is the member's platform id (e.g. 123456789), not {user!r}")
    return asyncio.run(_run(args.action, args.server, user, getattr(args, "by", None)))


async def _run(action: str, server: str, user: str, by: str | None) -> int:
    from bot.commands.servers import known_scope
    from bot.runtime import open_runtime
    from bot.settings import load_settings
    from core.store.member_data import MemberData

    settings = load_settings()
    async with open_runtime(settings.redis.url, settings.core.data_dir) as runtime:
        scope = await known_scope(runtime.store, runtime.redis, server)
        members = MemberData(runtime.redis)
        held = await members.export(scope, user)
        if not _a_member(held, user):
            raise CommandError(await _unknown(members, scope, server, user))
        if action == "export":
            print(json.dumps(held, ensure_ascii=False, indent=2))
            return 0
        return await _forget(members, scope, server, user, by, len(held["records"]))


def _a_member(held: dict[str, Any], user: str) -> bool:
    """Whether `user` is a member's id: a balance, a name or a key of their own. A display name
    typed instead matches texts that merely mention it, which must not be taken for the member."""
    own_key = any(user in key.split(":") for key in held["records"])
    return held["balance"] is not None or bool(held["names"]) or own_key


async def _unknown(members: MemberData, scope: Scope, server: str, user: str) -> str:
    """The line for a --user that no record holds: how the server's ids look, with some."""
    known = ", ".join(f"{uid} ({name})" for uid, name in await members.known(scope, SHOWN))
    some = f", e.g. {known}" if known else ""
    shape = ID_SHAPES.get(scope.platform, "the platform's member ids")
    return (f"nothing is held about {user!r} on {server} (erased already, or not a member id; "
            f"ids there are {shape}{some})")  # fmt: skip


async def _forget(
    members: MemberData, scope: Scope, server: str, user: str, by: str | None, records: int
) -> int:
    from core.service.features.audit import Action, AuditEntry
    from core.store.member_data import MemberPlaying

    actor = by or _login()
    entry = AuditEntry(int(time.time()), actor, actor, Action.ERASE,
                       detail={"records": records})  # fmt: skip
    try:
        erased = await members.forget(scope, user, entry)
    except MemberPlaying as playing:
        raise CommandError(
            f"{user} is seated in the running game in channel {playing.channel}; the host or "
            "an admin ends it with /shutbox stop in that channel (its stakes go back), or let "
            "it end, then erase again"
        ) from None
    print(f"Erased {user} on {server}: {erased.chips} chips back to the mint, "
          f"{erased.journal_entries} journal entries now name {erased.pseudonym}, "
          f"{records} records erased (each key user export listed; the audit entry says "
          f"records={records}).")  # fmt: skip
    if erased.left:
        raise CommandError(
            f"still holding {user} (a game began meanwhile?): "
            f"{', '.join(erased.left)}; run forget again",
            exit_code=1,
        )
    return 0


def _login() -> str:
    try:
        return f"operator:{getpass.getuser()}"
    except (KeyError, OSError):
        return "operator"
