"""Chips, leaderboards, stats and server settings: the commands that are not a game move."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.game.errors import InsufficientChips, InvalidOption, NotAllowed, ShutboxError
from core.game.numbers import MAX_AMOUNT, MAX_BALANCE
from core.game.rules import PRESETS, Rules, build_rules
from core.game.settlement import Transfer
from core.service.features import boards
from core.service.features.audit import Action, AuditEntry, audit_op
from core.service.features.boards import (
    EVERYONE,
    MIN_DECISIONS_FOR_ACCURACY,
    MIN_TURNS_FOR_AVERAGE,
)
from core.service.features.gifts import Recipient, check_member, stored_reply
from core.service.features.skill import Skill
from core.service.features.stat_fields import best as _best
from core.service.features.stat_fields import count as _int
from core.service.features.stat_fields import ratio
from core.service.model import keys
from core.service.model.commit import (
    MINT,
    Commit,
    DailyClaim,
    Journal,
    OpKind,
    Scope,
    Status,
    StoreOp,
)
from core.service.model.context import Context
from core.service.model.ports import GameStore
from core.service.model.settings import ServerConfig
from core.service.model.views import Reply
from core.text.i18n import decimal, number, percent, relative_time, t
from core.text.render import describe_rules

DAY = 24 * 60 * 60
BOARDS = ("wins", "chips", "shuts", "best", "average", "rounds", "accuracy", "rating",
          "tournaments")  # fmt: skip
# Every board a member can ask for: today's challenge board is read apart (challenge_commands).
BOARD_NAMES = (*BOARDS, "challenge")
TOP = 10
UNARCHIVED = ("chips",)  # the chips board mirrors the balances: no season keeps it
GRANT_ATTEMPTS = 5  # a balance that keeps changing under a grant gets "try again", not a loop


class BalanceRace(ShutboxError):
    """The balance changed under every attempt of a grant; the admin may simply try again."""

    key = "error.busy"


@dataclass(frozen=True, slots=True)
class Economy:
    store: GameStore
    clock: Callable[[], float]

    async def daily(self, ctx: Context, config: ServerConfig, lang: str) -> Reply:
        """The daily allowance; its reply is stored with it, so a repeated delivery gets the
        same answer back."""
        for _ in range(GRANT_ATTEMPTS):
            now = int(self.clock())
            balance = await self._balance(ctx.scope, ctx.user, config.start_chips)
            after = balance + config.daily
            reply = Reply(private=t(lang, "economy.daily", amount=config.daily, balance=after))
            commit = Commit(
                ctx.scope, request_id=ctx.request_id, result=reply.to_json(),
                start_balance=config.start_chips, ensure_accounts=(ctx.user,),
                expected_balances=((ctx.user, balance),), report_accounts=(ctx.user,),
                transfers=(Transfer(MINT, ctx.user, config.daily),) if config.daily else (),
                journal=Journal("daily"), daily=DailyClaim(ctx.user, now, DAY),
                ops=(StoreOp(OpKind.HSET, keys.NAMES, ctx.user, ctx.name),),
            )  # fmt: skip
            result = await self.store.commit(commit)
            if result.status is Status.DUPLICATE:
                return stored_reply(result, lang)
            if result.status is Status.DAILY_WAIT:
                when = relative_time(lang, result.retry_after)
                return Reply(private=t(lang, "economy.daily_wait", when=when))
            if result.status is Status.OK:
                return reply
        raise BalanceRace()

    async def _balance(self, scope: Scope, user: str, start_chips: int) -> int:
        return (await self.store.balances(scope, [user])).get(user, start_chips)

    async def grant(
        self, ctx: Context, config: ServerConfig, target: Recipient, amount: int, lang: str
    ) -> Reply:
        """An admin gives (or, with a negative amount, takes) chips; never below zero.

        The target must be a member the platform confirmed. The amount and the balance after
        it are checked here, before Redis: the commit script counts in doubles, and no
        balance may grow past what they hold exactly.
        """
        if not ctx.admin:
            raise NotAllowed("error.admin_only")
        check_member(target.id, target.name, target.standing)
        if amount == 0:
            raise InvalidOption("error.option.nonzero", option="amount")
        if not -MAX_AMOUNT <= amount <= MAX_AMOUNT:
            raise InvalidOption("error.option.range", option="amount", value=amount,
                                min=-MAX_AMOUNT, max=MAX_AMOUNT)  # fmt: skip
        for _ in range(GRANT_ATTEMPTS):
            reply = await self._grant_once(ctx, config, target, amount, lang)
            if reply is not None:
                return reply
        raise BalanceRace()

    async def _grant_once(
        self, ctx: Context, config: ServerConfig, target: Recipient, amount: int, lang: str
    ) -> Reply | None:
        """One attempt; None when the balance changed between reading and writing it."""
        user, name = target.id, target.name
        balance = await self._balance(ctx.scope, user, config.start_chips)
        if amount < 0 and balance < -amount:
            raise InsufficientChips("error.chips.take", player=name, balance=balance)
        if balance + amount > MAX_BALANCE:
            raise InvalidOption("error.chips.limit", player=name, balance=balance, max=MAX_BALANCE)
        transfer = Transfer(MINT, user, amount) if amount > 0 else Transfer(user, MINT, -amount)
        key = "economy.granted" if amount > 0 else "economy.taken"
        after = balance + amount
        text = t(lang, key, admin=ctx.name, player=name, amount=abs(amount), balance=after)
        reply = Reply(private=text, public=(text,))
        commit = Commit(
            ctx.scope, request_id=ctx.request_id, result=reply.to_json(),
            start_balance=config.start_chips, ensure_accounts=(user,),
            expected_balances=((user, balance),), transfers=(transfer,),
            journal=Journal("grant"), report_accounts=(user,),
            ops=(StoreOp(OpKind.HSET, keys.NAMES, user, name), audit_op(AuditEntry(
                int(self.clock()), ctx.user, ctx.name, Action.GRANT, user, name,
                {"amount": amount, "balance": [balance, after]}))),
        )  # fmt: skip
        result = await self.store.commit(commit)
        if result.status is Status.DUPLICATE:
            return stored_reply(result, lang)
        return reply if result.status is Status.OK else None

    async def balance(self, ctx: Context, config: ServerConfig, lang: str) -> Reply:
        found = await self.store.balances(ctx.scope, [ctx.user])
        balance = found.get(ctx.user, config.start_chips)
        return Reply(private=t(lang, "economy.balance", balance=balance))

    async def leaderboard(
        self, scope: Scope, board: str, preset: str | None, lang: str, viewer: str = "",
        page: int = 0, season: int | None = None,
    ) -> Reply:  # fmt: skip
        """One page of 10 (of the current season, or of archived `season`), the viewer's own
        line under it when they are not on it, and Previous / Next buttons."""
        boards.check_preset(board, preset)
        rows = await self.board_rows(scope, board, preset, season)
        names = await self.store.hash(scope, keys.NAMES)
        minimum = _minimum(board)
        title = boards.title(board, preset, lang, minimum)
        if season is not None:
            title += " · " + t(lang, "season.title", season=season)
        if not rows:
            return Reply(public=(f"**{title}**\n" + boards.empty(board, lang, minimum),))
        pages = -(-len(rows) // TOP)
        page = max(page, 0)
        boards.check_page(page, pages)
        shown = {"accuracy": _percent, "average": _average}.get(board, _number)
        first = page * TOP
        place = boards.places(rows)
        lines = [
            f"{place[index]}. {names.get(user, user)} — {shown(value, lang)}"
            for index, (user, value) in enumerate(rows[first : first + TOP], first)
        ]
        own = next((index for index, (user, _) in enumerate(rows) if user == viewer), None)
        if own is not None and not first <= own < first + TOP:
            value = shown(rows[own][1], lang)
            lines += ["…", f"{place[own]}. {names.get(viewer, viewer)} — {value}"]
        if pages > 1:
            lines.append(t(lang, "board.page", page=page + 1, pages=pages))
        text = f"**{title}**\n" + "\n".join(lines)
        buttons = boards.page_buttons(board, preset, page, pages, lang, season)
        return Reply(public=(text,), buttons=buttons)

    async def board_rows(
        self, scope: Scope, board: str, preset: str | None, season: int | None = None
    ) -> list[tuple[str, float]]:
        """Every player on a board (of archived `season`, if given), best first."""
        if board not in BOARDS:
            raise InvalidOption("error.option.board", value=board, allowed=", ".join(BOARD_NAMES))
        if board in UNARCHIVED and season is not None:
            raise InvalidOption("error.season.board", board=board)
        rules = build_rules(preset).to_str()
        if board == "best":
            best = keys.board(f"best:{rules}")
            return await self.store.top(scope, best, EVERYONE, ascending=True, season=season)
        if board == "average":
            return await boards.averages(self.store, scope, rules, season)
        if board == "accuracy":
            return await boards.accuracies(self.store, scope, season)
        rows = await self.store.top(scope, keys.board(board), EVERYONE, season=season)
        return [row for row in rows if row[1] > 0]

    async def _ever_played(self, scope: Scope, user: str) -> bool:
        return bool(await self.store.hash(scope, keys.stats(user)))

    async def stats(
        self, scope: Scope, user: str, name: str, config: ServerConfig, lang: str,
        season: tuple[int, dict[str, str]] | None = None, *, someone_else: bool = False,
    ) -> Reply:  # fmt: skip
        """A player's numbers: of `season` (its number and the player's fields), else all time.
        The chips and the rating are as they stand now either way. Another member who never
        played nor had chips is said to have played no game, with the start chips."""
        if season is None:
            fields = await self.store.hash(scope, keys.stats(user))
            title = t(lang, "stats.title_all", player=name)
        else:
            fields = season[1]
            title = t(lang, "stats.title_season", player=name, season=season[0])
        accounts = await self.store.balances(scope, [user])
        balance = accounts.get(user, config.start_chips)
        if someone_else and user not in accounts and not await self._ever_played(scope, user):
            # never played, never paid: the member's chips are the start amount `balance` reads
            return Reply(public=(t(lang, "stats.none", player=name, balance=balance),))
        lines = [
            title,
            t(lang, "stats.games", games=_int(fields, "games"), wins=_int(fields, "wins"),
              rounds=_int(fields, "rounds"), rounds_won=_int(fields, "rounds_won"),
              shuts=_int(fields, "shuts")),
            t(lang, "stats.chips", balance=balance, net=_int(fields, "net")),
        ]  # fmt: skip
        skill = (await self.store.hash(scope, keys.RATINGS)).get(user)
        if skill:
            lines.append(t(lang, "stats.rating", rating=Skill.from_str(skill).shown))
        else:  # ratings start afresh each season: say so rather than leave the line out
            lines.append(t(lang, "stats.rating_none" if season else "stats.rating_none_all"))
        if decisions := _int(fields, "decisions"):
            accuracy = ratio(_int(fields, "decisions_best"), decisions, lang, scale=100)
            lines.append(t(lang, "stats.accuracy", accuracy=accuracy, decisions=decisions))
        lines += _per_rules(fields, "", "stats.rules", lang)
        lines += _per_rules(fields, "solo_", "stats.solo", lang)
        if tournaments := _int(fields, "tournaments_won"):
            lines.append(t(lang, "stats.tournaments", won=tournaments))
        if practice := _int(fields, "practice_games"):
            wins = _int(fields, "practice_wins")
            lines.append(t(lang, "stats.practice_games", games=practice, wins=wins))
        lines += _per_rules(fields, "practice_", "stats.practice", lang)
        return Reply(public=("\n".join(lines),))


def rules_name(text: str, lang: str) -> str:
    """The rule set as a player names it: a preset's name, else its one-line description."""
    name = next((name for name, rules in PRESETS.items() if rules.to_str() == text), None)
    if name is not None:
        return t(lang, f"rules.preset.{name}.title")
    try:
        return describe_rules(Rules.from_str(text), lang)
    except ValueError:
        return text  # a rule set this version cannot read: its stored form is all there is


