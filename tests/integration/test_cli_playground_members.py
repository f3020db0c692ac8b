"""The operator's tools on the playground's data: its server and member ids are told, an id
that matches nothing is one line and exit 2, and `forget` prints the count the audit records."""

from __future__ import annotations

import json
import re

import pytest
from redis.asyncio import Redis

from adapters.console import SCOPE
from bot.cli import main
from core.game.dice import SeededDice
from tests.e2e.test_console import make, play_out, send_all
from tests.integration.cli import shutbox

SERVER = f"{SCOPE.platform}:{SCOPE.server}"



async def _played(redis: Redis) -> None:
    """Ann and Carol play a match in the playground, Ann grants Carol chips."""
    playground = make(redis, SeededDice(5), name="Ann")
    await send_all(playground, "start", "as Carol", "join", "go")
    await play_out(playground)
    await playground.send("grant Carol 5")


async def test_a_user_id_that_matches_nothing_says_how_ids_look(
    configured: str, redis: Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--user Carol` (the display name) is no id: exit 2 and one line naming the ids there."""
    await _played(redis)
    capsys.readouterr()
    for action in ("export", "forget"):
        assert await shutbox("user", action, "--server", SERVER, "--user", "Carol") == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == (
            f"shutbox: nothing is held about 'Carol' on {SERVER} (erased already, or not a member"
            " id; ids there are the players' names in lower case, words joined by -, e.g. "
            "ann (Ann), carol (Carol))\n"
        )
    assert await shutbox("user", "export", "--server", SERVER, "--user", "carol") == 0
    assert json.loads(capsys.readouterr().out)["balance"] == 105


@pytest.mark.parametrize("tool", [["user", "export"], ["user", "forget"], ["audit"],
                                  ["ledger", "verify"]])  # fmt: skip
def test_each_tools_help_names_the_playground_server(
    capsys: pytest.CaptureFixture[str], tool: list[str]
) -> None:
    assert main([*tool, "--help"]) == 0
    assert f"the local playground is {SERVER}" in " ".join(capsys.readouterr().out.split())


async def test_forget_prints_the_record_count_the_audit_records(
    configured: str, redis: Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    await _played(redis)
    assert await shutbox("user", "export", "--server", SERVER, "--user", "carol") == 0
    exported = len(json.loads(capsys.readouterr().out)["records"])
    assert await shutbox("user", "forget", "--server", SERVER, "--user", "carol") == 0
    printed = re.search(r"(\d+) records erased .*records=(\d+)\)", capsys.readouterr().out)
    assert printed is not None
    assert await shutbox("audit", "--server", SERVER, "--json") == 0
    entries = json.loads(capsys.readouterr().out)["entries"]
    audited = next(e["detail"]["records"] for e in entries if e["action"] == "erase")
    assert int(printed[1]) == int(printed[2]) == audited == exported
