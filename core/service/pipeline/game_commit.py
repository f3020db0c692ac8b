"""Plan the one atomic write a game change needs: record, chips, stats, deadline, request id."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.game import payments
from core.game.dice import FairDice
from core.game.events import Event, Rolled
from core.game.settlement import Transfer
from core.game.state import GameState, Phase
from core.service.features import ratings, reviews
from core.service.features.challenge import commit as challenge_commit
from core.service.features.keeping import Change
from core.service.features.skill import Skill
from core.service.model import turns
from core.service.model.commit import Commit, Journal, Scope, StoreOp
from core.service.model.record import GameRecord
from core.service.model.settings import LOBBY_SECONDS
from core.service.model.views import Reply
from core.service.pipeline import keepers
from core.service.show import narrate, present
from core.text.i18n import t


@dataclass(frozen=True, slots=True)
class Plan:
    commit: Commit
    record: GameRecord | None  # None once the game is over (its key is deleted)
    reply: Reply
    final: GameRecord  # the record as last shown, kept even when the game is over


def _fair_record(record: GameRecord, fair: FairDice | None) -> list[str]:
    """At the end of a provably fair match: the record anyone can check with `shutbox verify`.
    A challenge's seed is the whole day's: it is revealed once the day is over."""
    if fair is None or not record.state.over or record.challenge:
        return []
    published = fair.record(record.rolls).to_json()
    return [t(record.lang, "game.fair_record", record=published)]


def human_ids(state: GameState) -> tuple[str, ...]:
    return tuple(seat.id for seat in state.seats if not seat.bot)


def deadline_for(record: GameRecord, state: GameState, now: int) -> int:
    """The next deadline: the lobby keeps its 10 minutes; a turn gets the match timer."""
    if record.challenge:
        return 0  # a private screen has no one to show a timeout to: the attempt just stays
    if state.phase is Phase.LOBBY:
        return record.deadline or now + LOBBY_SECONDS
    if state.over:
        return 0
    return now + state.config.timer


def plan_change(
    scope: Scope,
    record: GameRecord,
    state: GameState,
    events: Sequence[Event],
    *,
    balances: Mapping[str, int],
    now: int,
    request_id: str | None,
    start_balance: int,
    fair: FairDice | None,
    creating: bool = False,
    private: str | None = None,
    skills: Mapping[str, Skill] | None = None,
    streak: str = "",
    encode: bool = True,
) -> Plan:
    """Everything one engine step changes, as a single commit plus the reply to show; with
    `encode` False the commit's result is left for the caller, who adds to the reply first."""
    settlement = payments.settle(record.state, state, events, record.pot, balances)
    pot, transfers = settlement.pot, settlement.transfers
    rolls = record.rolls + tuple(e.dice for e in events if isinstance(e, Rolled)) if fair else ()
    style = present.style_of(record)
    new = record.evolve(
        state=state, pot=pot, deadline=deadline_for(record, state, now),
        fair=fair.to_str() if fair else "", rolls=rolls,
        turns=turns.follow(record.state, state, record.turns, events),
        box=turns.last_player(events, record.box),
        log=record.log if record.challenge else turns.logged(record.state, record.log, events),
        short=payments.short_of(state, balances),
    )  # fmt: skip
    new = reviews.track(record, new, events)
    notices = narrate.notices(
        state, events, settlement.by_event, record.lang, style, settlement.short
    )
    seats = ratings.rated(state, events, solo=new.solo)
    before = skills or {}
    after = ratings.updated(state, seats, before) if seats else {}
    summaries = (
        *narrate.summaries(state, events, settlement, record.lang),
        *([ratings.summary(state, after, before, record.lang)] if after else []),
    )
    review = reviews.summary_button(new) if summaries else None
    reply = Reply(
        private=private,
        game=present.game_view(new, notices),
        public=(*summaries, *_fair_record(new, fair)),
        review=review,
        reviewed=summaries if review else (),
    )
    if new.challenge:  # a private attempt keeps its own result, and nothing else
        told = challenge_commit.outcome(new, events, creating=creating, streak=streak, now=now)
        reply = Reply(private=told.private, game=reply.game, public=told.public)
        ops = told.stats
    else:
        change = Change(record, new, tuple(events), tuple(transfers), now, fair, before, after)
        ops = keepers.kept(change)
    stakers = _stakers(record.state, state, events)
    commit = _commit(
        scope, None if creating else record.version, new, transfers,
        _expected(stakers, balances), request_id, start_balance,
        reply.to_json() if encode else "", ops, stakers,
        payments.hold_changes(record.state, state, creating=creating),
    )  # fmt: skip
    return Plan(commit, None if state.over else new, reply, new)


def _stakers(before: GameState, after: GameState, events: Sequence[Event]) -> tuple[str, ...]:
    """Every human seated before or after a change that settles stakes; () if it settles none."""
    if not payments.settles(before, events):
        return ()
    return tuple(dict.fromkeys((*human_ids(before), *human_ids(after))))


def _expected(stakers: Sequence[str], balances: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """The balances the settlement counted with, every staker's (a 0 included: a player who
    had nothing to ante must still have nothing). The script refuses the commit if one
    differs, and the retry settles on the balances it returns."""
    return tuple((account, balances[account]) for account in stakers)


def _commit(
    scope: Scope,
    expected_version: int | None,
    new: GameRecord,
    transfers: Sequence[Transfer],
    expected: tuple[tuple[str, int], ...],
    request_id: str | None,
    start_balance: int,
    result: str,
    ops: tuple[StoreOp, ...],
    stakers: tuple[str, ...] = (),
    holds: tuple[tuple[str, int], ...] = (),
) -> Commit:
    # Only staked games need accounts; their balances come back with every commit.
    players = human_ids(new.state) if new.state.config.stakes.staked else ()
    return Commit(
        scope=scope,
        channel=new.channel,
        expected_version=expected_version,
        record=None if new.state.over else new.to_str(),
        version=new.version,
        request_id=request_id,
        result=result,
        start_balance=start_balance,
        ensure_accounts=players,
        expected_balances=expected,
        stakers=stakers,
        holds=holds,
        transfers=tuple(transfers),
        journal=Journal("game", new.channel),
        deadline=new.deadline or None,
        ops=ops,
        report_accounts=tuple(dict.fromkeys((*players, *stakers))),
    )
