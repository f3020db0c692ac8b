"""`--server platform:id` for the operator's commands: read, and checked against the servers
the store knows, so a typo is one line and exit code 2, not an empty answer."""

from __future__ import annotations

from typing import Any

from bot.commands import SERVER_FORM, CommandError
from core.service.model.commit import Scope
from core.store.member_data import MemberData

SHOWN = 5  # known servers named in the error line


async def known_scope(store: Any, redis: Any, text: str) -> Scope:
    """The server `text` names, if the store holds anything of it (a server that only changed
    its settings has no game or chips yet, so it is looked for by its keys too)."""
    platform, colon, server = text.partition(":")
    if not colon or not platform or not server:
        raise CommandError(f"--server must be {SERVER_FORM}, not {text!r}")
    scope = Scope(platform, server)
    known = await store.servers()
    if scope not in known and not await _has_keys(redis, scope):
        names = ", ".join(f"{s.platform}:{s.server}" for s in known[:SHOWN])
        more = f" (known: {names}{', …' if len(known) > SHOWN else ''})" if known else ""
        raise CommandError(f"no server {text} in this Redis{more}")
    return scope


async def _has_keys(redis: Any, scope: Scope) -> bool:
    return await MemberData(redis).holds_any(scope)
