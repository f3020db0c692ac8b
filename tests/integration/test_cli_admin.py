"""`shutbox audit` and `shutbox user export|forget` against a real Redis (issue 23)."""

from __future__ import annotations

import json

import pytest
from redis.asyncio import Redis

from core.service.api.commands import Configure, Grant, Start
from core.service.features.gifts import Standing
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.cli import shutbox
from tests.integration.manager_helpers import SCOPE, Table, manager

MEMBER = Standing.MEMBER  # a member the platform confirmed

SERVER = f"{SCOPE.platform}:{SCOPE.server}"



async def admin_acted(store: RedisStore) -> Table:
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Admin", admin=True), Grant("bob", "Bob", 40, MEMBER))
    await table.manager.handle(table.ctx("Admin", admin=True), Configure({"style": "text"}))
    return table


async def test_audit_lists_the_admin_actions(
    configured: str, store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    await admin_acted(store)
    assert await shutbox("audit", "--server", SERVER) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("  config  by admin (Admin)  style=image→text")
    assert lines[1].endswith("  grant  by admin (Admin)  to bob (Bob)  amount=40 balance=100→140")
    assert await shutbox("audit", "--server", SERVER, "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [e["action"] for e in listed["entries"]] == ["config", "grant"]
    assert listed["entries"][1]["detail"] == {"amount": 40, "balance": [100, 140]}


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["audit", "--server", "nowhere"],
         "shutbox: --server must be platform:id (e.g. discord:123; the local playground is "
         "local:playground), not 'nowhere'\n"),
        (["audit", "--server", "discord:404"],
         "shutbox: no server discord:404 in this Redis (known: test:guild)\n"),
        (["user", "export", "--server", "discord:404", "--user", "u1"],
         "shutbox: no server discord:404 in this Redis (known: test:guild)\n"),
        (["user", "forget", "--server", SERVER, "--user", "a b"],
         "shutbox: --user is the member's platform id (e.g. 123456789), not 'a b'\n"),
    ],
)  # fmt: skip
async def test_a_bad_server_or_user_is_one_line_and_exit_2(
    configured: str, store: RedisStore, capsys: pytest.CaptureFixture[str],
    argv: list[str], line: str,
) -> None:  # fmt: skip
    await admin_acted(store)
    capsys.readouterr()
    assert await shutbox(*argv) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", line)


async def test_export_then_forget_from_the_command_line(
    configured: str, redis: Redis, store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    await admin_acted(store)
    assert await shutbox("user", "export", "--server", SERVER, "--user", "bob") == 0
    exported = json.loads(capsys.readouterr().out)
    assert (exported["user"], exported["names"], exported["balance"]) == ("bob", ["Bob"], 140)
    assert await shutbox("user", "forget", "--server", SERVER, "--user", "bob", "--by", "ops") == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Erased bob on {SERVER}: 140 chips back to the mint, 2 journal entries")
    assert await shutbox("ledger", "verify", "--server", SERVER) == 0
    assert await shutbox("user", "forget", "--server", SERVER, "--user", "bob") == 2
    assert capsys.readouterr().err.startswith(f"shutbox: nothing is held about 'bob' on {SERVER} "
                                              "(erased already, or not a member id")  # fmt: skip
    assert await shutbox("audit", "--server", SERVER) == 0
    assert "  erase  by ops (ops)  to erased:" in capsys.readouterr().out


async def test_forget_refuses_a_member_in_a_running_game(
    configured: str, store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    table = await admin_acted(store)
    await table.manager.handle(table.ctx("Bob"), Start(StartOptions()))
    capsys.readouterr()
    assert await shutbox("user", "forget", "--server", SERVER, "--user", "bob") == 2
    assert capsys.readouterr().err == (
        "shutbox: bob is seated in the running game in channel c1; the host or an admin ends "
        "it with /shutbox stop in that channel (its stakes go back), or let it end, then erase "
        "again\n"
    )
