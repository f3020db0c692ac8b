"""A tournament on Discord survives restarts of `shutbox discord` (SPEC 12): stopped between
two rounds, and killed with a table's match half played, a new process on the same Redis and
the same Discord finishes it as if nothing had happened: each round advanced once, the clicks
after the restart applied once, the prizes paid once and the ledger balanced."""

from __future__ import annotations

import signal
from pathlib import Path

from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord
from tests.e2e.discord.players import SCOPE
from tests.e2e.discord.test_cli import START_SECONDS, bot_process
from tests.e2e.discord.tournaments import (
    in_channel,
    play_out,
    play_round,
    play_thread,
    start_tournament,
)
from tests.e2e.slack.test_cli import free_port
from tests.e2e.tournament_end import assert_finished_once

HALF_PLAYED = 4  # presses into a table of 3, whose match takes at least 6


async def test_a_swiss_of_seven_finishes_after_a_restart_between_rounds_and_one_mid_table(
    fake: FakeDiscord, redis_url: str, store: RedisStore, tmp_path: Path
) -> None:
    played: set[int] = set()
    async with bot_process(fake, redis_url, tmp_path, free_port()):
        await fake.wait_ready(within=START_SECONDS)
        cup_id, started = await start_tournament(fake, store, "swiss", 3, 7)
        assert "the pot is 70 chips" in started
        await play_round(fake, store, cup_id, played)  # its last click ends round 1

    async with bot_process(fake, redis_url, tmp_path, free_port()) as process:  # (a) between
        await fake.wait_ready(within=START_SECONDS)
        await fake.until(lambda: len(fake.threads) == 4, START_SECONDS)  # round 2's two tables
        table = min(set(fake.threads) - played)
        halfway = await play_thread(fake, store, table, presses=HALF_PLAYED)
        assert halfway > 0  # the match is still being played
        process.send_signal(signal.SIGKILL)  # (b) in the middle of the round
        await process.wait()

    async with bot_process(fake, redis_url, tmp_path, free_port()):
        await fake.wait_ready(within=START_SECONDS)
        assert await play_thread(fake, store, table, presses=1) == halfway + 1  # applied once
        final = await play_out(fake, store, cup_id, played)
        await fake.until(lambda: any(" is over: " in text for text in in_channel(fake)))

    assert len(final.rounds) == 3 and all(r.bye for r in final.rounds)
    assert len(fake.threads) == 6  # no table opened twice
    await assert_finished_once(store, SCOPE, final, in_channel(fake))
