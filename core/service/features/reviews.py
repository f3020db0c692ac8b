"""Review in chat: every human decision of a match graded as it is made, kept with the game.

Each click's events are graded against the solver's table for the match's objective, or in the
long game the table of each side's chance to win the match (a table lookup per decision), and
the decisions travel inside the game record, so they are written by the same atomic commit as
the move. When the match finishes, the commit also keeps each player's decisions under
`review:<channel>` (the last finished match per player and channel, for `/shutbox review`) and
adds them to the accuracy stats and board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial

from core.game import flow
from core.game.ai.review import (
    Aim,
    Decision,
    Kind,
    Review,
    Step,
    Tally,
    grade_dice,
    grade_move,
)
from core.game.ai.review_long import grade_long_dice, grade_long_move
from core.game.ai.solver import Objective, solve
from core.game.ai.solver_long import solve_long
from core.game.events import Event, MatchEnded, Moved, Rolled, RoundStarted, TurnEnded
from core.game.rules import Rules
from core.game.state import Ending, GameState
from core.service.features.keeping import Change
from core.service.features.stats import season_copies
from core.service.model import keys
from core.service.model.buttons import ButtonId
from core.service.model.commit import OpKind, StoreOp
from core.service.model.context import Context
from core.service.model.ports import GameStore
from core.service.model.record import GameRecord
from core.service.model.views import Button
from core.text.i18n import decimal, t

MAX_LINES = 30  # a private reply stays readable (and under Discord's 2,000 characters)
TIMED = "~"  # `~N`: N of the player's rolls were played by the timer (nothing to grade there)
# Grade a dice count, or a step (roll and tiles), played by a seat with the tiles of a board open.
DiceGrader = Callable[[int, int, int], Decision | None]
MoveGrader = Callable[[int, int, Step], Decision | None]


@dataclass(frozen=True, slots=True)
class Kept:
    """One player's decisions of one match, as kept for the Review button and command: the
    first MAX_LINES in full (what a review lists), any later ones as a tally."""

    game_id: str
    aim: Aim
    decisions: tuple[Decision, ...]
    folded: Tally = field(default_factory=Tally)
    timed: int = 0  # the player's rolls the timer played

    @property
    def review(self) -> Review:
        return Review(self.decisions, self.folded)

    def to_str(self) -> str:
        folded = self.folded.to_str() if self.folded.count else ""
        words = with_decisions(folded, self.decisions, self.timed).split()
        return " ".join((self.game_id, self.aim.value, *words))

    @classmethod
    def from_str(cls, text: str) -> Kept:
        game_id, aim, *words = text.split(" ")
        return cls(game_id, Aim(aim), *parse_kept(words))


def with_decisions(kept: str, decisions: Sequence[Decision], timed: int = 0) -> str:
    """A player's kept decisions with these added: in full while a review can list them (up to
    MAX_LINES), any later ones added into the tally that ends the text (`+count:best:loss`);
    `timed` more rolls played by the timer go into the count that starts it (`~N`)."""
    words = kept.split()
    timed += sum(int(word[1:]) for word in words if word.startswith(TIMED))
    words = [word for word in words if not word.startswith(TIMED)]
    tally = Tally.from_str(words.pop()) if words and words[-1].startswith("+") else Tally()
    room = max(0, MAX_LINES - len(words))
    words += [decision.to_str() for decision in decisions[:room]]
    tally += Tally.of(decisions[room:])
    words = [f"{TIMED}{timed}", *words] if timed else words
    return " ".join([*words, tally.to_str()] if tally.count else words)


def parse_kept(words: Sequence[str]) -> tuple[tuple[Decision, ...], Tally, int]:
    tallies = [Tally.from_str(w) for w in words if w.startswith("+")]
    timed = sum(int(w[1:]) for w in words if w.startswith(TIMED))
    decisions = tuple(Decision.from_str(w) for w in words if w and w[0] not in ("+", TIMED))
    return decisions, sum(tallies, Tally()), timed


def aim_of(state: GameState) -> Aim:
    """The long game is graded by the chance to win it, other matches by their objective."""
    return Aim.WIN if flow.is_long(state) else Aim.of(flow.objective(state))


def graded(before: GameState, events: Sequence[Event]) -> dict[str, list[Decision]]:
    """The decisions human players made in these events (not auto-play), by player id."""
    grade_count, grade_step = _graders(before)
    long = flow.is_long(before)
    board, dice = before.board, before.dice  # `board`: the open tiles
    found: dict[str, list[Decision]] = {}
    seat = -1
    for event in events:
        decision = None
        if isinstance(event, Rolled):
            dice, seat = event.dice, event.seat
            if _reviewed(before, seat, event.auto):
                decision = grade_count(board, seat, len(event.dice))
        elif isinstance(event, Moved):
            seat = event.seat
            if _reviewed(before, seat, event.auto):
                decision = grade_step(board, seat, Step(dice, event.tiles))
            board ^= event.tiles  # closed, or opened by the long game's opener
        elif isinstance(event, RoundStarted) or (isinstance(event, TurnEnded) and not long):
            board = before.config.rules.full_mask  # the long game's box passes on as it stands
        if decision is not None:
            found.setdefault(before.seats[seat].id, []).append(decision)
    return found


def _graders(state: GameState) -> tuple[DiceGrader, MoveGrader]:
    """The long game's table of win chances, else the one-turn table of the match's objective
    (which needs no seat: every turn is played on the open tiles)."""
    long = flow.is_long(state)
    return _graders_of(state.config.rules, None if long else flow.objective(state))


@lru_cache(maxsize=64)  # a handful of rule sets and objectives: made once, not on every click
def _graders_of(rules: Rules, objective: Objective | None) -> tuple[DiceGrader, MoveGrader]:
    if objective is None:
        table = solve_long(rules)
        return partial(grade_long_dice, table), partial(grade_long_move, table)
    turn = solve(rules, objective)
    return (
        lambda board, _seat, count: grade_dice(turn, board, count),
        lambda board, _seat, step: grade_move(turn, board, step),
    )


def _reviewed(state: GameState, seat: int, auto: bool) -> bool:
    return not auto and not state.seats[seat].bot


def track(before: GameRecord, new: GameRecord, events: Sequence[Event]) -> GameRecord:
    """The new record with this click's decisions added to each player's list."""
    found, timed = graded(before.state, events), timed_rolls(before.state, events)
    if not found and not timed:
        return new
    kept = dict(new.reviews)
    for user in dict.fromkeys((*found, *timed)):
        kept[user] = with_decisions(kept.get(user, ""), found.get(user, ()), timed.get(user, 0))
    return new.evolve(reviews=tuple(kept.items()))


def timed_rolls(state: GameState, events: Sequence[Event]) -> dict[str, int]:
    """The rolls the timer played for human players in these events, by player id."""
    found: dict[str, int] = {}
    for event in events:
        if isinstance(event, Rolled) and event.auto and not state.seats[event.seat].bot:
            user = state.seats[event.seat].id
            found[user] = found.get(user, 0) + 1
    return found


def kept_of(record: GameRecord, user: str) -> Kept:
    words = dict(record.reviews).get(user, "").split()
    return Kept(record.game_id, aim_of(record.state), *parse_kept(words))


def kept(change: Change) -> list[StoreOp]:
    """At the end of a finished match: each player's review, and their accuracy counts (all
    time and this season)."""
    ops = list(_review_ops(change.record, change.events))
    return [*ops, *season_copies(ops)]


def _review_ops(record: GameRecord, events: Sequence[Event]) -> Iterator[StoreOp]:
    ended = any(isinstance(e, MatchEnded) and e.ending is Ending.FINISHED for e in events)
    if not ended:
        return
    for seat in record.state.seats:
        if seat.bot:
            continue
        kept = kept_of(record, seat.id)
        review = kept.review
        best = review.best_count
        yield StoreOp(OpKind.HSET, keys.review(record.channel), seat.id, kept.to_str())
        if record.state.void:  # reviewable (the timer played), but it counts for nothing
            continue
        yield StoreOp(OpKind.HINCRBY, keys.stats(seat.id), "decisions", review.count)
        yield StoreOp(OpKind.HINCRBY, keys.stats(seat.id), "decisions_best", best)
        yield StoreOp(OpKind.ZINCRBY, keys.board("decisions"), seat.id, review.count)
        yield StoreOp(OpKind.ZINCRBY, keys.board("decisions_best"), seat.id, best)


def review_button(record: GameRecord) -> Button | None:
    """The Review button of a finished match's message."""
    if record.state.ending is not Ending.FINISHED:
        return None
    button = ButtonId("review", record.game_id, record.version)
    return Button(str(button), t(record.lang, "ui.review"))


