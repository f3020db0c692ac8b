"""The tournament's lot, drawn from a seed committed at the start (checkable by hand).

- At `start` the bot draws a secret seed (32 random bytes, 64 lowercase hex digits) and
  publishes its commitment `sha256(seed_bytes).hexdigest()`; the seed is revealed at the end.
- A player's *draw* for round r (1, 2, ...) is
  `HMAC-SHA256(key=seed_bytes, msg=f"{tournament_id}:{r}:{entry}".encode()).hexdigest()`,
  where `entry` is the player's place in the order of entry (1, 2, ...), never a platform id,
  so the published record names players only by that number; round 0's draw is the
  tournament's lot, the last tiebreak of the standings.
- Where players are otherwise equal, the smaller draw (as hex text) comes first: the order in
  which a round's tables are filled (`swiss.py`, `knockout.py`) depends on nothing else.
"""

from __future__ import annotations

import hashlib
import hmac

from core.game.dice import commitment, is_server_seed, new_server_seed
from core.game.tournament.values import Tournament

__all__ = ["commitment", "draw", "is_server_seed", "new_server_seed", "player_draw"]


def draw(seed: str, tournament_id: str, round_number: int, entry: int) -> str:
    """The draw of entry number `entry` for a round (0: the tournament's lot), 64 hex digits."""
    if not is_server_seed(seed):
        raise ValueError("a tournament seed is 64 lowercase hex digits")
    message = f"{tournament_id}:{round_number}:{entry}".encode()
    return hmac.new(bytes.fromhex(seed), message, hashlib.sha256).hexdigest()


def player_draw(tournament: Tournament, round_number: int, player: str) -> str:
    """A player's draw in this tournament, by their place in the order of entry."""
    entry = tournament.players.index(player) + 1
    return draw(tournament.seed, tournament.id, round_number, entry)
