"""Core views as Slack Block Kit: the game message, and mrkdwn for every other text.

Pure functions. Core text uses `**bold**` and `` `code` ``; Slack's mrkdwn wants `*bold*`, and
`&`, `<`, `>` escaped so a player's name can never turn into a mention or a link.
"""

from __future__ import annotations

import re
import time
from typing import Any

from adapters.pictures import PictureLinks
from core.service.model.views import DEADLINE, Button, ButtonStyle, GameView

Block = dict[str, Any]

MAX_HEADER = 150  # characters of a header block's plain text
MAX_SECTION = 3000  # characters of a section block's text
MAX_BUTTON_TEXT = 75
MAX_ACTIONS = 25  # elements in one actions block
MAX_ALT_TEXT = 2000  # characters of an image block's alt_text
NO_DEADLINE = "—"
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_MENTION = re.compile(r"&lt;@([UW][A-Z0-9]+)&gt;")  # `<@U123>` from the core notifies that user
_STYLES = {ButtonStyle.PRIMARY: "primary", ButtonStyle.SUCCESS: "primary",
           ButtonStyle.DANGER: "danger"}  # fmt: skip


def escape(text: str) -> str:
    """The three characters Slack asks apps to escape in message text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def mrkdwn(text: str) -> str:
    """Core text as Slack mrkdwn: escaped, `**bold**` as `*bold*`, user mentions kept."""
    return _MENTION.sub(r"<@\1>", _BOLD.sub(r"*\1*", escape(text)))


def deadline_token(deadline: int) -> str:
    """A time the Slack client shows in the reader's own time zone (UTC where it cannot)."""
    if not deadline:
        return NO_DEADLINE
    fallback = time.strftime("%H:%M UTC", time.gmtime(deadline))
    return f"<!date^{deadline}^{{time}}|{fallback}>"


def game_blocks(view: GameView, pictures: PictureLinks | None = None) -> list[Block]:
    """Header, the board picture (image style, with an address to serve it from), the body in
    sections, then one actions block per row of buttons."""
    body = mrkdwn(view.body).replace(DEADLINE, deadline_token(view.deadline))
    blocks = [_header(view.title), *_picture(view, pictures)]
    blocks += [_section(part) for part in _chunks(body, MAX_SECTION)]
    return blocks + _actions(view.rows)


def _picture(view: GameView, pictures: PictureLinks | None) -> list[Block]:
    """The image block: the bot's signed URL of the picture, the text board as its alt text."""
    if not view.picture or pictures is None:
        return []
    alt = (view.alt or view.title)[:MAX_ALT_TEXT]
    return [{"type": "image", "image_url": pictures.url(view.picture), "alt_text": alt}]


def panel_blocks(text: str, rows: tuple[tuple[Button, ...], ...]) -> list[Block]:
    """A public text with its own buttons (a leaderboard page with Previous / Next)."""
    return [*(_section(part) for part in _chunks(mrkdwn(text), MAX_SECTION)), *_actions(rows)]


def _actions(rows: tuple[tuple[Button, ...], ...]) -> list[Block]:
    """One actions block per row of buttons (split where a row has too many)."""
    blocks = []
    for index, row in enumerate(rows):
        for start in range(0, len(row), MAX_ACTIONS):
            elements = [_button(b) for b in row[start : start + MAX_ACTIONS]]
            blocks.append({"type": "actions", "block_id": f"stb-{index}-{start}",
                           "elements": elements})  # fmt: skip
    return blocks


def game_text(view: GameView) -> str:
    """The plain fallback Slack shows in notifications."""
    return view.title


def _header(title: str) -> Block:
    text = title[:MAX_HEADER]
    return {"type": "header", "text": {"type": "plain_text", "text": text, "emoji": True}}


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _button(button: Button) -> Block:
    element: Block = {
        "type": "button",
        "action_id": button.action_id,
        "text": {"type": "plain_text", "text": button.label[:MAX_BUTTON_TEXT], "emoji": True},
    }
    style = _STYLES.get(button.style)
    if style is not None:
        element["style"] = style
    return element


def _chunks(text: str, limit: int) -> list[str]:
    """Whole lines packed into parts of at most `limit` characters (a longer line is cut)."""
    parts: list[str] = []
    current = ""
    for whole in text.splitlines() or [" "]:
        line = whole[:limit]
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    parts.append(current or " ")
    return parts
