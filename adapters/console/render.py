"""Core views as terminal text: the game message with numbered buttons, private and public replies.

Pure functions: the playground passes the clock's `now` so a deadline reads "in 42 seconds".
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from adapters.console.parse import button_key
from core.service.model.views import DEADLINE, Button, GameView, Reply
from core.text.i18n import relative_time, t

BOLD_ON, BOLD_OFF = "\x1b[1m", "\x1b[0m"
SLASH_COMMAND = "/shutbox "
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]*)`")


def plain(text: str, *, tty: bool = False) -> str:
    """`**bold**` as ANSI bold on a terminal (else plain); `` `code` `` keeps its content."""
    text = _BOLD.sub(rf"{BOLD_ON}\1{BOLD_OFF}" if tty else r"\1", text)
    # Commands are typed here without the chat's `/shutbox ` (`daily`, not `/shutbox daily`).
    return _CODE.sub(r"\1", text).replace(SLASH_COMMAND, "")


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


def pressable(view: GameView | None, review: Button | None) -> list[Button]:
    """What the letters press: the game message's buttons, then `review`, the Review button of
    the round or match summary last shown (Discord and Slack post it under the summary; the
    terminal gives it the next letter). A finished match's message carries a Review of its own,
    which the summaries then share."""
    shown = buttons(view) if view is not None else []
    if review is None or any(_same_review(button, review) for button in shown):
        return shown
    return [*shown, review]


def _same_review(button: Button, review: Button) -> bool:
    """Both are Review buttons of one match: `stb:review:<game>:<version>:0` answers alike
    whatever the version."""
    return button.action_id.split(":")[:3] == review.action_id.split(":")[:3]


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


def private_lines(name: str, text: str, *, tty: bool = False, lang: str = "en") -> list[str]:
    """A reply only `name` should see: its first line says so, in the table's language."""
    first, *rest = plain(text, tty=tty).splitlines() or [""]
    return [t(lang, "playground.private", name=name, text=first), *(f"  {line}" for line in rest)]


def public_lines(texts: Sequence[str], *, tty: bool = False) -> list[str]:
    return [line for text in texts for line in plain(text, tty=tty).splitlines()]


def reply_lines(
    reply: Reply,
    name: str,
    now: float,
    *,
    tty: bool = False,
    lang: str = "en",
    view: GameView | None = None,
) -> list[str]:
    """Everything one reply shows: the game message, public summaries (each with its Review
    button), then the private note. `view` is the game message on screen when the reply
    brings none."""
    lines = game_lines(reply.game, now, tty=tty, lang=lang) if reply.game else []
    # Each summary is shown whole, as the chat posts it: a line that reads like one of the game
    # message's may be another event (a shut's extra ante, then the next round's ante).
    review = _review_line(reply, reply.game or view)
    for text in reply.public:
        lines += public_lines([text], tty=tty)
        lines += [review] if review and text in reply.reviewed else []
    for _, text in reply.elsewhere:  # the playground is one channel: shown here too
        lines += public_lines([text], tty=tty)
    if reply.private and reply.private not in reply.public:
        lines += private_lines(name, reply.private, tty=tty, lang=lang)
    return lines


def _review_line(reply: Reply, view: GameView | None) -> str | None:
    """`  [c] Review`: the summaries' Review button, by the letter that presses it."""
    if reply.review is None:
        return None
    keys = pressable(view, reply.review)
    index = next(n for n, button in enumerate(keys) if _same_review(button, reply.review))
    return f"  [{button_key(index)}] {reply.review.label}"
