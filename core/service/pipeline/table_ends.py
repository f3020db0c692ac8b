"""A tournament table's last game commit, joined by its tournament's step (one commit).

The game's plan is pure and knows nothing of the tournament; just before the commit, a plan
that ends a tournament table's match gets the tournament's version check, its new record and
any prizes (core/service/features/tournaments/advance.py). A stale tournament makes the whole
commit stale, and the commit loop plans again on what is stored now.
"""

from __future__ import annotations

from dataclasses import replace

from core.service.features.tournaments.advance import table_end
from core.service.features.tournaments.book import Change
from core.service.model.commit import Scope
from core.service.pipeline.game_commit import Plan
from core.service.pipeline.runtime import GameRuntime


async def joined(rt: GameRuntime, scope: Scope, plan: Plan) -> tuple[Plan, Change | None]:
    """The plan with its tournament's step in the same commit, and that step (None if the
    plan ends no tournament table, or its result was already counted)."""
    if plan.record is not None or not plan.final.tour:
        return plan, None
    end = await table_end(rt.store, scope, plan.final.tour, plan.final.state, rt.membership)
    if end is None:
        return plan, None
    commit = plan.commit
    # A table plays for no stakes, so the only chips this commit moves are the prizes.
    journal = end.journal if end.transfers and not commit.transfers else commit.journal
    commit = replace(commit, ops=(*commit.ops, *end.ops), journal=journal,
                     transfers=(*commit.transfers, *end.transfers))  # fmt: skip
    return replace(plan, commit=commit), end.change
