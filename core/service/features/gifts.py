"""`/shutbox give @user N`: a member pays some of their own chips to another member.

The gift is one transfer in one commit: the Lua script checks the giver's balance is still the
one read (so a gift never takes a balance below 0) and that it leaves what the giver's running
staked games hold (the next ante; a Canoga match's whole balance), moves the chips, appends one
`gift` entry to the server's journal and stores the reply under the request id, so a repeated
delivery gets the same receipt back and the channel's note is posted once.

Chips only go to a member the platform has just confirmed (`Standing.MEMBER`); the adapter asks
the platform and fills in the name the platform shows. Anything else is refused before a read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from core.game.errors import InsufficientChips, InvalidOption
from core.game.numbers import MAX_AMOUNT
from core.game.settlement import Transfer
from core.service.model import keys
from core.service.model.commit import Commit, CommitResult, Journal, OpKind, Scope, Status, StoreOp
from core.service.model.context import Context
from core.service.model.ports import GameStore
from core.service.model.views import Reply
from core.text.i18n import t

GIFT_LIMIT = MAX_AMOUNT  # the one amount limit of every surface (core/game/numbers.py)
MAX_ATTEMPTS = 5  # balance changed under us (a game paid out): read again and retry
MAX_MEMBER_ID = 64  # Slack, Discord and playground ids are far shorter; longer is forged


class Standing(StrEnum):
    """What the platform said of a member chips would go to, when it was asked."""

    MEMBER = "member"  # a current, human member of the server
    BOT = "bot"  # a bot or app user (Slackbot included)
    ABSENT = "absent"  # no such user, deactivated, or not in this server
    UNKNOWN = "unknown"  # the platform could not say (an error, a rate limit): never guessed


@dataclass(frozen=True, slots=True)
class Recipient:
    """Who receives a gift, as the platform knows them (the name is the platform's)."""

    id: str
    name: str
    standing: Standing = Standing.UNKNOWN


def plausible_id(user: str) -> bool:
    """Worth asking the platform about: not empty, not absurdly long, no spaces or controls."""
    return 0 < len(user) <= MAX_MEMBER_ID and user.isprintable() and " " not in user


def check_member(user: str, name: str, standing: Standing) -> None:
    """Chips (a gift or a grant) go only to a member the platform confirmed."""
    if not plausible_id(user) or standing is Standing.ABSENT:
        raise InvalidOption("error.member.absent")
    if standing is Standing.BOT:
        raise InvalidOption("error.give.bot", player=name)
    if standing is not Standing.MEMBER:
        raise InvalidOption("error.member.unverified")


def check_gift_amount(amount: int) -> None:
    """A gift is 1 to GIFT_LIMIT chips; one place to point at a shared amount limit."""
    if amount <= 0:
        raise InvalidOption("error.give.positive", value=amount)
    if amount > GIFT_LIMIT:
        raise InvalidOption("error.give.limit", value=amount, max=GIFT_LIMIT)


def check_recipient(ctx: Context, recipient: Recipient) -> None:
    if recipient.id == ctx.user:
        raise InvalidOption("error.give.self")
    check_member(recipient.id, recipient.name, recipient.standing)


def stored_reply(result: CommitResult, lang: str) -> Reply:
    """A repeated delivery's answer: the reply stored with the first one (the same receipt;
    the manager posts its public note only if the first delivery did not)."""
    if result.result:
        return Reply.from_json(result.result, replayed=True)
    return Reply(private=t(lang, "economy.duplicate"))  # applied by a version storing none


def held_error(result: CommitResult, balance: int) -> InsufficientChips:
    """Why a gift would give away chips a running staked game holds."""
    if result.held < 0:
        return InsufficientChips("error.give.held_all")
    free = max(0, balance - result.held)
    key = "error.give.held_tournament" if result.held_by_tournament else "error.give.held"
    return InsufficientChips(key, held=result.held, free=free)


@dataclass(frozen=True, slots=True)
class Gifts:
    store: GameStore
    clock: Callable[[], float]

    async def give(
        self, ctx: Context, recipient: Recipient, amount: int, start_chips: int, lang: str,
        public_lang: str,
    ) -> Reply:  # fmt: skip
        """Move `amount` of the caller's chips to `recipient`, or refuse with one private line."""
        check_gift_amount(amount)
        check_recipient(ctx, recipient)
        for _ in range(MAX_ATTEMPTS):
            balance = await self._balance(ctx.scope, ctx.user, start_chips)
            if balance < amount:
                raise InsufficientChips("error.give.balance", balance=balance, amount=amount)
            reply = _given(ctx, recipient, amount, balance - amount, (lang, public_lang))
            commit = _commit(ctx, recipient, amount, balance, start_chips, reply)
            result = await self.store.commit(commit)
            if result.status is Status.DUPLICATE:
                return stored_reply(result, lang)
            if result.status is Status.HELD:
                raise held_error(result, balance)
            if result.status is Status.OK:
                return reply
        raise InvalidOption("error.busy")

    async def _balance(self, scope: Scope, user: str, start_chips: int) -> int:
        return (await self.store.balances(scope, [user])).get(user, start_chips)


def _commit(
    ctx: Context, recipient: Recipient, amount: int, balance: int, start_chips: int, reply: Reply
) -> Commit:
    return Commit(
        ctx.scope, request_id=ctx.request_id, result=reply.to_json(), keep=ctx.user,
        start_balance=start_chips,
        ensure_accounts=(ctx.user, recipient.id), expected_balances=((ctx.user, balance),),
        transfers=(Transfer(ctx.user, recipient.id, amount),), journal=Journal("gift"),
        report_accounts=(ctx.user, recipient.id),
        ops=(StoreOp(OpKind.HSET, keys.NAMES, ctx.user, ctx.name),
               StoreOp(OpKind.HSET, keys.NAMES, recipient.id, recipient.name)),
    )  # fmt: skip


def _given(
    ctx: Context, recipient: Recipient, amount: int, left: int, langs: tuple[str, str]
) -> Reply:
    """The giver's private receipt, and the channel's note in the server's language."""
    private = t(langs[0], "economy.gave", player=recipient.name, amount=amount, balance=left)
    public = t(langs[1], "economy.gift", giver=ctx.name, player=recipient.name, amount=amount)
    return Reply(private=private, public=(public,))
