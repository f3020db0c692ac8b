"""`--server platform:id` for the operator's commands: read, and checked against the servers
the store knows, so a typo is one line and exit code 2, not an empty answer."""

from __future__ import annotations

from typing import Any

from bot.commands import CommandError
from core.service.commit import Scope

SHOWN = 5  # known servers named in the error line


async def known_scope(store: Any, text: str) -> Scope:
    platform, colon, server = text.partition(":")
    if not colon or not platform or not server:
        raise CommandError(f"--server must be platform:id (e.g. discord:123), not {text!r}")
    scope = Scope(platform, server)
    known = await store.servers()
    if scope not in known:
        names = ", ".join(f"{s.platform}:{s.server}" for s in known[:SHOWN])
        more = f" (known: {names}{', …' if len(known) > SHOWN else ''})" if known else ""
        raise CommandError(f"no server {text} in this Redis{more}")
    return scope
