"""The local playground (SPEC 8): one channel played in the terminal, hot-seat players and bots.

Text in, text out: `send(line)` returns what the terminal shows, so tests drive it like a user
(errbot's test backend is the model). `run(stdin, stdout)` is the interactive loop around it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TextIO

from adapters.console.parse import (
    UsageError,
    check_settings,
    default_name,
    find_button,
    not_found,
    split_pairs,
    start_options,
    translate,
    user_id,
)
from adapters.console.render import pressable, private_lines, reply_lines
from adapters.console.terminal import read_line, write_lines
from adapters.console.texts import COMMANDS_HELP, WELCOME
from core.game.errors import ShutboxError
from core.game.numbers import is_integer, parse_int
from core.game.state import Phase
from core.service.buttons import parse_button
from core.service.commit import Scope
from core.service.context import Context
from core.service.gifts import Recipient
from core.service.manager import GameManager
from core.service.present import game_view
from core.service.seasons import MAX_SEASON
from core.service.settings import parse_bool
from core.service.views import Button, GameView, Reply
from core.text.i18n import t

SCOPE = Scope("local", "playground")
CHANNEL = "table"
TURN_VERBS = ("roll", "choose", "hint", "page")  # pressed by the player to act
HOST_VERBS = ("begin", "cancel")  # lobby buttons pressed by the host
MAX_PAGE = 10_000  # leaderboard pages one may ask for by number
SWEEP_SECONDS = 1.0

log = logging.getLogger(__name__)
Handler = Callable[[list[str], bool], Awaitable[list[str]]]


class Playground:
    """Drives the one playground channel through the real GameManager."""

    def __init__(self, manager: GameManager, name: str | None = None, *, tty: bool = False) -> None:
        self.manager = manager
        self.tty = tty  # ANSI bold instead of plain text
        self.done = False
        self.view: GameView | None = None  # the game message last shown
        self.review: Button | None = None  # the Review under the summaries last shown
        self.lang = "en"  # the language of the table's game (deadlines are written in it)
        self.acting: str | None = None  # who presses the turn buttons now, if not the seated
        self.names: dict[str, str] = {}
        self.seated = self._remember(name or default_name())
        self._explicit = False  # `as <name>` was the previous input
        self._session = secrets.token_hex(4)
        self._requests = itertools.count(1)
        self._commands: dict[str, Handler] = {
            "start": self._start, "solo": self._solo, "join": self._simple("join"),
            "leave": self._simple("leave"), "bot": self._simple("add_bot"),
            "go": self._host("begin"), "cancel": self._host("cancel"),
            "stop": self._simple("stop"), "balance": self._simple("balance"),
            "daily": self._simple("daily"), "review": self._simple("review"), "help": self._help,
            "leaderboard": self._leaderboard, "stats": self._about("stats"),
            "rank": self._about("rank"), "season": self._season, "rules": self._rules,
            "odds": self._odds, "config": self._config, "grant": self._grant, "give": self._give,
            "quit": self._quit, "exit": self._quit, "as": self._sit, "show": self._show_game,
        }  # fmt: skip

    # -- text in, text out ----------------------------------------------------------------

    def welcome(self) -> list[str]:
        return self._plain(WELCOME.format(name=self.names[self.seated]))

    @property
    def prompt(self) -> str:
        """Who is at the keyboard, and whose turn a pressed button plays when that differs."""
        seated = self.names[self.seated]
        if self.acting and self.acting != seated and not self._explicit:
            return f"{seated} ({self.acting} to play)> "
        return f"{seated}> "

    async def send(self, line: str) -> list[str]:
        """One line typed by the user; returns the lines the terminal shows."""
        words = line.split()
        if not words:
            return []
        explicit, self._explicit = self._explicit, False
        handler = self._commands.get(words[0].lower())
        if handler is None:
            shown = await self._press(line.strip(), explicit)
        else:
            shown = await handler(words[1:], explicit)
        await self._follow_table()
        return shown

    async def _follow_table(self) -> None:
        """Note the game's language and whose turn it is, for the deadline and the prompt."""
        with contextlib.suppress(ShutboxError):
            record = await self.manager.current(self._ctx())
            if record is None:
                self.acting = None
                self.lang = (await self.manager.server_config(SCOPE)).lang
                return
            self.lang = record.lang
            seat = record.state.to_act
            self.acting = seat.name if seat is not None else None

    async def tick(self) -> list[str]:
        """Sweep the deadlines once (the interactive loop does this every second)."""
        lines: list[str] = []
        for scope, reply in await self.manager.sweep(SCOPE.platform):
            if scope == SCOPE and (reply.game is None or reply.game.channel == CHANNEL):
                lines += self._show("", reply)
        return lines

    async def run(self, stdin: TextIO, stdout: TextIO) -> None:
        """The interactive loop: until `quit` or end of input, with deadlines swept every second."""
        self.tty = stdout.isatty()
        write_lines(stdout, self.welcome())
        if await self._load_view() is not None:
            write_lines(stdout, ["A game is running at this table:", *await self.send("show")])
        ticker = asyncio.create_task(self._sweep_forever(stdout))
        try:
            while not self.done:
                line = await read_line(stdin, stdout, self.prompt)
                if line is None:
                    break
                write_lines(stdout, await self._send_safely(line))
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker

    async def _send_safely(self, line: str) -> list[str]:
        """`send`, but a bug in one command must not end the whole session."""
        try:
            return await self.send(line)
        except Exception:
            # The details are for the log (a file or a developer's terminal), not the table.
            log.exception("playground command failed: %s", line)
            return self._note(t("en", "error.generic"))

    async def _sweep_forever(self, stdout: TextIO) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            with contextlib.suppress(ShutboxError):
                lines = await self.tick()
                if lines:
                    write_lines(stdout, ["", *lines], prompt=self.prompt)

    # -- who acts -------------------------------------------------------------------------

    def _remember(self, name: str) -> str:
        uid = user_id(name)
        self.names.setdefault(uid, name)
        return uid

    def _ctx(self, uid: str | None = None) -> Context:
        uid = uid or self.seated
        request = f"pg:{self._session}:{next(self._requests)}"
        return Context(SCOPE, CHANNEL, uid, self.names[uid], admin=True, request_id=request)

    async def _actor(self, verb: str, explicit: bool) -> Context:
        """The player to act presses turn buttons, the host the lobby's Start and Cancel."""
        if explicit:
            return self._ctx()
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
        if reply.game is not None or reply.reviewed:  # a new screen: its letters count now
            self.review = reply.review if reply.reviewed else None
        if reply.game is not None:
            self.view = reply.game
        now = self.manager.clock()
        return reply_lines(reply, name, now, tty=self.tty, lang=self.lang, view=self.view)

    def _note(self, text: str) -> list[str]:
        return private_lines(self.names[self.seated], text, tty=self.tty)

    def _plain(self, text: str) -> list[str]:
        return reply_lines(Reply(public=(text,)), "", 0, tty=self.tty)

    async def _error(self, ctx: Context, error: ShutboxError) -> list[str]:
        return self._note(translate(await self.manager.private_lang(ctx), error))

    # -- buttons --------------------------------------------------------------------------

    async def _load_view(self) -> GameView | None:
        """The channel's game message as it stands (e.g. a game left running by an earlier run)."""
        with contextlib.suppress(ShutboxError):
            record = await self.manager.current(self._ctx())
            self.view = None if record is None else game_view(record)
        return self.view

    async def _press(self, text: str, explicit: bool) -> list[str]:
        view = self.view or await self._load_view()
        shown = pressable(view, self.review)
        button = find_button(shown, text)
        if button is None:
            if not shown and self.view is not None and self.view.over:
                return self._note(f"“{text}”? This game is over: type `start` for a new one.")
            if not shown:
                return self._note(f"Unknown command “{text}”. Type `help` for the commands.")
            return self._note(not_found(text, shown))
        ctx = await self._actor(button.action_id.split(":")[1], explicit)
        return self._show(ctx.name, await self.manager.click(ctx, button.action_id))

    # -- commands -------------------------------------------------------------------------

    def _simple(self, method: str) -> Handler:
        """A command the seated user gives without arguments (`join`, `balance`, ...)."""

        async def run(args: list[str], explicit: bool) -> list[str]:
            ctx = self._ctx()
            call: Callable[[Context], Awaitable[Reply]] = getattr(self.manager, method)
            return self._show(ctx.name, await call(ctx))

        return run

    def _host(self, method: str) -> Handler:
        """`go` and `cancel`: the lobby's host buttons, pressed by the host unless `as` says who."""

        async def run(args: list[str], explicit: bool) -> list[str]:
            ctx = await self._actor("begin", explicit)
            call: Callable[[Context], Awaitable[Reply]] = getattr(self.manager, method)
            return self._show(ctx.name, await call(ctx))

        return run

    async def _start(self, args: list[str], explicit: bool) -> list[str]:
        return await self._open(args, solo=False)

    async def _solo(self, args: list[str], explicit: bool) -> list[str]:
        return await self._open(args, solo=True)

    async def _open(self, args: list[str], *, solo: bool) -> list[str]:
        ctx = self._ctx()
        try:
            options = start_options(args)
        except ShutboxError as error:
            return await self._error(ctx, error)
        except UsageError as error:
            return self._note(str(error))
        opened = self.manager.solo if solo else self.manager.start
        return self._show(ctx.name, await opened(ctx, options))

    async def _leaderboard(self, args: list[str], explicit: bool) -> list[str]:
        """`leaderboard [board] [preset] [season=N] [page=N]`; its Previous / Next buttons are
        shown as the command that turns the page."""
        ctx = self._ctx()
        pairs, bare = split_pairs(args)
        if set(pairs) - {"season", "page"} or len(bare) > 2:
            return self._note("Usage: `leaderboard [board] [preset] [season=N] [page=N]`.")
        board, preset = (bare[0] if bare else "wins"), (bare[1] if len(bare) > 1 else None)
        try:
            season = parse_int(pairs["season"], "season", 1, MAX_SEASON) if "season" in pairs else 0
            page = parse_int(pairs["page"], "page", 1, MAX_PAGE) if "page" in pairs else 1
        except ShutboxError as error:
            return await self._error(ctx, error)
        reply = await self.manager.leaderboard(ctx, board, preset, season or None, page - 1)
        command = " ".join(["leaderboard", *bare, *([f"season={season}"] if season else [])])
        turns = [f"  {button.label}: `{command} page={parse_button(button.action_id).arg + 1}`"
                 for row in reply.buttons for button in row]  # fmt: skip
        return self._show(ctx.name, reply) + turns

    async def _season(self, args: list[str], explicit: bool) -> list[str]:
        """`season`, or `season end [reset_chips=yes]`."""
        ctx = self._ctx()
        pairs, bare = split_pairs(args)
        if [word.lower() for word in bare] not in ([], ["end"]) or set(pairs) - {"reset_chips"}:
            return self._note("Usage: `season`, or `season end [reset_chips=yes]`.")
        try:
            reset = parse_bool(pairs["reset_chips"], "reset_chips") if pairs else False
        except ShutboxError as error:
            return await self._error(ctx, error)
        return self._show(ctx.name, await self.manager.season(ctx, bool(bare), reset))

    def _about(self, method: str) -> Handler:
        """`stats [name]` or `rank [name]`: about the seated player, or the one named."""

        async def run(args: list[str], explicit: bool) -> list[str]:
            ctx = self._ctx()
            call: Callable[..., Awaitable[Reply]] = getattr(self.manager, method)
            if not args:
                return self._show(ctx.name, await call(ctx))
            uid = self._remember(" ".join(args))
            return self._show(ctx.name, await call(ctx, uid, self.names[uid]))

        return run

    async def _rules(self, args: list[str], explicit: bool) -> list[str]:
        ctx = self._ctx()
        return self._show(ctx.name, await self.manager.rules(ctx, args[0] if args else None))

    async def _odds(self, args: list[str], explicit: bool) -> list[str]:
        ctx = self._ctx()
        return self._show(ctx.name, await self.manager.odds(ctx, args[0] if args else None))

    async def _config(self, args: list[str], explicit: bool) -> list[str]:
        ctx = self._ctx()
        pairs, bare = split_pairs(args)
        if bare:
            return self._note(f"Settings are key=value (e.g. `config style=text`): “{bare[0]}”?")
        try:  # checked here first: the manager cannot word errors that name a `key`
            check_settings(pairs)
        except ShutboxError as error:
            return await self._error(ctx, error)
        return self._show(ctx.name, await self.manager.configure(ctx, pairs))

    async def _grant(self, args: list[str], explicit: bool) -> list[str]:
        if len(args) < 2 or not is_integer(args[-1]):
            return self._note("Usage: `grant <name> <chips>`, e.g. `grant Bob 50` (-50 takes).")
        uid = self._remember(" ".join(args[:-1]))
        ctx = self._ctx()
        reply = await self.manager.grant(ctx, uid, self.names[uid], int(args[-1]))
        return self._show(ctx.name, reply)

    async def _give(self, args: list[str], explicit: bool) -> list[str]:
        if len(args) < 2 or not args[-1].lstrip("-").isdigit():
            return self._note("Usage: `give <name> <chips>`, e.g. `give Bob 20`.")
        uid = self._remember(" ".join(args[:-1]))
        ctx = self._ctx()
        reply = await self.manager.give(ctx, Recipient(uid, self.names[uid]), int(args[-1]))
        return self._show(ctx.name, reply)

    async def _help(self, args: list[str], explicit: bool) -> list[str]:
        ctx = self._ctx()
        return [*self._show(ctx.name, await self.manager.help(ctx)), *self._plain(COMMANDS_HELP)]

    async def _sit(self, args: list[str], explicit: bool) -> list[str]:
        if not args:
            return self._note("Usage: `as <name>`, e.g. `as Bob`.")
        self.seated = self._remember(" ".join(args))
        self._explicit = True
        name = self.names[self.seated]
        return [f"{name} is at the keyboard (the next button is pressed as {name})."]

    async def _show_game(self, args: list[str], explicit: bool) -> list[str]:
        view = await self._load_view()
        if view is None:
            return self._note("No game is running here. Type `start` (or `solo`) to open one.")
        return self._show("", Reply(game=view))

    async def _quit(self, args: list[str], explicit: bool) -> list[str]:
        self.done = True
        return ["Bye!"]
