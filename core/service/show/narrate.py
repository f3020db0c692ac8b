"""What happened, in words: the notices of one click and the round and match summaries."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from core.game import flow
from core.game.events import (
    Dropped,
    Eliminated,
    Event,
    ExtraRoll,
    MatchEnded,
    Moved,
    Rolled,
    RoundEnded,
    RoundStarted,
    Stopped,
    TimedOut,
    TurnEnd,
    TurnEnded,
)
from core.game.match import LIMIT, FormatKind, StakesKind
from core.game.payments import Settlement
from core.game.settlement import SHUT_MULTIPLIER, Transfer
from core.game.state import Ending, GameState, Phase
from core.service.show.all_in import all_in_lines, short_ante_lines
from core.service.show.present import display_name, ending_line
from core.text.i18n import join_list, number, t
from core.text.reasons import no_move_reason
from core.text.render import Style, render_dice, render_move


def notices(
    after: GameState,
    events: Sequence[Event],
    chips: Mapping[int, Sequence[Transfer]],
    lang: str,
    style: Style,
    short: Mapping[int, Sequence[tuple[str, int]]] | None = None,
) -> list[str]:
    """One short line per thing that happened in this click, as the game message shows them;
    `short` names, by event, who could not pay a round's whole ante (all in)."""
    lines: list[str] = []
    for index, event in enumerate(events):
        if index < _this_round(after, events) or _shown_by_prompt(after, events, index):
            continue
        lines += _notice(after, event, lang, style)
        if isinstance(event, RoundStarted) and chips.get(index):
            lines += chip_lines(after, chips[index], lang)
        if isinstance(event, RoundStarted):
            lines += short_ante_lines(after, (short or {}).get(index, ()), lang)
    return lines


def _this_round(state: GameState, events: Sequence[Event]) -> int:
    """Where the round on the message began: an earlier round's lines must not sit under the
    new round's title (the round summary and each player's last turn keep them)."""
    if state.over:
        return 0
    starts = [i for i, event in enumerate(events) if isinstance(event, RoundStarted)]
    return starts[-1] if starts else 0


def _shown_by_prompt(state: GameState, events: Sequence[Event], index: int) -> bool:
    """The roll waiting for a choice is already in the prompt line; don't say it twice."""
    last = index == len(events) - 1
    return last and isinstance(events[index], Rolled) and state.phase is Phase.CHOOSE


def _notice(state: GameState, event: Event, lang: str, style: Style) -> Iterator[str]:
    if isinstance(event, Rolled):
        key = "notice.rolled_auto" if event.auto else "notice.rolled"
        yield t(
            lang, key, player=display_name(state, event.seat), dice=render_dice(event.dice, style)
        )
    elif isinstance(event, Moved):
        key = "notice.opened" if event.opened else "notice.closed"
        yield t(lang, key, player=display_name(state, event.seat), tiles=render_move(event.tiles))
    elif isinstance(event, TurnEnded):
        yield from _turn_notice(state, event, lang)
    elif isinstance(event, ExtraRoll):
        yield t(lang, "notice.extra_roll", player=display_name(state, event.seat))
    elif isinstance(event, Dropped):
        key = "notice.left" if event.left else "notice.dropped"
        yield t(lang, key, player=display_name(state, event.seat))
    elif isinstance(event, TimedOut):
        yield t(lang, "notice.timed_out", player=display_name(state, event.seat))
    elif isinstance(event, Stopped):
        yield t(lang, "notice.stopped", player=event.name)
    elif isinstance(event, Eliminated):
        yield t(
            lang, "notice.eliminated", player=display_name(state, event.seat), total=event.total
        )


def _turn_notice(state: GameState, event: TurnEnded, lang: str) -> Iterator[str]:
    player = display_name(state, event.seat)
    if event.reason is TurnEnd.NO_MOVE:
        yield t(
            lang, "notice.no_move", player=player, total=sum(event.dice),
            reason=turn_end_reason(state, event, lang), score=_score(event, lang),
        )  # fmt: skip
    elif event.reason is TurnEnd.SHUT:
        yield t(lang, "notice.shut", player=player)
    elif event.reason is TurnEnd.LAST_DIE:
        yield t(lang, "notice.last_die", player=player, score=_score(event, lang))
    elif event.reason is TurnEnd.SKIPPED:
        yield t(lang, "notice.skipped", player=player, score=event.score)
    else:
        yield t(lang, "notice.shut_by_other", player=player, score=event.score)