def _number(value: float, lang: str) -> str:
    """A board value: whole numbers as such, anything else with one decimal."""
    return number(lang, int(value)) if float(value).is_integer() else decimal(lang, value)


def _average(value: float, lang: str) -> str:
    """An average always with its one decimal (`9.0`), as `stats` shows it."""
    return decimal(lang, value)


def _percent(value: float, lang: str) -> str:
    return percent(lang, value / 100)


def _minimum(board: str) -> int:
    """What puts a player on a board with a threshold (0 for the others)."""
    return {"average": MIN_TURNS_FOR_AVERAGE, "accuracy": MIN_DECISIONS_FOR_ACCURACY}.get(board, 0)


def _per_rules(fields: dict[str, str], prefix: str, key: str, lang: str) -> list[str]:
    """Best and average per rule set, for multiplayer (`prefix` "") or solo (`solo_`)."""
    lines = []
    for field in sorted(fields):
        turns = _int(fields, field)
        if not field.startswith(f"{prefix}turns:") or not turns:
            continue
        rules = field.split(":", 1)[1]
        total = _int(fields, f"{prefix}sum:{rules}")
        lines.append(
            t(lang, key, rules=rules_name(rules, lang), best=_best(fields, f"{prefix}best:{rules}"),
              average=ratio(total, turns, lang), turns=turns,
              shuts=_int(fields, f"{prefix}shuts:{rules}"))
        )  # fmt: skip
    return lines
