"""One way to show a `Reply` on any chat platform: the platform is a `Surface`, `deliver` the order.

Every platform shows a reply the same way. The game message comes first: the message that shows
the game is edited in place; without one (or when it was deleted) a new one is posted, once
however often the request is delivered and whichever process takes each delivery, and its id is
attached to the game so any process can edit it later. Then the texts: the public ones are
announced once (whoever delivers first), and the private answer goes to the user who acted.

A platform adapter converts the request into a manager call, and its answer into a `Surface`
call by call; it never decides the order itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from core.service.model.buttons import belongs_to
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import Button, GameView, Reply

Rows = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True, slots=True)
class GameMessage:
    """The message that shows a game: its id ("" = none yet), and whether the game knows it."""

    id: str
    attached: bool


class Surface(Protocol):
    """One request's (or one passed deadline's) way of showing things on one platform."""

    @property
    def private_first(self) -> bool:
        """Whether the private text is the request's own answer (a Discord interaction takes
        exactly one): it then follows the game message at once, even when a public text says
        the same. Where the request was acknowledged already (Slack), the private note comes
        last, and not at all when a public text says it."""

    @property
    def clicked(self) -> str:
        """The id of the message whose button was pressed; "" for a command or a deadline."""

    @property
    def pressed(self) -> str:
        """The id of the button that was pressed; "" for a command or a deadline."""

    async def locate(self, view: GameView, clicked: str) -> GameMessage | None:
        """The message that shows the game now (`clicked` is the pressed message, if it shows
        this game); None when `view` must not be shown (it is no longer the game's latest)."""

    async def edit_game(self, view: GameView, message: str) -> bool:
        """Show `view` on `message`; False when that message is gone (deleted)."""

    async def post_game(self, view: GameView) -> str:
        """Post `view` as a new message; returns its id."""

    async def show_private_game(self, view: GameView) -> None:
        """Show a private game view (a daily challenge) to the user who acted only: the private
        message whose button was pressed is replaced, else a new private message is sent. Its id
        is never kept: only the request that pressed it can change it."""

    async def show_panel(self, text: str, rows: Rows) -> None:
        """A public text whose buttons page it (a leaderboard's Previous / Next): the pressed
        message is edited in place, else a new one is posted."""

    async def post_public(self, text: str, rows: Rows) -> None:
        """A new public message (a summary, an announcement) with `rows` of buttons under it."""

    async def answer_private(self, text: str) -> None:
        """A text only the user who acted sees."""


class Claims(Protocol):
    """What delivery asks of the manager: the claims that make a post or an announcement
    happen once, and where the game message's id is kept."""

    async def publishable(self, scope: Scope, reply: Reply) -> tuple[str, ...]: ...

    async def post_game_once(
        self, scope: Scope, key: str, post: Callable[[], Awaitable[str]], seconds: int = ...
    ) -> tuple[str, bool]: ...

    async def attach_message(self, ctx: Context, message: str) -> None: ...


async def deliver(reply: Reply, surface: Surface, manager: Claims, ctx: Context) -> None:
    """Show `reply`: the game message, then the private answer and the public texts."""
    if reply.game is not None:
        await show_game(reply.game, surface, manager, ctx)
    private = reply.private
    if surface.private_first:
        if private:
            await surface.answer_private(private)
        await announce(reply, surface, manager, ctx.scope)
        return
    await announce(reply, surface, manager, ctx.scope)
    if private and private not in reply.public:
        await surface.answer_private(private)


async def show_game(view: GameView, surface: Surface, manager: Claims, ctx: Context) -> None:
    """Edit the message that shows the game, or post it (once) and attach its id."""
    if view.private:
        await surface.show_private_game(view)
        return
    # A finished match's Rematch opens a new game: its lobby gets a message of its own, and the
    # match's final board stays where it is.
    clicked = surface.clicked if belongs_to(surface.pressed, view.game_id) else ""
    shown = await surface.locate(view, clicked)
    if shown is None:
        return
    if shown.id and await surface.edit_game(view, shown.id):
        if not shown.attached:
            await _attach(manager, ctx, view, shown.id)
        return
    # However often the request that shows it is delivered, the message is posted once; the
    # key names the game and the message that is gone, if any.
    key = f"{view.game_id}:{shown.id}"
    posted, ours = await manager.post_game_once(ctx.scope, key, lambda: surface.post_game(view))
    if not posted:
        return  # the first delivery has not posted in time: it shows the game itself
    if not ours:  # the other delivery's message: show this view on it too
        await surface.edit_game(view, posted)
    # Attached by whoever got here: the process that posted it may die before it could.
    await _attach(manager, ctx, view, posted)


async def announce(reply: Reply, surface: Surface, manager: Claims, scope: Scope) -> None:
    """The reply's public texts, if this delivery is the first to announce them."""
    texts = await manager.publishable(scope, reply)
    if reply.buttons and texts:  # a leaderboard page with its Previous / Next
        await surface.show_panel(texts[0], reply.buttons)
        texts = texts[1:]
    for text in texts:  # round and match summaries carry their Review button
        await surface.post_public(text, reply.buttons_under(text))


async def _attach(manager: Claims, ctx: Context, view: GameView, message: str) -> None:
    """Keep the game message's id with the game, so any process can edit it later."""
    await manager.attach_message(replace(ctx, channel=view.channel), message)
