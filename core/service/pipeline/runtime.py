"""The game machinery's one runtime: the store, the clock, the dice, the settings and what this
process keeps of Redis (games, balances, server settings) between commands.

Every part of the machinery (opening, clicks, game commands, the challenge, the commit loop,
the projection, the sweep) is a module of functions that take this value, the way
cosmicpython's handlers take what its `bootstrap` injects. It is the `Services` every feature's
handler is given (core/service/model/services.py): its methods are those a handler may call;
what the process caches is read and written only through the functions of `cached.py`.

Each cache is bounded (`CacheSizes`, from SHUTBOX_CACHE_*): the least recently used entry goes
first and is read back from Redis when next needed, so a bound costs a read, never an answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cachetools import LRUCache

from core.game.dice import DiceSource, SecureDice
from core.service.model import keys
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.membership import Membership, NobodyLeft
from core.service.model.ports import GameStore, StoreUnavailable
from core.service.model.record import GameRecord
from core.service.model.settings import ServerConfig, unreadable_settings
from core.service.model.unreadable import Seen as UnreadableSeen
from core.service.model.unreadable import Unreadable, unheard
from core.service.pipeline.bus import Middleware
from core.text.i18n import t

CONFIG_TTL = 30.0  # seconds a server's settings are cached in the process
GameKey = tuple[str, str]  # (the server's scope tag, the channel)
# The caches' default bounds: a cached game takes a few KB, a server's settings and a balance
# far less, so the defaults hold a busy process under about 50 MB of cache.
GAMES_CACHED = 10_000
SERVERS_CACHED = 2_000
MEMBERS_CACHED = 1_000  # per server


@dataclass(slots=True)
class CachedConfig:
    config: ServerConfig
    loaded: float


@dataclass(frozen=True, slots=True)
class CacheSizes:
    """How much of Redis one process keeps: games, servers (their settings and balances), and
    balances per server."""

    games: int = GAMES_CACHED
    servers: int = SERVERS_CACHED
    members: int = MEMBERS_CACHED


@dataclass(slots=True)
class GameRuntime:
    """What the game machinery runs on; the composition root (bot/) builds one per process."""

    store: GameStore
    clock: Callable[[], float] = time.time
    dice: DiceSource = field(default_factory=SecureDice)
    cache_sizes: CacheSizes = field(default_factory=CacheSizes)
    games: LRUCache[GameKey, GameRecord] = field(init=False)
    balances: LRUCache[str, LRUCache[str, int]] = field(init=False)  # server -> member -> chips
    configs: LRUCache[str, CachedConfig] = field(init=False)
    # Channels whose last commit's outcome is unknown: the sweep shows them once Redis answers.
    unresolved: set[tuple[Scope, str]] = field(default_factory=set)
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
    on_unreadable: UnreadableSeen = unheard
    # Run around every command, the first outermost (core/service/pipeline/bus.py).
    middleware: tuple[Middleware, ...] = ()
    # Who has left their server: the platform's adapter sets its own (model/membership.py).
    membership: Membership = field(default_factory=NobodyLeft)

    def __post_init__(self) -> None:
        self.games = LRUCache(self.cache_sizes.games)
        self.balances = LRUCache(self.cache_sizes.servers)
        self.configs = LRUCache(self.cache_sizes.servers)

    # -- languages and settings (the `Services` a feature's handler is given) -------------

    async def server_config(self, scope: Scope) -> ServerConfig:
        cached = self.configs.get(scope.tag)
        if cached is not None and self.clock() - cached.loaded < CONFIG_TTL:
            return cached.config
        stored = await self.store.hash(scope, keys.CONFIG)
        for broken in unreadable_settings(stored):  # the default stands in for it
            self.contained(scope, broken)
        config = ServerConfig.from_fields(stored)
        self.configs[scope.tag] = CachedConfig(config, self.clock())
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

    def forget(self, scope: Scope, accounts: Sequence[str] = (), *, every: bool = False) -> None:
        if every:
            self.balances.pop(scope.tag, None)
            self.configs.pop(scope.tag, None)
        known = self.balances.get(scope.tag)
        for account in accounts:
            if known is not None:
                known.pop(account, None)

    def picture_note(self, scope: Scope, style: str) -> str | None:
        if self.board_style(scope, style) == style:
            return None
        return self.picture_notes.get(scope.platform, "config.no_pictures")

    def contained(self, scope: Scope, error: Unreadable) -> None:
        """An unreadable record met at the boundary of its game, member or channel."""
        self.on_unreadable(scope, error)