def summary_button(record: GameRecord) -> Button | None:
    """The Review button under a round or match summary: the decisions so far, or all of them."""
    if all(seat.bot for seat in record.state.seats):
        return None
    button = ButtonId("review", record.game_id, record.version)
    return Button(str(button), t(record.lang, "ui.review"))


def review_text(kept: Kept, lang: str) -> str:
    """The player's decisions, the best alternative where theirs differed, and the totals."""
    review = kept.review
    if review.accuracy is None:  # nothing to grade: the timer played, or no roll had a choice
        return t(lang, "review.timed" if kept.timed else "review.none")
    lines = [t(lang, "review.title", aim=t(lang, f"review.aim.{kept.aim.value}"))]
    lines += [_line(decision, kept.aim, lang) for decision in kept.decisions[:MAX_LINES]]
    if review.count > MAX_LINES:
        lines.append(t(lang, "review.more", count=review.count - MAX_LINES))
    lines.append(
        t(lang, "review.summary", accuracy=decimal(lang, review.accuracy),
          best=review.best_count, decisions=review.count,
          loss=_loss(review.expected_loss, kept.aim, lang))
    )  # fmt: skip
    return "\n".join(lines)


def _line(decision: Decision, aim: Aim, lang: str) -> str:
    if decision.kind is Kind.DICE:
        chosen, best = (t(lang, f"review.dice.{n}") for n in (decision.chosen, decision.best))
        roll = "🎲"
    else:
        chosen, best = decision.chosen_label, decision.best_label
        roll = "-".join(map(str, decision.roll))
    if decision.was_best:
        return t(lang, "review.line.best", roll=roll, move=chosen)
    loss = _loss(decision.loss, aim, lang)
    return t(lang, "review.line.miss", roll=roll, move=chosen, best=best, loss=loss)


def _loss(loss: float, aim: Aim, lang: str) -> str:
    """A loss in the aim's unit: points, tiles, or percentage points of the chance to shut the
    box or to win the long game."""
    shown = 100 * loss if aim.is_chance else loss
    return t(lang, f"review.loss.{aim.value}", loss=decimal(lang, shown, 2))


async def review_reply(
    store: GameStore, ctx: Context, current: GameRecord | None, game: str | None, lang: str
) -> str:
    """The private review of the caller's decisions: in match `game` (a Review button), or in
    their last finished match in the channel (`/shutbox review`, `game` None)."""
    if current is not None and game == current.game_id:
        if current.state.seat_of(ctx.user) is None:
            return t(lang, "review.not_yours")
        return review_text(kept_of(current, ctx.user), lang)
    stored = (await store.hash(ctx.scope, keys.review(ctx.channel))).get(ctx.user)
    kept = Kept.from_str(stored) if stored else None
    if kept is None or (game is not None and kept.game_id != game):
        return t(lang, "review.no_match" if game is None else "review.not_yours")
    return review_text(kept, lang)
