"""Ratings: every finished match between two or more humans with a winner updates their skill
(OpenSkill).

The model is OpenSkill's Plackett–Luce: players are ranked by the match result (the winners
first, the rest by total, lower being better; equal results share a rank). Bots and solo games
are not rated. The manager reads the players' ratings before planning the commit that ends the
match, and that same commit writes the new ones (the `rating` hash and the `lb:rating` board).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from core.game.events import Event, MatchEnded
from core.game.match import FormatKind
from core.game.state import Ending, GameState
from core.service.features.keeping import Change
from core.service.features.skill import MODEL, Skill
from core.service.model import keys
from core.service.model.commit import OpKind, StoreOp
from core.text.i18n import t


def rated(state: GameState, events: Sequence[Event], *, solo: bool) -> tuple[int, ...]:
    """The seats this click's events rate: the humans of a finished multiplayer match that has
    a winner (everyone left: "No winner", and nobody's rating moves) and a human decision (a
    match everyone timed out of is void)."""
    ended = any(isinstance(e, MatchEnded) and e.ending is Ending.FINISHED for e in events)
    humans = tuple(i for i, seat in enumerate(state.seats) if not seat.bot)
    counted = ended and state.winners and not state.void and not solo
    return humans if counted and len(humans) >= 2 else ()


def ranks(state: GameState, seats: Sequence[int]) -> list[int]:
    """Each seat's place in the match's final order: winners 1, then by total, lower first;
    equal results share a place. A leaver's or dropped player's total already holds the maximum
    for every turn they did not play (the engine scores those), so they rank by it."""
    long = state.config.format.kind is FormatKind.LONG

    def key(index: int) -> tuple[int, int]:
        return (0 if index in state.winners else 1, 0 if long else state.seats[index].total)

    keys = [key(index) for index in seats]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def updated(
    state: GameState, seats: Sequence[int], before: Mapping[str, Skill]
) -> dict[str, Skill]:
    """The new skill of each rated player."""
    ids = [state.seats[index].id for index in seats]
    teams = [[MODEL.create_rating([before.get(user, Skill()).mu, before.get(user, Skill()).sigma])]
             for user in ids]  # fmt: skip
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks(state, seats)])
    return {user: Skill(team[0].mu, team[0].sigma) for user, team in zip(ids, after, strict=True)}


def kept(change: Change) -> Iterator[StoreOp]:
    """The new ratings of a rated match's players (none otherwise), written if each player's
    stored one is still the one they came from.

    A player finishing two matches at the same moment: the second commit is stale and is
    planned again from the first one's rating, so neither update is lost.
    """
    before = change.skills_before
    for user, skill in change.skills_after.items():
        was = before[user].to_str() if user in before else ""
        yield StoreOp(OpKind.HEQ, keys.RATINGS, user, was)
        yield StoreOp(OpKind.HSET, keys.RATINGS, user, skill.to_str())
        yield StoreOp(OpKind.ZSET, keys.board("rating"), user, skill.shown)


def summary(
    state: GameState, after: Mapping[str, Skill], before: Mapping[str, Skill], lang: str
) -> str:
    """`Ratings: Ann 1,512 (+18) · Bob 1,488 (−18)`."""
    parts = []
    for seat in state.seats:
        if seat.id in after:
            new, old = after[seat.id].shown, before.get(seat.id, Skill()).shown
            change = f"+{new - old}" if new >= old else f"−{old - new}"
            parts.append(t(lang, "rating.player", player=seat.name, rating=new, change=change))
    return t(lang, "rating.summary", ratings=" · ".join(parts))
