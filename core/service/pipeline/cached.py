"""What this process keeps of Redis, read and written only here: the games and balances of a
runtime (runtime.py). A cached game or balance is a first guess; the commit's checks are the
truth, and what a refused commit returns is taken in here before the retry.
"""

from __future__ import annotations

from cachetools import LRUCache

from core.game.state import GameState
from core.service.model.commit import CommitResult, Scope, Status
from core.service.model.record import GameRecord
from core.service.model.settings import ServerConfig
from core.service.pipeline.game_commit import human_ids
from core.service.pipeline.runtime import GameRuntime


async def record_of(rt: GameRuntime, scope: Scope, channel: str) -> GameRecord | None:
    """The cached game, else one read from Redis (with its players' balances)."""
    record = rt.games.get((scope.tag, channel))
    if record is not None:
        return record
    stored, _ = await rt.store.load_with_balances(scope, channel, [])
    if stored is None:
        return None
    record = GameRecord.from_stored(stored.record, channel, stored.message)
    known = known_balances(rt, scope)
    missing = [p for p in human_ids(record.state) if p not in known]
    if missing and record.state.config.stakes.staked:
        known.update(await rt.store.balances(scope, missing))
    rt.games[(scope.tag, channel)] = record
    return record


async def fresh_record(rt: GameRuntime, scope: Scope, channel: str) -> GameRecord | None:
    """The game as Redis holds it now (another process may have moved it on)."""
    forget_game(rt, scope, channel)
    return await record_of(rt, scope, channel)


def forget_game(rt: GameRuntime, scope: Scope, channel: str) -> None:
    rt.games.pop((scope.tag, channel), None)


def knows_game(rt: GameRuntime, scope: Scope, channel: str) -> bool:
    """Whether this process holds a copy of the channel's game (which may be outdated)."""
    return (scope.tag, channel) in rt.games


def note_message(rt: GameRuntime, scope: Scope, channel: str, message: str) -> None:
    """The platform's id of the game message, on the cached game (if any)."""
    record = rt.games.get((scope.tag, channel))
    if record is not None:
        rt.games[(scope.tag, channel)] = record.evolve(message=message)


def forget_balances(rt: GameRuntime, scope: Scope) -> None:
    """Every balance of the server is read afresh next time."""
    rt.balances.pop(scope.tag, None)


def known_balances(rt: GameRuntime, scope: Scope) -> LRUCache[str, int]:
    """The server's balances this process holds (bounded: the least recently used go first)."""
    known = rt.balances.get(scope.tag)
    if known is None:
        known = rt.balances[scope.tag] = LRUCache(rt.cache_sizes.members)
    return known


async def balance_of(rt: GameRuntime, scope: Scope, user: str) -> int:
    found = await rt.store.balances(scope, [user])
    if user in found:
        return found[user]
    return (await rt.server_config(scope)).start_chips


def forget_game_and_chips(
    rt: GameRuntime, scope: Scope, channel: str, accounts: tuple[str, ...]
) -> None:
    """Drop what a commit of unknown outcome may have changed, so it is read afresh."""
    forget_game(rt, scope, channel)
    for account in accounts:
        known_balances(rt, scope).pop(account, None)


def remember(
    rt: GameRuntime, scope: Scope, channel: str, record: GameRecord | None, result: CommitResult
) -> None:
    """Keep what an applied commit wrote: the game (None once it is over) and the balances."""
    known_balances(rt, scope).update(result.balances)
    if record is None:
        rt.games.pop((scope.tag, channel), None)
    else:
        if result.message and result.message != record.message:
            record = record.evolve(message=result.message)
        rt.games[(scope.tag, channel)] = record


def learn(rt: GameRuntime, scope: Scope, channel: str, result: CommitResult) -> None:
    """Take in what a refused commit told us, so the retry starts from the truth."""
    known_balances(rt, scope).update(result.balances)
    if result.status is Status.STALE:
        if result.record is None:
            rt.games.pop((scope.tag, channel), None)
        else:
            record = GameRecord.from_stored(result.record, channel, result.message)
            rt.games[(scope.tag, channel)] = record


async def stakers_balances(
    rt: GameRuntime, scope: Scope, states: tuple[GameState, ...], config: ServerConfig
) -> dict[str, int]:
    """Every seated human's balance, read from Redis where this process has none.

    Settlement must never count a balance it did not read: another process may have seated
    the player, and an unknown balance would let them play for the pot without the ante.
    An account Redis does not have yet counts at the start balance the commit gives it.
    """
    known = known_balances(rt, scope)
    players = dict.fromkeys(p for state in states for p in human_ids(state))
    held = {player: known[player] for player in players if player in known}
    if not states[0].config.stakes.staked:
        return held
    missing = [player for player in players if player not in held]
    if missing:
        found = await rt.store.balances(scope, missing)
        read = {player: found.get(player, config.start_chips) for player in missing}
        known.update(read)
        held.update(read)
    return held
