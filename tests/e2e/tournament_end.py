"""What a finished tournament shows on any platform, however its bot was stopped and started
along the way: one standings post per round, one end post whose record `shutbox verify`
accepts, the pairings verifiable, every prize paid once and the ledger balanced."""

from __future__ import annotations

import re

from bot.commands.verify import verify_tournament
from core.game.tournament.values import Status, Tournament
from core.game.tournament.verify import pairing_faults
from core.service.features.tournaments.chips import prizes_out
from core.service.model.commit import Scope
from core.store.redis_store import RedisStore

START = 100  # every player's balance before the fee
RECORD = re.compile(r"shutbox verify`\): `(U1\|[^`]+)`")


def round_word(number: int) -> str:
    return f"{number} round" if number == 1 else f"{number} rounds"


async def assert_finished_once(
    store: RedisStore, scope: Scope, final: Tournament, channel: list[str]
) -> None:
    """`channel` holds the texts posted in the tournament's channel, oldest first."""
    assert final.status is Status.FINISHED
    for number in range(1, len(final.rounds) + 1):  # each round advanced exactly once
        posts = [t for t in channel if f"— standings after {round_word(number)}:" in t]
        assert len(posts) == 1, (number, posts)
    (ended,) = [text for text in channel if " is over: " in text]
    (record,) = RECORD.findall(ended)
    assert verify_tournament(record, as_json=True) == 0 and pairing_faults(final) == []
    fee, won = final.settings.fee, dict(prizes_out(final))
    assert sum(won.values()) == fee * len(final.players)
    balances = await store.balances(scope, list(final.players))
    assert balances == {p: START - fee + won.get(p, 0) for p in final.players}
    assert (await store.verify_ledger(scope)).ok
