"""Every leaderboard a season archives (all but `lb:chips`, which mirrors the balances),
derived from known sets rather than found by scanning.

The boards kept per season are a few fixed ones and three per rule set; the rule sets are the
finite set `every_rule_set` lists. So ending a season names each possible board (a missing one
costs an EXISTS) and never scans the keyspace, whatever other servers hold. A new board is
added here, and the test that plays matches checks every board a commit writes is listed.
"""

from __future__ import annotations

from functools import cache

from core.game.options import every_rule_set
from core.service.model import keys

# Written by the stats, review and rating updates (core/service/features/: stats.py,
# reviews.py, ratings.py).
FIXED_BOARDS = tuple(
    keys.board(name)
    for name in ("wins", "rounds", "shuts", "rating", "decisions", "decisions_best",
                 "tournaments")
)
PER_RULES_BOARDS = (
    keys.board("best:"),
    keys.board("turns:"),
    keys.board("sum:"),
)  # + the rules' text form
# The current season's stats: one hash for the server, a field per player and stat
# (`<user>|<field>`, the fields of `stats:<user>`), renamed with the boards at a season end.
SEASON_HASHES = (keys.SEASON_STATS,)


@cache
def season_boards() -> tuple[str, ...]:
    """Every board a season archives (relative to the server), in a fixed order."""
    per_rules = [
        prefix + rules.to_str() for rules in every_rule_set() for prefix in PER_RULES_BOARDS
    ]
    return (*FIXED_BOARDS, *per_rules)
