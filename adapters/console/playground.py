"""The local playground (SPEC 8): one channel played in the terminal, hot-seat players and bots.

Text in, text out: `send(line)` returns what the terminal shows, so tests drive it like a user
(errbot's test backend is the model). `run(stdin, stdout)` is the interactive loop around it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TextIO

from adapters.console import loop
from adapters.console.parse import Names, default_name, find_button, not_found, translate, verified
from adapters.console.render import pressable, private_lines, reply_lines
from adapters.console.tables import Tables
from adapters.console.texts import commands_help, prompt, usage, welcome
from core.game.errors import ShutboxError
from core.game.numbers import shown as shown_text
from core.game.state import GameState, Phase
from core.service.api.commands import AddBot, Begin, Cancel, Click, Command, Help, Leaderboard
from core.service.api.service import Service
from core.service.api.text_commands import UsageError
from core.service.model.buttons import parse_button
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.model.views import Button, GameView, Reply
from core.service.pipeline.subcommands import BY_NAME, parse
from core.service.show.present import game_view
from core.text.i18n import t

SCOPE = Scope("local", "playground")
CHANNEL = "table"
TURN_VERBS = ("roll", "choose", "hint", "page")  # pressed by the player to act
HOST_VERBS = ("begin", "cancel", "remove", "host")  # lobby buttons pressed by the host
PICTURE_NOTE = "config.no_pictures_terminal"  # why no picture here (bot/ tells the manager)

Handler = Callable[[list[str], bool], Awaitable[list[str]]]
Sweep = Callable[[str], Awaitable[list[tuple[Scope, Reply]]]]


class Playground:
    """Drives the one playground channel through the service."""

    def __init__(
        self, manager: Service, name: str | None = None, *, tty: bool = False,
        clock: Callable[[], float] = time.time, sweep: Sweep | None = None,
    ) -> None:  # fmt: skip
        self.manager, self.clock, self.sweep = manager, clock, sweep  # no sweep: deadlines wait
        self.tty = tty  # ANSI bold instead of plain text
        self.done = False
        self.view: GameView | None = None  # the game message last shown
        self.review: Button | None = None  # the Review under the summaries last shown
        self.lang = "en"  # the language of the table's game (deadlines are written in it)
        self.acting: str | None = None  # who presses the turn buttons now, if not the seated
        self.host: str | None = None  # who presses the lobby's Start and Cancel
        self.names = Names()
        self.tables = Tables(CHANNEL)  # a tournament's tables, played here one after another
        self.seated = self.names.remember(name or default_name())
        self._explicit = False  # `as <name>` was the previous input
        self._session = secrets.token_hex(4)
        self._requests = itertools.count(1)
        # The playground's own words; every other subcommand is read as in Slack.
        self._commands: dict[str, Handler] = {
            "bot": self._lobby(AddBot(), host=False), "go": self._lobby(Begin(), host=True),
            "cancel": self._lobby(Cancel(), host=True), "quit": self._quit, "exit": self._quit,
            "as": self._sit, "show": self._show_game,
        }  # fmt: skip

    # -- text in, text out ----------------------------------------------------------------

    def welcome(self) -> list[str]:
        return self._plain(welcome(self.lang, self.names[self.seated]))

    @property
    def prompt(self) -> str:
        """Who is at the keyboard, and whose turn a pressed button plays when that differs."""
        seated = self.names[self.seated]
        if self._explicit:
            return f"{seated}> "
        return prompt(self.lang, seated, self.acting, self.host)

    async def send(self, line: str) -> list[str]:
        """One line typed by the user; returns the lines the terminal shows."""
        words = line.split()
        if not words:
            return []
        explicit, self._explicit = self._explicit, False
        verb = words[0].lower()
        handler = self._commands.get(verb)
        if handler is not None:
            shown = await handler(words[1:], explicit)
        elif verb in BY_NAME:
            shown = await self._typed(verb, line)
        else:
            shown = await self._press(line.strip(), explicit)
        await self._follow_table()
        return shown + await self._next_table()

    async def _next_table(self) -> list[str]:
        """Once nothing is played here, the next tournament table (or back to the channel)."""
        record = await self._record()
        if record is not None and not record.state.over:
            return []
        found = await self.tables.next(self.manager, self._ctx(), self.lang)
        if found is None:
            return []
        self.view = None
        said, reply = found
        await self._follow_table()
        return self._plain(said) + self._show("", reply)

    async def _follow_table(self) -> None:
        """Note the game's language and whose turn it is, for the deadline and the prompt."""
        with contextlib.suppress(ShutboxError):
            record = await self.manager.current(self._ctx())
            self.acting = self.host = None
            if record is None:
                self.lang = await self.manager.private_lang(self._ctx())
                return
            self.lang = record.lang
            seat = None if record.state.over else record.state.to_act
            self.acting = seat.name if seat is not None else None
            if record.state.phase is Phase.LOBBY:
                self.host = record.state.host.name

    async def tick(self) -> list[str]:
        """Sweep the deadlines once (the interactive loop does this every second)."""
        lines: list[str] = []
        swept = await self.sweep(SCOPE.platform) if self.sweep is not None else []
        for scope, reply in swept:
            if scope == SCOPE and (reply.game is None or reply.game.channel == self.tables.channel):
                lines += self._show("", reply)
        if lines:  # a turn timed out or the lobby closed: the prompt follows the table
            await self._follow_table()
            lines += await self._next_table()
        return lines

    async def run(self, stdin: TextIO, stdout: TextIO, stop: asyncio.Event | None = None) -> None:
        """The interactive loop: until `quit`, end of input or `stop`, deadlines swept meanwhile."""
        await self._follow_table()  # a table set to Danish is welcomed in Danish, deadlines too
        await loop.run(self, stdin, stdout, stop)

    def failed(self) -> list[str]:
        """What a command that failed by a bug shows (its details go to the log)."""
        return self._note(t(self.lang, "error.generic"))

    # -- who acts -------------------------------------------------------------------------

    def _ctx(self, uid: str | None = None) -> Context:
        uid = uid or self.seated
        request = f"pg:{self._session}:{next(self._requests)}"
        return Context(SCOPE, self.tables.channel, uid, self.names[uid], admin=True,
                       request_id=request)  # fmt: skip

    async def _actor(self, verb: str, explicit: bool) -> Context:
        """The player to act presses turn buttons, the host the lobby's Start and Cancel."""
        if explicit or (self.view is not None and self.view.private):
            return self._ctx()  # a private screen's buttons are its player's own
        try:
            record = await self.manager.current(self._ctx())
        except ShutboxError:
            return self._ctx()
        if record is None:
            return self._ctx()
        state = record.state
        seat = state.to_act if verb in TURN_VERBS else None
        if verb in HOST_VERBS and state.phase is Phase.LOBBY:
            seat = state.host
        if seat is None:
            return self._ctx()
        self.names.setdefault(seat.id, seat.name)
        return self._ctx(seat.id)

    # -- showing replies ------------------------------------------------------------------

    def _show(self, name: str, reply: Reply) -> list[str]:
        self.tables.take(reply)  # a tournament round's tables: the next ones played here
        if reply.game is not None or reply.reviewed:  # a new screen: its letters count now
            self.review = reply.review if reply.reviewed else None
        if reply.game is not None:
            self.view = reply.game
        lines = reply_lines(reply, name, self.clock(), tty=self.tty, lang=self.lang, view=self.view)
        if reply.game is not None and reply.game.private:  # a daily challenge: for one player
            who = name or self.names[self.seated]
            lines.insert(0, t(self.lang, "playground.private_screen", name=who))
        return lines

    def _note(self, text: str) -> list[str]:
        return private_lines(self.names[self.seated], text, tty=self.tty, lang=self.lang)

    def _plain(self, text: str) -> list[str]:
        return reply_lines(Reply(public=(text,)), "", 0, tty=self.tty)

    async def _error(self, ctx: Context, error: ShutboxError) -> list[str]:
        return self._note(translate(await self.manager.private_lang(ctx), error))

    # -- buttons --------------------------------------------------------------------------
    async def load_view(self) -> GameView | None:
        """The channel's game message as it stands (e.g. a game left running by an earlier run)."""
        with contextlib.suppress(ShutboxError):
            record = await self.manager.current(self._ctx())
            self.view = None if record is None else game_view(record)
        return self.view

    async def _record(self) -> GameRecord | None:
        """The game played here as it stands (None: none, or the store did not answer)."""
        with contextlib.suppress(ShutboxError):
            return await self.manager.current(self._ctx())
        return None

    async def _state(self) -> GameState | None:
        """The table's game as it stands, to say why typed tiles are no move."""
        record = await self._record()
        return None if record is None else record.state

    async def _press(self, text: str, explicit: bool) -> list[str]:
        view = self.view or await self.load_view()
        shown = pressable(view, self.review)
        button = find_button(shown, text)
        if button is None:
            typed = shown_text(text)
            if not shown and self.view is not None and self.view.over:
                return self._note(t(self.lang, "playground.game_over", text=typed))
            if not shown:
                return self._note(t(self.lang, "playground.unknown", text=typed))
            return self._note(not_found(text, shown, self.lang, await self._state(), view))
        ctx = await self._actor(button.action_id.split(":")[1], explicit)
        return self._show(ctx.name, await self.manager.handle(ctx, Click(button.action_id)))

    # -- commands -------------------------------------------------------------------------

    async def _typed(self, verb: str, line: str) -> list[str]:
        """A subcommand as Slack reads it, with players written as their plain names."""
        ctx = self._ctx()
        try:
            command = verified(parse(line, self.names))
        except UsageError as error:
            if error.key in ("usage.duplicate", "playground.no_player"):  # nothing Slack-only
                return await self._error(ctx, error)
            return self._note(usage(self.lang, verb, error.params.get("value")))
        except ShutboxError as error:
            return await self._error(ctx, error)
        reply = await self.manager.handle(ctx, command)
        await self._follow_table()  # `config lang=da` answers in Danish already
        return self._show(ctx.name, reply) + self._after(command, line, reply)

    def _after(self, command: Command, line: str, reply: Reply) -> list[str]:
        """What the playground adds: its own commands after the help, and the command that turns
        a leaderboard's page where a chat shows Previous / Next buttons."""
        if isinstance(command, Help) and not command.topic:
            return self._plain(commands_help(self.lang))
        if not isinstance(command, Leaderboard):
            return []
        typed = [word for word in line.split()[1:] if not word.lower().startswith("page=")]
        again = " ".join(["leaderboard", *typed])
        return [
            "  " + t(self.lang, "playground.page", label=button.label,
                     command=f"{again} page={parse_button(button.action_id).arg + 1}")
            for row in reply.buttons for button in row
        ]  # fmt: skip

    def _lobby(self, command: Command, *, host: bool) -> Handler:
        """`bot`, and `go` and `cancel`: the lobby's buttons as typed words; the host presses
        Start and Cancel unless `as` says who."""

        async def run(args: list[str], explicit: bool) -> list[str]:
            ctx = await self._actor("begin", explicit) if host else self._ctx()
            return self._show(ctx.name, await self.manager.handle(ctx, command))

        return run

    async def _sit(self, args: list[str], explicit: bool) -> list[str]:
        if not args:
            return self._note(t(self.lang, "playground.as_usage"))
        self.seated = self.names.remember(" ".join(args))
        self._explicit = True
        return self._plain(t(self.lang, "playground.at_keyboard", name=self.names[self.seated]))

    async def _show_game(self, args: list[str], explicit: bool) -> list[str]:
        view = await self.load_view()
        if view is None:
            return self._note(t(self.lang, "playground.no_game"))
        return self._show("", Reply(game=view))

    async def _quit(self, args: list[str], explicit: bool) -> list[str]:
        self.done = True
        return [t(self.lang, "playground.bye")]
