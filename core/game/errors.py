"""Narrow errors the engine and manager raise; adapters turn them into private, translated replies.

Every error carries a catalog key and its placeholders, so the message is written once per
language in `core/text/locales/` and never assembled from English fragments.
"""

from __future__ import annotations

from typing import Any


class ShutboxError(ValueError):
    """Base of every error a user can cause; `key` names the message in the catalogs."""

    key = "error.generic"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.key = key or type(self).key
        self.params: dict[str, Any] = params
        super().__init__(f"{self.key} {params}" if params else self.key)


class InvalidRules(ShutboxError):
    """A rules combination or option value that makes no sense."""

    key = "error.rules"


class InvalidOption(ShutboxError):
    """A match, stakes or command option that cannot be used."""

    key = "error.option"


class NotYourTurn(ShutboxError):
    """Someone other than the player to act pressed a turn button."""

    key = "error.not_your_turn"


class IllegalMove(ShutboxError):
    """The chosen action is not one of the legal ones right now."""

    key = "error.illegal_move"


class StaleAction(ShutboxError):
    """The action was made on an outdated message (its version is behind the game's)."""

    key = "error.stale"


class NotAllowed(ShutboxError):
    """The user lacks the role (host, admin) the action needs."""

    key = "error.not_allowed"


class NoGame(ShutboxError):
    """There is no game in this channel."""

    key = "error.no_game"


class InsufficientChips(ShutboxError):
    """A balance cannot cover an ante or a negative grant."""

    key = "error.chips"


class CorruptState(ShutboxError):
    """A stored text form that does not parse; the store refuses to use it."""

    key = "error.corrupt"
