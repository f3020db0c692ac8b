"""What a surface asks of the GameManager: one frozen value per subcommand, button and timer.

Adapters only build one of these (from a slash command's options, a button id, or typed text
read by `core/service/api/text_commands.py`) and call `GameManager.handle(ctx, command)`; who acts
and where travels beside it in the `Context`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from core.service.features.gifts import Recipient, Standing
from core.service.model.buttons import ButtonId, read_button
from core.service.model.services import Command as Command  # noqa: PLC0414 (re-exported)
from core.service.model.settings import StartOptions


@dataclass(frozen=True, slots=True)
class Start(Command):
    """`/shutbox start`: open a lobby with these options."""

    options: StartOptions = field(default_factory=StartOptions)


@dataclass(frozen=True, slots=True)
class Solo(Command):
    """`/shutbox solo`: a game against the box alone, started at once."""

    options: StartOptions = field(default_factory=StartOptions)


@dataclass(frozen=True, slots=True)
class Join(Command):
    """Take a seat in the channel's lobby."""


@dataclass(frozen=True, slots=True)
class Leave(Command):
    """Give up the seat in the channel's game."""


@dataclass(frozen=True, slots=True)
class AddBot(Command):
    """The host seats a bot in the lobby."""


@dataclass(frozen=True, slots=True)
class Begin(Command):
    """The host starts the lobby's game."""


@dataclass(frozen=True, slots=True)
class Cancel(Command):
    """The host closes the lobby before it starts."""


@dataclass(frozen=True, slots=True)
class Stop(Command):
    """End the channel's game (its host, or an admin)."""


@dataclass(frozen=True, slots=True)
class Click(Command):
    """A button press: `stb:<verb>:<game>:<version>:<arg>` (core/service/model/buttons.py).

    The id is read once, where the surface builds the command: `pressed` is the typed button
    (None for an id that is forged or broken, which is refused as an outdated button), and
    nothing in the core parses `button` again."""

    button: str
    pressed: ButtonId | None = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pressed", read_button(self.button))


@dataclass(frozen=True, slots=True)
class Review(Command):
    """The caller's last finished match here against perfect play."""


@dataclass(frozen=True, slots=True)
class Balance(Command):
    """The caller's chips."""


@dataclass(frozen=True, slots=True)
class Daily(Command):
    """The caller's daily chips."""


@dataclass(frozen=True, slots=True)
class Challenge(Command):
    """Today's daily challenge: the same dice for every member of the server, played privately."""


@dataclass(frozen=True, slots=True)
class Grant(Command):
    """An admin gives `amount` chips to `target` (a negative amount takes them); `name` and
    `standing` are what the platform said of the target (see `core/service/features/gifts.py`)."""

    target: str
    name: str
    amount: int
    standing: Standing = Standing.UNKNOWN


@dataclass(frozen=True, slots=True)
class Give(Command):
    """The caller pays `amount` of their own chips to `recipient`."""

    recipient: Recipient
    amount: int


@dataclass(frozen=True, slots=True)
class Leaderboard(Command):
    """A board; `season` reads an ended season's archive, `page` counts from 0."""

    board: str = "wins"
    preset: str | None = None
    season: int | None = None
    page: int = 0


@dataclass(frozen=True, slots=True)
class Rank(Command):
    """A player's place on every board: the caller's, or `user`'s."""

    user: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Stats(Command):
    """A player's numbers: the caller's, or `user`'s; this season's, or of all time."""

    user: str | None = None
    name: str | None = None
    all_time: bool = False


@dataclass(frozen=True, slots=True)
class Season(Command):
    """The current season; `end` (admins) archives it, `reset_chips` too the balances."""

    end: bool = False
    reset_chips: bool | None = None  # None: not given (only `end` may be given it)


@dataclass(frozen=True, slots=True)
class Web(Command):
    """The server's page: its link; `on`, `off` and `rotate` (admins) change it."""

    action: str = ""


@dataclass(frozen=True, slots=True)
class Configure(Command):
    """The server's settings; admins change them with `changes` (`key` -> typed value)."""

    changes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Audit(Command):
    """The latest entries of the server's audit log (admins)."""


@dataclass(frozen=True, slots=True)
class Rules(Command):
    """The rules of a preset (the server's own when None)."""

    preset: str | None = None


@dataclass(frozen=True, slots=True)
class Odds(Command):
    """The odds of shutting the box under a preset."""

    preset: str | None = None


@dataclass(frozen=True, slots=True)
class Help(Command):
    """The overview of the subcommands, or one subcommand (`topic`) in detail."""

    topic: str | None = None


@dataclass(frozen=True, slots=True)
class Timeout(Command):
    """A deadline of the channel's game passed at `version`: sent by the sweep, never a user."""

    version: int
