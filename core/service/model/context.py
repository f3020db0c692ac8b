"""Who is acting, where: what every manager call receives from an adapter."""

from __future__ import annotations

from dataclasses import dataclass

from core.service.model.commit import Scope


@dataclass(frozen=True, slots=True)
class Context:
    scope: Scope
    channel: str
    user: str
    name: str  # the user's display name, shown on the board
    locale: str | None = None  # the user's own language for private replies (Discord)
    admin: bool = False  # the platform says the user may manage the server
    request_id: str | None = None  # the platform's id of this interaction (idempotency)
    direct: bool = False  # a direct message with the bot (solo games only)
    mentions: bool = False  # the surface notifies a member written `<@id>` in a public message
