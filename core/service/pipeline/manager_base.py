"""What every part of the GameManager shares: the store, the clock, the dice, and what this
process keeps of Redis (games, balances, server settings) between commands.

The parts build on this base, each adding one concern (the commit loop, opening games, turn
buttons, the sweep, the server's commands); `GameManager` puts them together.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.game.dice import DiceSource, SecureDice
from core.service.api.commands import Command
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.ports import GameStore, StoreUnavailable
from core.service.model.record import GameRecord
from core.service.model.settings import ServerConfig, unreadable_settings
from core.service.model.unreadable import Unreadable
from core.service.model.views import Reply
from core.service.pipeline.bus import Middleware, Next
from core.service.pipeline.game_commit import human_ids
from core.text.i18n import t

CONFIG_TTL = 30.0  # seconds a server's settings are cached in the process
UnreadableSeen = Callable[[Scope, Unreadable], None]


def _unheard(scope: Scope, error: Unreadable) -> None:
    """Where nobody listens (tests, tools): the reply already says what is wrong."""


@dataclass(slots=True)
class _Cached:
    config: ServerConfig
    loaded: float


@dataclass(slots=True)
class ManagerBase:
    """Platform-neutral: adapters build a `Context` and a command, and render the `Reply`."""

    store: GameStore
    clock: Callable[[], float] = time.time
    dice: DiceSource = field(default_factory=SecureDice)
    games: dict[tuple[str, str], GameRecord] = field(default_factory=dict)
    balances: dict[str, dict[str, int]] = field(default_factory=dict)
    configs: dict[str, _Cached] = field(default_factory=dict)
    # Channels whose last commit's outcome stayed unknown: the sweep shows them once it can.
    unsettled: set[tuple[Scope, str]] = field(default_factory=set)
    resolve_pauses: tuple[float, ...] = (0.1, 0.3, 0.6, 1.0, 2.0, 2.0, 2.0)
    # Seconds a click's lost reply is asked after at most: a Redis that died mid-command is
    # rarely back in them, and the answer must reach the player within the platform's 3 s.
    resolve_budget: float = 1.5
    # The platforms on which this process can show the board as a picture (`style=image`):
    # Discord always, Slack with a public address; elsewhere such a server gets emoji.
    pictures: set[str] = field(default_factory=set)
    # Why a platform shows no picture, as a catalog key, where it is not the missing address
    picture_notes: dict[str, str] = field(default_factory=dict)
    # Where this process serves the servers' pages (SHUTBOX_PUBLIC_URL); empty: no pages,
    # and `no_pages` is the catalog key that says why.
    public_url: str = ""
    no_pages: str = "web.no_address"
    # Told of every record found unreadable (the bot counts and logs each once).
    on_unreadable: UnreadableSeen = _unheard
    # Run around every command, the first outermost (core/service/pipeline/bus.py).
    middleware: tuple[Middleware, ...] = ()
    # The middleware wrapped around the handler table, built on the first command.
    _pipeline: Next | None = field(default=None, init=False, repr=False)

    async def _through_middleware(self, ctx: Context, command: Command) -> Reply:
        """The command through the middleware to its handler; errors are raised, not worded."""
        raise NotImplementedError  # GameManager dispatches by its handler table

    # -- languages and settings -----------------------------------------------------------

    async def server_config(self, scope: Scope) -> ServerConfig:
        cached = self.configs.get(scope.tag)
        if cached is not None and self.clock() - cached.loaded < CONFIG_TTL:
            return cached.config
        stored = await self.store.hash(scope, "cfg")
        for broken in unreadable_settings(stored):  # the default stands in for it
            self._contained(scope, broken)
        config = ServerConfig.from_fields(stored)
        self.configs[scope.tag] = _Cached(config, self.clock())
        return config

    def board_style(self, scope: Scope, style: str) -> str:
        """The style a new game in `scope` is shown in: the server's, but a picture only where
        this process can show one."""
        return "emoji" if style == "image" and scope.platform not in self.pictures else style

    async def private_lang(self, ctx: Context) -> str:
        """The user's own locale where the platform gives one, else the server's language."""
        if ctx.locale:
            return ctx.locale
        try:
            return (await self.server_config(ctx.scope)).lang
        except StoreUnavailable:
            return "en"

    async def say(self, ctx: Context, key: str, /, **params: object) -> str:
        return t(await self.private_lang(ctx), key, **params)

    # -- the games and balances this process knows ----------------------------------------

    async def _record(self, scope: Scope, channel: str) -> GameRecord | None:
        """The cached game, else one read from Redis (with its players' balances)."""
        record = self.games.get((scope.tag, channel))
        if record is not None:
            return record
        stored, _ = await self.store.load_with_balances(scope, channel, [])
        if stored is None:
            return None
        record = GameRecord.from_stored(stored.record, channel, stored.message)
        known = self._balances(scope)
        missing = [p for p in human_ids(record.state) if p not in known]
        if missing and record.state.config.stakes.staked:
            known.update(await self.store.balances(scope, missing))
        self.games[(scope.tag, channel)] = record
        return record

    def forget(self, scope: Scope, accounts: Sequence[str] = (), *, every: bool = False) -> None:
        if every:
            self.balances.pop(scope.tag, None)
            self.configs.pop(scope.tag, None)
        for account in accounts:
            self._balances(scope).pop(account, None)

    def picture_note(self, scope: Scope, style: str) -> str | None:
        if self.board_style(scope, style) == style:
            return None
        return self.picture_notes.get(scope.platform, "config.no_pictures")

    def _contained(self, scope: Scope, error: Unreadable) -> None:
        """An unreadable record met at the boundary of its game, member or channel."""
        self.on_unreadable(scope, error)

    def _forget(self, scope: Scope, channel: str) -> None:
        self.games.pop((scope.tag, channel), None)

    def _balances(self, scope: Scope) -> dict[str, int]:
        return self.balances.setdefault(scope.tag, {})

    async def balance_of(self, scope: Scope, user: str) -> int:
        found = await self.store.balances(scope, [user])
        if user in found:
            return found[user]
        return (await self.server_config(scope)).start_chips
