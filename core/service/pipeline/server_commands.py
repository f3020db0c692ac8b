"""Chips, boards, seasons, settings and texts: the commands about a server, not one game.

Each handler is `async (services, ctx, command) -> Reply` and uses only the `Services` it is
given (core/service/model/services.py): the store, the clock, the server's settings, the
caller's language, and `forget` for what this process keeps of what it just wrote. The
subcommand table (subcommands.py) says which command each one answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from core.game.errors import InvalidOption, NotAllowed
from core.service.api.commands import (
    Audit,
    Balance,
    Configure,
    Daily,
    Give,
    Grant,
    Leaderboard,
    Odds,
    Rank,
    Rules,
    Season,
    Stats,
)
from core.service.features import audit, info, ranks
from core.service.features.audit import Action, AuditEntry, audit_op, read_entries
from core.service.features.challenge.board import challenge_board, challenge_stats
from core.service.features.economy import Economy
from core.service.features.gifts import Gifts, Recipient
from core.service.features.seasons import Seasons
from core.service.model import keys
from core.service.model.commit import Commit, OpKind, StoreOp
from core.service.model.context import Context
from core.service.model.services import Services
from core.service.model.settings import ServerConfig, unreadable_settings
from core.service.model.views import Reply
from core.text.i18n import t


def _economy(services: Services) -> Economy:
    return Economy(services.store, services.clock)


def _seasons(services: Services) -> Seasons:
    return Seasons(services.store.seasons, services.clock)


async def balance(services: Services, ctx: Context, command: Balance) -> Reply:
    return await _with_lang(services, ctx, _economy(services).balance)


async def daily(services: Services, ctx: Context, command: Daily) -> Reply:
    return await _with_lang(services, ctx, _economy(services).daily)


async def grant(services: Services, ctx: Context, command: Grant) -> Reply:
    config, lang = await services.server_config(ctx.scope), await services.private_lang(ctx)
    target = Recipient(command.target, command.name, command.standing)
    reply = await _economy(services).grant(ctx, config, target, command.amount, lang)
    services.forget(ctx.scope, [command.target])
    return reply


async def give(services: Services, ctx: Context, command: Give) -> Reply:
    """`/shutbox give @user N`: pay some of the caller's own chips to another member."""
    config, lang = await services.server_config(ctx.scope), await services.private_lang(ctx)
    gifts = Gifts(services.store, services.clock)
    reply = await gifts.give(
        ctx, command.recipient, command.amount, config.start_chips, lang, config.lang
    )
    services.forget(ctx.scope, [ctx.user, command.recipient.id])
    return reply


async def leaderboard(services: Services, ctx: Context, command: Leaderboard) -> Reply:
    """`/shutbox leaderboard [board] [preset] [season=N]`: N reads an ended season; `page`
    counts from 0 (surfaces without buttons ask for a page by number)."""
    return await board(services, ctx, command.board, command.preset, command.page, command.season)


async def board(
    services: Services, ctx: Context, name: str, preset: str | None, page: int,
    season: int | None = None,
) -> Reply:  # fmt: skip
    """A page of a board (also what a board's page buttons show)."""
    if name == "challenge" and season is None and preset is None:
        return await challenge_board(services, ctx)
    config, seasons = await services.server_config(ctx.scope), _seasons(services)
    ended = await seasons.tick(ctx.scope, config)
    if season is not None:
        await seasons.check_archived(ctx.scope, season)
    reply = await _economy(services).leaderboard(
        ctx.scope, name, preset, config.lang, ctx.user, page, season
    )
    return _announced(reply, ended)


async def rank(services: Services, ctx: Context, command: Rank) -> Reply:
    """`/shutbox rank [@user]`: the player's position on every board."""
    config = await services.server_config(ctx.scope)
    ended = await _seasons(services).tick(ctx.scope, config)
    user, name = command.user or ctx.user, command.name or ctx.name
    reply = await ranks.rank_reply(_economy(services), ctx, user, name, config.lang)
    return _announced(reply, ended)


async def stats(services: Services, ctx: Context, command: Stats) -> Reply:
    config, seasons = await services.server_config(ctx.scope), _seasons(services)
    ended = await seasons.tick(ctx.scope, config)
    user = command.user
    target, shown = (user, command.name or user) if user else (ctx.user, ctx.name)
    season = None
    if not command.all_time:
        number = await seasons.store.number(ctx.scope)  # a read: starts nothing
        season = (number, await seasons.stats(ctx.scope, target))
    reply = await _economy(services).stats(
        ctx.scope, target, shown, config, config.lang, season, someone_else=target != ctx.user
    )
    challenge = await challenge_stats(services, ctx, target, config.lang)
    if challenge:
        reply = replace(reply, public=("\n".join((*reply.public, *challenge)),))
    return _announced(reply, ended)