def turn_end_reason(state: GameState, event: TurnEnded, lang: str) -> str:
    """Why the roll fitted nothing, under the close rule in force."""
    opening = state.config.format.kind is FormatKind.LONG and event.seat == 1
    return no_move_reason(state.config.rules, event.available, event.dice, lang, opening=opening)


def _score(event: TurnEnded, lang: str) -> str:
    return "" if event.score is None else t(lang, "notice.score", score=event.score)


def summaries(
    state: GameState, events: Sequence[Event], settled: Settlement, lang: str
) -> list[str]:
    """Public round and match summaries: scores, winners, shuts, and the chips they moved."""
    texts = []
    for index, event in enumerate(events):
        transfers = settled.by_event.get(index, ())
        if isinstance(event, RoundEnded) and state.config.format.kind is not FormatKind.LONG:
            texts.append(_round_summary(state, event, lang))
            texts[-1] = "\n".join([texts[-1], *_carried_pot(state, event, settled, index, lang)])
        elif isinstance(event, MatchEnded) and event.ending is not Ending.CANCELLED:
            texts.append(_match_summary(state, lang))
        else:
            continue
        if index in settled.idle_rounds and state.config.stakes.staked:
            texts[-1] = "\n".join([texts[-1], t(lang, "summary.idle_round")])
        texts[-1] = "\n".join([texts[-1], *chip_lines(state, transfers, lang)])
        texts[-1] = "\n".join([texts[-1], *all_in_lines(state, settled.all_in.get(index), lang)])
        if isinstance(event, RoundEnded):
            texts[-1] = "\n".join([texts[-1], *capped_payments(state, event, transfers, lang)])
    return texts


def capped_payments(
    state: GameState, event: RoundEnded, transfers: Sequence[Transfer], lang: str
) -> list[str]:
    """A Canoga loser pays at most what they have: say whose payment fell short of the debt.

    The debt is the score difference times the stake, doubled on a shut (as settled); tied
    winners split it and the odd chips stay with the payer, so only a shortfall beyond that
    split is a cap."""
    stakes = state.config.stakes
    winners = [i for i in event.winners if not state.seats[i].bot]
    if stakes.kind is not StakesKind.CANOGA or not event.winners:
        return []
    if not winners:  # only bots won the round: bots win no chips, so nobody pays
        names = join_list(lang, [display_name(state, i) for i in event.winners])
        return [t(lang, "summary.canoga_bots", players=names)]
    best = event.scores[winners[0]] or 0
    factor = stakes.amount * (SHUT_MULTIPLIER if event.shut_by else 1)
    lines = []
    for index, score in enumerate(event.scores):
        seat = state.seats[index]
        if score is None or seat.bot or seat.dropped or index in winners:
            continue
        owed = max(0, score - best) * factor
        paid = sum(tr.amount for tr in transfers if tr.source == seat.id)
        if paid < owed // len(winners) * len(winners):
            lines.append(
                t(lang, "summary.capped", player=display_name(state, index), paid=paid, owed=owed)
            )
    return lines


def _carried_pot(
    state: GameState, event: RoundEnded, settled: Settlement, index: int, lang: str
) -> list[str]:
    """A pot round won only by bots pays nobody: say that the pot carries over."""
    pot = settled.pots.get(index, 0)
    if state.config.stakes.kind is not StakesKind.POT or not pot or not event.winners:
        return []
    if any(not state.seats[i].bot for i in event.winners):
        return []
    players = join_list(lang, [display_name(state, i) for i in event.winners])
    key = "summary.pot_returned" if state.over else "summary.pot_carries"
    return [t(lang, key, players=players, pot=pot)]


