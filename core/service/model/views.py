"""What the manager asks a surface to show: platform-neutral views the adapters render.

Text uses `**bold**` and `` `code` `` only (both chats and the terminal cope with these), and
`{deadline}` where the surface puts a time the chat client counts down itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.service.model import wire

DEADLINE = "{deadline}"


class ButtonStyle(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True, slots=True)
class Button:
    action_id: str  # e.g. `stb:choose:<game>:<version>:<tiles>` (see core.service.model.buttons)
    label: str
    style: ButtonStyle = ButtonStyle.SECONDARY


@dataclass(frozen=True, slots=True)
class GameView:
    """The one message of a game, edited in place as the game changes."""

    channel: str
    game_id: str
    version: int
    title: str
    body: str
    rows: tuple[tuple[Button, ...], ...] = ()
    deadline: int = 0  # unix seconds shown where the body says {deadline}; 0 = none
    message: str = ""  # the platform's id of the message to edit; "" = post a new one
    over: bool = False
    # Shown only to the user who acted (a daily challenge): never in the channel, and edited
    # only through the private message whose button was pressed.
    private: bool = False
    # The image style: the board picture's text form (core.text.drawn) and its alternative
    # text (the text board); "" when the game is shown without a picture.
    picture: str = ""
    alt: str = ""


@dataclass(frozen=True, slots=True)
class TurnCall:
    """A short message that calls the player whose turn it is (the platform notifies them;
    an edit of the game message never does). `key` names the turn: one call per turn."""

    key: str
    channel: str
    user: str
    text: str
    under: str = ""  # the game message's id, where a platform threads the call under it


@dataclass(frozen=True, slots=True)
class TableCall:
    """A tournament table to open in a thread of its own under `channel` (the tournament's):
    the surface makes the thread, once, and sends `OpenTable` from it."""

    tournament: str
    round: int
    table: int
    channel: str
    title: str


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one command or click."""

    private: str | None = None  # shown only to the user who acted
    game: GameView | None = None  # the game message to post or edit
    public: tuple[str, ...] = field(default_factory=tuple)  # extra channel messages (summaries)
    # Buttons under the one public message (a leaderboard's Previous / Next): a click on one
    # edits that message in place. Never stored: only reads carry them.
    buttons: tuple[tuple[Button, ...], ...] = field(default=(), compare=False)
    # The first result of a request applied before (a repeated delivery): surfaces show the
    # game message again but must not post its summaries twice. Never stored.
    replayed: bool = field(default=False, compare=False)
    # The request whose public texts these are: surfaces post them only if
    # `GameManager.publishable` says this delivery is the first to. Never stored.
    announce: str | None = field(default=None, compare=False)
    # The Review button shown under each public text in `reviewed` (the round and match
    # summaries of a reviewed match); other public texts (announcements, calls) have none.
    review: Button | None = field(default=None, compare=False)
    reviewed: tuple[str, ...] = field(default=(), compare=False)
    # The command was refused (a user error, or the store did not answer): nothing changed,
    # whatever the game view shows. Surfaces word a failed delivery by it. Never stored.
    refused: bool = field(default=False, compare=False)
    # Tournament tables whose round this reply starts (a surface opens each in a thread).
    tables: tuple[TableCall, ...] = ()
    # Public texts for another channel, once each: (channel, text), e.g. the standings a
    # tournament table's end shows in the tournament's channel rather than in the thread.
    elsewhere: tuple[tuple[str, str], ...] = ()
    # The turn's call to post, and the key of an earlier call to take down (the player acted).
    call: TurnCall | None = None
    uncall: str = ""

    def buttons_under(self, text: str) -> tuple[tuple[Button, ...], ...]:
        """The rows of buttons a public text is posted with."""
        return ((self.review,),) if self.review is not None and text in self.reviewed else ()

    def to_json(self) -> str:
        # Written by hand: dataclasses.asdict's deep copy costs more than the rest of a click.
        review = [self.review.action_id, self.review.label] if self.review else None
        data: dict[str, Any] = {
            "private": self.private, "game": _game_data(self.game), "public": self.public,
            "review": review, "reviewed": self.reviewed,
        }  # fmt: skip
        if self.tables:
            data["tables"] = [[c.tournament, c.round, c.table, c.channel, c.title]
                              for c in self.tables]  # fmt: skip
        if self.elsewhere:
            data["elsewhere"] = [list(pair) for pair in self.elsewhere]
        if self.call is not None:
            c = self.call
            data["call"] = [c.key, c.channel, c.user, c.text, c.under]
        if self.uncall:
            data["uncall"] = self.uncall
        return wire.dumps(data)

    @classmethod
    def from_json(cls, text: str, *, replayed: bool = False) -> Reply:
        data = wire.loads(text)
        game = data.get("game")
        return cls(
            private=data.get("private"),
            game=_game_from(game) if game else None,
            public=tuple(data.get("public", ())),
            replayed=replayed,
            review=Button(*review) if (review := data.get("review")) else None,
            reviewed=tuple(data.get("reviewed", ())),
            tables=tuple(TableCall(*call) for call in data.get("tables", ())),
            elsewhere=tuple((str(c), str(x)) for c, x in data.get("elsewhere", ())),
            call=TurnCall(*data["call"]) if data.get("call") else None,
            uncall=str(data.get("uncall", "")),
        )


def _game_data(game: GameView | None) -> dict[str, Any] | None:
    if game is None:
        return None
    rows = [[[b.action_id, b.label, b.style.value] for b in row] for row in game.rows]
    return {
        "channel": game.channel, "game_id": game.game_id, "version": game.version,
        "title": game.title, "body": game.body, "rows": rows, "deadline": game.deadline,
        "message": game.message, "over": game.over, "private": game.private,
        "picture": game.picture, "alt": game.alt,
    }  # fmt: skip


def _game_from(data: dict[str, Any]) -> GameView:
    rows = tuple(
        tuple(Button(action, label, ButtonStyle(style)) for action, label, style in row)
        for row in data["rows"]
    )
    return GameView(**{**data, "rows": rows})