async def season(services: Services, ctx: Context, command: Season) -> Reply:
    """`/shutbox season`: the current season; `season end [reset_chips=yes]` (admins) ends
    it, archiving the boards and ratings."""
    config, seasons = await services.server_config(ctx.scope), _seasons(services)
    if command.reset_chips is not None and not command.end:
        raise InvalidOption("error.season.reset_needs_end")
    if not command.end:
        ended = await seasons.tick(ctx.scope, config)
        return _announced(await seasons.show(ctx.scope, config.lang), ended)
    lang = await services.private_lang(ctx)
    reply = await seasons.end(ctx, config, lang, bool(command.reset_chips))
    services.forget(ctx.scope, every=True)  # accounts may be gone: read them afresh
    return reply


async def configure(services: Services, ctx: Context, command: Configure) -> Reply:
    """`/shutbox config [key=value ...]`: admins change settings; anyone may look."""
    changes = command.changes
    if changes and not ctx.admin:
        raise NotAllowed("error.admin_only")
    if changes:  # the old values an audit entry shows are Redis's, not this process's cache
        services.forget(ctx.scope, every=True)
    config = before = await services.server_config(ctx.scope)
    for key, value in changes.items():
        config = config.updated(key, value)
    if changes:
        await _save_config(services, ctx, before, config)
    lang = ctx.locale or config.lang
    listing = ", ".join(f"{k}={v}" for k, v in config.to_fields().items())
    lines = [t(lang, "config.saved" if changes else "config.current", settings=listing)]
    if not changes:  # saving writes every setting, so after a change none is left unreadable
        lines += await _unreadable_note(services, ctx, lang)
    note = services.picture_note(ctx.scope, config.style)
    return Reply(private="\n".join(lines if note is None else [*lines, t(lang, note)]))


async def _unreadable_note(services: Services, ctx: Context, lang: str) -> list[str]:
    """The settings whose saved value can't be read (their defaults are shown instead)."""
    broken = unreadable_settings(await services.store.hash(ctx.scope, keys.CONFIG))
    if not broken:
        return []
    names = ", ".join(error.record.removeprefix("cfg ") for error in broken)
    return [t(lang, "config.unreadable", settings=names)]


async def _save_config(
    services: Services, ctx: Context, before: ServerConfig, after: ServerConfig
) -> None:
    """The new settings and the audit entry of what changed (old → new), in one commit."""
    old, new = before.to_fields(), after.to_fields()
    changed = {key: [old[key], value] for key, value in new.items() if old[key] != value}
    entry = AuditEntry(int(services.clock()), ctx.user, ctx.name, Action.CONFIG, detail=changed)
    fields = [StoreOp(OpKind.HSET, keys.CONFIG, key, value) for key, value in new.items()]
    recorded = (audit_op(entry),) if changed else ()
    await services.store.commit(Commit(ctx.scope, request_id=ctx.request_id,
                                       ops=(*fields, *recorded)))  # fmt: skip
    services.forget(ctx.scope, every=True)


async def audit_log(services: Services, ctx: Context, command: Audit) -> Reply:
    """`/shutbox audit` (admins): the latest admin actions, privately."""
    if not ctx.admin:
        raise NotAllowed("error.admin_only")
    stored = await services.store.admin.audit_entries(ctx.scope, audit.SHOWN)
    return Reply(private=audit.listing(read_entries(stored), await services.private_lang(ctx)))


async def rules(services: Services, ctx: Context, command: Rules) -> Reply:
    return Reply(private=info.rules_reply(command.preset, await services.private_lang(ctx)))


async def odds(services: Services, ctx: Context, command: Odds) -> Reply:
    return Reply(private=info.odds_text(command.preset, await services.private_lang(ctx)))


async def _with_lang(
    services: Services, ctx: Context,
    command: Callable[[Context, ServerConfig, str], Awaitable[Reply]],
) -> Reply:  # fmt: skip
    config = await services.server_config(ctx.scope)
    return await command(ctx, config, ctx.locale or config.lang)


def _announced(reply: Reply, ended: tuple[str, ...]) -> Reply:
    """The reply with the announcement of a season that just ended by itself before it."""
    return replace(reply, public=(*ended, *reply.public)) if ended else reply
