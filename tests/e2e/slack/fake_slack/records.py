"""What the fake Slack records and keeps: the calls, the messages, the response_url posts and
the faults a test queues."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TEAM = "T0001"
BOT_USER = "UBOT"
WAIT_SECONDS = 10.0


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    token: str | None


@dataclass
class Message:
    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    updates: int = 0
    thread_ts: str = ""  # the thread it was posted in, if any
    deleted: bool = False  # taken down by chat.delete

    @property
    def body(self) -> str:
        """The text of the header and section blocks, as the channel shows it."""
        return "\n".join(
            block["text"]["text"] for block in self.blocks if block["type"] in ("header", "section")
        )

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [e for b in self.blocks if b["type"] == "actions" for e in b["elements"]]

    @property
    def playing(self) -> list[dict[str, Any]]:
        """The buttons that play the game: all but a finished match's Rematch and Review."""
        after_match = ("stb:review:", "stb:rematch:")
        return [b for b in self.buttons if not str(b["action_id"]).startswith(after_match)]

    @property
    def summary(self) -> bool:
        """A public text whose only buttons are its Review (a round or match summary)."""
        headed = any(block["type"] == "header" for block in self.blocks)
        reviews = [str(b["action_id"]).startswith("stb:review:") for b in self.buttons]
        return bool(self.blocks) and not headed and bool(reviews) and all(reviews)

    def button(self, label: str) -> str:
        """The action id of the button with this label."""
        found = [str(b["action_id"]) for b in self.buttons if b["text"]["text"] == label]
        assert found, f"no button {label!r} in {[b['text']['text'] for b in self.buttons]}"
        return found[0]


@dataclass
class Response:
    """One POST to a response_url (a private reply)."""

    key: str
    body: dict[str, Any]

    @property
    def text(self) -> str:
        return str(self.body.get("text", ""))


@dataclass(frozen=True)
class Fault:
    """One answer the fake gives instead of the real one: an HTTP status (429 with its
    Retry-After, 5xx), a Slack error code, a stall before answering, or a dropped connection."""

    status: int = 200
    error: str | None = None
    retry_after: int | None = None
    stall: float = 0.0  # seconds before the call goes on as usual (it still applies)
    reset: bool = False  # the connection closes without an answer; nothing applies

    @classmethod
    def rate_limited(cls, retry_after: int = 1) -> Fault:
        return cls(status=429, error="ratelimited", retry_after=retry_after)
