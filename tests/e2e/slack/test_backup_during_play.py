"""Black-box, an operator's busy day (issue 31): `shutbox backup` processes taken 0.3 s apart
while a `shutbox slack` process plays clicks and gifts; each file restores into a Redis of its
own, whose ledgers verify, three times out of three."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
from redis.asyncio import Redis

from core.store.backup_file import check, groups
from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message
from tests.e2e.slack.test_cli import Served, served
from tests.e2e.slack.test_match import first_move
from tests.scale.servers import free_port, redis_server

__all__ = ["served"]  # the process fixture, shared with test_cli.py

BACKUPS = 3
APART = 0.3  # seconds between two backups, as in the report
SERVER = f"slack:{TEAM}"
# Other servers, read before the busy one: it grows while they are read, and is read again
# (often more than once in a row), as on a bot with many servers
IDLE = 2000
PACE = 0.25  # seconds between one member's commands: within the default rate limit (50 in 10 s)


async def shutbox(cwd: Path, redis_url: str, *argv: str) -> tuple[int, str, str]:
    """`shutbox ARGV` as its own process on `redis_url`: exit code, stdout, stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "SHUTBOX_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", *argv, cwd=cwd,
        env=env | {"REDIS_URL": redis_url, "SHUTBOX_DATA_DIR": str(cwd / "data")},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return int(process.returncode or 0), out.decode(), err.decode()


async def new_game(slack: Driver, fake: FakeSlack, user: str, channel: str) -> Message:
    before = fake.game_messages(channel)
    assert (await slack.command(user, "solo", channel=channel)).status == 200
    found: list[Message] = await fake.wait_for(
        lambda: [m for m in fake.game_messages(channel) if m not in before]
    )
    return found[0]


async def clicking(slack: Driver, fake: FakeSlack, user: str, done: asyncio.Event) -> int:
    """Solo games in the member's own channel, one click after another, a new game when one
    ends."""
    clicks = 0
    while not done.is_set():
        game = await new_game(slack, fake, user, f"C{user}")
        while game.playing and not done.is_set():
            await slack.press(user, game, first_move(game))
            clicks += 1
            await asyncio.sleep(PACE)
    return clicks


async def giving(slack: Driver, done: asyncio.Event) -> int:
    """Bob and Cid give each other a chip, turn about."""
    gifts = 0
    while not done.is_set():
        giver, taker = ("UBOB", "UCID") if gifts % 2 == 0 else ("UCID", "UBOB")
        assert (await slack.command(giver, f"give <@{taker}> 1", channel="CGIFT")).status == 200
        gifts += 1
        await asyncio.sleep(PACE / 2)
    return gifts


async def test_backups_taken_while_clicks_and_gifts_run_restore_and_verify(
    served: Served, fake: FakeSlack, redis: Redis, redis_url: str, tmp_path: Path
) -> None:
    """Each backup process runs while chips move (the journal grows during each)."""
    files = [tmp_path / f"busy-{n}.jsonl.gz" for n in range(BACKUPS)]
    pipe = redis.pipeline(transaction=False)
    for number in range(IDLE):
        pipe.hset(f"stb:{{idle:{number:04}}}:names", "u1", "Idle")
    await pipe.execute()
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, f"{served.url}/slack/events", fake)
        done = asyncio.Event()
        players = asyncio.gather(
            clicking(slack, fake, "UANN", done), clicking(slack, fake, "UDAN", done),
            giving(slack, done),
        )  # fmt: skip
        moved = []
        for path in files:
            await asyncio.sleep(APART)
            before = await redis.xlen(f"stb:{{{SERVER}}}:journal")
            code, out, err = await shutbox(tmp_path, redis_url, "backup", str(path))
            assert (code, err) == (0, "") and out.startswith(f"Wrote {path}: "), err
            moved.append(await redis.xlen(f"stb:{{{SERVER}}}:journal") - before)
        done.set()
        *clicks, gifts = await players
    assert all(clicks) and gifts > 0 and all(moved), (clicks, gifts, moved)  # chips moved meanwhile

    for number, path in enumerate(files):
        await restores_and_verifies(path, tmp_path / f"restored-{number}")


async def restores_and_verifies(path: Path, where: Path) -> None:
    """`shutbox restore` into a Redis of its own, then `shutbox ledger verify`: both exit 0, and
    the server holds exactly the keys of the file's last reading of it."""
    kept = {g.tag: g for g in groups(path, check(path))}[SERVER]
    journal = next(k for k in kept.keys if k.key.endswith(":journal"))
    verified = f"{SERVER}: OK — {len(journal.value['entries'])} journal entries replay to the "
    with redis_server(where, free_port()) as target:
        started = time.monotonic()
        code, out, err = await shutbox(where, target.url, "restore", str(path))
        assert (code, err) == (0, "") and out.startswith(f"Restored {IDLE + 1:,} servers, "), err
        code, out, err = await shutbox(where, target.url, "ledger", "verify")
        assert (code, err) == (0, "") and f"{verified}stored balances.\n" in out, out
        restored = Redis(port=target.port, decode_responses=True)
        found = await restored.keys(f"stb:{{{SERVER}}}:*")
        await restored.aclose()
        lived_ms = (time.monotonic() - started) * 1000
    # A key restored with little time left to live (a rate counter's few seconds) may have run
    # out by the time it is looked for, as it would have in the Redis it came from.
    missing = {k.key: k.ttl_ms for k in kept.keys if k.key not in found}
    assert all(ttl is not None and ttl <= lived_ms for ttl in missing.values()), missing
    assert set(found) <= {k.key for k in kept.keys}
