"""`/shutbox give @user N`: a member pays some of their own chips to another member.

The gift is one transfer in one commit: the Lua script checks the giver's balance is still the
one read (so a gift never takes a balance below 0), moves the chips, appends one `gift` entry to
the server's journal and records the request id, so a repeated delivery is applied once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.game.errors import InsufficientChips, InvalidOption
from core.game.numbers import MAX_AMOUNT
from core.game.settlement import Transfer
from core.service.commit import Commit, Journal, OpKind, Scope, StatOp, Status
from core.service.context import Context
from core.service.ports import GameStore
from core.service.views import Reply
from core.text.i18n import t

GIFT_LIMIT = MAX_AMOUNT  # the one amount limit of every surface (core/game/numbers.py)
MAX_ATTEMPTS = 5  # balance changed under us (a game paid out): read again and retry


@dataclass(frozen=True, slots=True)
class Recipient:
    """Who receives a gift, as the platform knows them."""

    id: str
    name: str
    bot: bool = False


def check_gift_amount(amount: int) -> None:
    """A gift is 1 to GIFT_LIMIT chips; one place to point at a shared amount limit."""
    if amount <= 0:
        raise InvalidOption("error.give.positive", value=amount)
    if amount > GIFT_LIMIT:
        raise InvalidOption("error.give.limit", value=amount, max=GIFT_LIMIT)


def check_recipient(ctx: Context, recipient: Recipient) -> None:
    if recipient.id == ctx.user:
        raise InvalidOption("error.give.self")
    if recipient.bot:
        raise InvalidOption("error.give.bot", player=recipient.name)


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
            result = await self.store.commit(_commit(ctx, recipient, amount, balance, start_chips))
            if result.status is Status.DUPLICATE:
                return Reply(private=t(lang, "economy.duplicate"))
            if result.status is not Status.BALANCES:
                left = result.balances.get(ctx.user, balance - amount)
                return _given(ctx, recipient, amount, left, (lang, public_lang))
        raise InvalidOption("error.busy")

    async def _balance(self, scope: Scope, user: str, start_chips: int) -> int:
        return (await self.store.balances(scope, [user])).get(user, start_chips)


def _commit(
    ctx: Context, recipient: Recipient, amount: int, balance: int, start_chips: int
) -> Commit:
    return Commit(
        ctx.scope, request_id=ctx.request_id, start_balance=start_chips,
        ensure_accounts=(ctx.user, recipient.id), expected_balances=((ctx.user, balance),),
        transfers=(Transfer(ctx.user, recipient.id, amount),), journal=Journal("gift"),
        report_accounts=(ctx.user, recipient.id),
        stats=(StatOp(OpKind.HSET, "names", ctx.user, ctx.name),
               StatOp(OpKind.HSET, "names", recipient.id, recipient.name)),
    )  # fmt: skip


def _given(
    ctx: Context, recipient: Recipient, amount: int, left: int, langs: tuple[str, str]
) -> Reply:
    """The giver's private receipt, and the channel's note in the server's language."""
    private = t(langs[0], "economy.gave", player=recipient.name, amount=amount, balance=left)
    public = t(langs[1], "economy.gift", giver=ctx.name, player=recipient.name, amount=amount)
    return Reply(private=private, public=(public,))
