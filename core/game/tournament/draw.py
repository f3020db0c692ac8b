"""The tournament's lot, drawn from a seed committed at the start (checkable by hand).

- At `start` the bot draws a secret seed (32 random bytes, 64 lowercase hex digits) and
  publishes its commitment `sha256(seed_bytes).hexdigest()`; the seed is revealed at the end.
- A player's *draw* for round r (1, 2, ...) is
  `HMAC-SHA256(key=seed_bytes, msg=f"{tournament_id}:{r}:{player_id}".encode()).hexdigest()`;
  round 0's draw is the tournament's lot, the last tiebreak of the standings.
- Where players are otherwise equal, the smaller draw (as hex text) comes first: the order in
  which a round's tables are filled (`swiss.py`, `knockout.py`) depends on nothing else.
"""

from __future__ import annotations

import hashlib
import hmac

from core.game.dice import commitment, is_server_seed, new_server_seed

__all__ = ["commitment", "draw", "is_server_seed", "new_server_seed"]


def draw(seed: str, tournament_id: str, round_number: int, player: str) -> str:
    """The player's draw for a round (0: the tournament's lot), as 64 hex digits."""
    if not is_server_seed(seed):
        raise ValueError("a tournament seed is 64 lowercase hex digits")
    message = f"{tournament_id}:{round_number}:{player}".encode()
    return hmac.new(bytes.fromhex(seed), message, hashlib.sha256).hexdigest()
