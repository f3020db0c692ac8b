"""Core views as terminal text: the game message with numbered buttons, private and public replies.

Pure functions: the playground passes the clock's `now` so a deadline reads "in 42 seconds".
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from adapters.console.parse import button_key
from core.service.views import DEADLINE, Button, GameView, Reply
from core.text.i18n import relative_time, t

BOLD_ON, BOLD_OFF = "\x1b[1m", "\x1b[0m"
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]*)`")


def plain(text: str, *, tty: bool = False) -> str:
    """`**bold**` as ANSI bold on a terminal (else plain); `` `code` `` keeps its content."""
    text = _BOLD.sub(rf"{BOLD_ON}\1{BOLD_OFF}" if tty else r"\1", text)
    return _CODE.sub(r"\1", text)


def countdown(deadline: int, now: float, lang: str = "en") -> str:
    """A deadline as the terminal shows it: the clock time and how long is left, in the game's
    language (`in 42 seconds`, `om 42 sekunder`)."""
    left = int(deadline - now)
    at = time.strftime("%H:%M:%S", time.localtime(deadline))
    if left <= 0:
        return f"{at} ({t(lang, 'time.up')})"
    return f"{at} ({relative_time(lang, left)})"


def buttons(view: GameView) -> list[Button]:
    """The game message's buttons in reading order; button n is typed as its letter."""
    return [button for row in view.rows for button in row]


def game_lines(view: GameView, now: float, *, tty: bool = False, lang: str = "en") -> list[str]:
    """The game message: title, body (deadline filled in), then one line per button row."""
    deadline = countdown(view.deadline, now, lang) if view.deadline else "—"
    body = view.body.replace(DEADLINE, deadline)
    lines = [plain(f"**=== {view.title} ===**", tty=tty)]
    lines += [plain(line, tty=tty) for line in body.splitlines()]
    index = 0
    for row in view.rows:
        labels = []
        for button in row:
            labels.append(f"[{button_key(index)}] {button.label}")
            index += 1
        lines.append("  " + "  ".join(labels))
    return lines


def private_lines(name: str, text: str, *, tty: bool = False) -> list[str]:
    """A reply only `name` should see: its first line says so."""
    first, *rest = plain(text, tty=tty).splitlines() or [""]
    return [f"(to {name} only) {first}", *(f"  {line}" for line in rest)]


def public_lines(texts: Sequence[str], *, tty: bool = False) -> list[str]:
    return [line for text in texts for line in plain(text, tty=tty).splitlines()]


def reply_lines(
    reply: Reply, name: str, now: float, *, tty: bool = False, lang: str = "en"
) -> list[str]:
    """Everything one reply shows: the game message, public summaries, then the private note."""
    lines = game_lines(reply.game, now, tty=tty, lang=lang) if reply.game else []
    # The terminal shows the game message and the channel's summaries on one screen: a line
    # both carry (e.g. "The game was stopped.") is said once.
    shown = set(lines)
    lines += [line for line in public_lines(reply.public, tty=tty) if line not in shown]
    if reply.private and reply.private not in reply.public:
        lines += private_lines(name, reply.private, tty=tty)
    return lines
