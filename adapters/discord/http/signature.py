"""Discord's Ed25519 signature on every interaction it POSTs, checked with the application's key.

Discord signs `X-Signature-Timestamp + body` with the application's private key; the public key
(Developer Portal > General Information > Public Key, 64 hex digits) verifies it. A request
signed more than `WINDOW` seconds ago is refused too, so a captured request cannot be replayed
later (a replay inside the window is one interaction id: the manager applies it once).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

WINDOW = 300.0  # seconds a signed timestamp stays acceptable, either way of now
KEY_HEX_DIGITS = 64


class BadPublicKey(ValueError):
    """DISCORD_PUBLIC_KEY is not an Ed25519 public key in hex; `str()` says why in one line."""


def verify_key(text: str) -> VerifyKey:
    """The application's public key from its hex form, or `BadPublicKey`."""
    text = text.strip()
    if len(text) != KEY_HEX_DIGITS:
        raise BadPublicKey(f"must be {KEY_HEX_DIGITS} hex digits, not {len(text)} characters")
    try:
        return VerifyKey(bytes.fromhex(text))
    except ValueError:
        raise BadPublicKey("must be hex digits (0-9, a-f)") from None


@dataclass(frozen=True, slots=True)
class Signatures:
    """Whether a request is Discord's: signed by the application's key, and recent."""

    key: VerifyKey
    clock: Callable[[], float] = field(default=time.time)
    window: float = WINDOW

    def genuine(self, timestamp: str, signature: str, body: bytes) -> bool:
        if not self._recent(timestamp):
            return False
        try:
            self.key.verify(timestamp.encode() + body, bytes.fromhex(signature))
        except (BadSignatureError, ValueError):
            return False
        return True

    def _recent(self, timestamp: str) -> bool:
        if not (timestamp.isascii() and timestamp.isdigit()):
            return False
        return abs(self.clock() - int(timestamp)) <= self.window
