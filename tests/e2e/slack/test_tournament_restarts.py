"""A tournament in a Slack workspace survives restarts of `shutbox slack` (SPEC 12): stopped
between two rounds, and killed with a table's match half played, a new process on the same
Redis and the same Slack finishes it as if nothing had happened: each round advanced once, the
clicks after the restart applied once, the prizes paid once and the ledger balanced."""

from __future__ import annotations

import signal
from pathlib import Path

import aiohttp

from core.store.redis_store import RedisStore
from tests.e2e.slack.bot_process import slack_process
from tests.e2e.slack.fake_slack import FakeSlack
from tests.e2e.slack.tournaments import (
    SCOPE,
    in_channel,
    play_out,
    play_round,
    play_table,
    start_tournament,
    table_games,
)
from tests.e2e.tournament_end import assert_finished_once

HALF_PLAYED = 4  # clicks into a table of 3, whose match takes at least 6
KILLED = -signal.SIGKILL


def folder(tmp_path: Path, name: str) -> Path:
    """Each process's own folder (its log kept for a failure's message)."""
    made = tmp_path / name
    made.mkdir()
    return made


async def test_a_swiss_of_seven_finishes_after_a_restart_between_rounds_and_one_mid_table(
    fake: FakeSlack, redis_url: str, store: RedisStore, tmp_path: Path
) -> None:
    played: set[str] = set()
    async with aiohttp.ClientSession() as http:
        async with slack_process(fake, redis_url, folder(tmp_path, "first")) as bot:
            slack = bot.driver(http, fake)
            cup_id = await start_tournament(slack, fake, store, "kind=swiss rounds=3 table=3", 7)
            await play_round(slack, fake, store, cup_id, played)  # its last click ends round 1

        async with slack_process(fake, redis_url, folder(tmp_path, "second"), code=KILLED) as bot:
            slack.url = bot.driver(http, fake).url  # (a) between the rounds; Slack is the same
            await fake.wait_for(lambda: len(table_games(fake)) == 4)  # round 2's two tables
            table = next(m for m in table_games(fake) if m.ts not in played)
            halfway = await play_table(slack, store, table, clicks=HALF_PLAYED)
            assert halfway > 0  # the match is still being played
            bot.process.send_signal(signal.SIGKILL)  # (b) in the middle of the round
            await bot.process.wait()

        async with slack_process(fake, redis_url, folder(tmp_path, "third")) as bot:
            slack.url = bot.driver(http, fake).url  # its clicks' action_ts go on from the last
            assert await play_table(slack, store, table, clicks=1) == halfway + 1  # applied once
            final = await play_out(slack, fake, store, cup_id, played)
            await fake.wait_for(lambda: any("* is over: " in text for text in in_channel(fake)))

    assert len(final.rounds) == 3 and all(r.bye for r in final.rounds)
    assert len(table_games(fake)) == 6  # no table opened twice
    assert any("has started with 7 players; the pot is 70 chips." in t for t in in_channel(fake))
    await assert_finished_once(store, SCOPE, final, in_channel(fake))