def _round_summary(state: GameState, event: RoundEnded, lang: str) -> str:
    scores = ", ".join(
        f"{display_name(state, i)} {number(lang, score)}"
        for i, score in enumerate(event.scores)
        if score is not None
    )
    winners = join_list(lang, [display_name(state, i) for i in event.winners]) or "—"
    if len(state.seats) == 1:  # alone there is nobody to beat: the score alone
        lines = [t(lang, "summary.round_solo", n=event.round, scores=scores)]
    else:
        lines = [
            t(lang, "summary.round", n=event.round, scores=scores, winners=winners,
              count=len(event.winners))
        ]  # fmt: skip
    for index in event.shut_by:
        lines.append(t(lang, "summary.shut", player=display_name(state, index)))
    return "\n".join(lines)


def _match_summary(state: GameState, lang: str) -> str:
    """`Match over: 🏆 Zed wins the match.`, who passed 45 when that ended it, then the totals
    (a solo game has no rounds won and nobody to beat: its heading gives the total)."""
    lines = [t(lang, "summary.match", result=_match_result(state, lang)), *_passed_45(state, lang)]
    lines += _long_end(state, lang)
    if state.config.format.kind is not FormatKind.LONG and state.round and len(state.seats) > 1:
        lines += [
            t(lang, "summary.total", player=display_name(state, i), total=s.total, won=s.rounds_won)
            for i, s in enumerate(state.seats)
        ]
    if state.ending is Ending.FINISHED and state.round:
        lines += _what_it_counts(state, lang)
    return "\n".join(lines)


def _match_result(state: GameState, lang: str) -> str:
    if state.ending is Ending.STOPPED and state.round and not flow.is_long(state):
        finished = state.round - 1  # the totals below are of these rounds
        return t(lang, "summary.stopped" if finished else "summary.stopped_none", n=finished)
    if state.ending is not Ending.FINISHED or not state.winners or len(state.seats) == 1:
        return ending_line(state, lang)
    if state.void:  # nobody decided anything: nobody to congratulate
        return ending_line(state, lang)
    names = join_list(lang, [display_name(state, i) for i in state.winners])
    return t(lang, "summary.match_winners", names=names, count=len(state.winners))


def _long_end(state: GameState, lang: str) -> list[str]:
    """How the long game was won: the closer shut the box, or the opener opened it all."""
    if state.config.format.kind is not FormatKind.LONG or state.ending is not Ending.FINISHED:
        return []
    if state.board == 0:
        return [t(lang, "summary.long_shut", player=display_name(state, 0))]
    if state.board == state.config.rules.full_mask:
        return [t(lang, "summary.long_opened", player=display_name(state, 1))]
    return []


def _passed_45(state: GameState, lang: str) -> list[str]:
    """To 45 and elimination end because of a total past 45: say whose."""
    kind = state.config.format.kind
    if state.ending is not Ending.FINISHED or kind not in (
        FormatKind.TO_45,
        FormatKind.ELIMINATION,
    ):
        return []
    passed = [
        t(lang, "summary.player_total", player=display_name(state, i), total=seat.total)
        for i, seat in enumerate(state.seats)
        if seat.total > LIMIT
    ]
    if not passed:
        return []
    return [t(lang, f"summary.passed_45.{kind.value}", players=join_list(lang, passed),
              count=len(passed))]  # fmt: skip


def _what_it_counts(state: GameState, lang: str) -> list[str]:
    """Why a finished match does not reach the boards, when it does not."""
    humans = sum(not seat.bot for seat in state.seats)
    if state.void:
        key = "summary.void_staked" if state.config.stakes.staked else "summary.void"
        return [t(lang, key)]
    if humans == 1 and len(state.seats) > 1:
        return [t(lang, "summary.practice")]
    return []


def chip_lines(state: GameState, transfers: Sequence[Transfer], lang: str) -> list[str]:
    names = {seat.id: seat.name for seat in state.seats}
    pot = t(lang, "summary.pot_account")
    return [
        t(lang, "summary.chips", source=names.get(tr.source) or t(lang, "summary.pot_source"),
          target=names.get(tr.target, pot), amount=tr.amount)
        for tr in transfers
    ]  # fmt: skip
