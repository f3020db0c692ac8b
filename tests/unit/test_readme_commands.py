"""README's table of `/shutbox` subcommands (Slack's "3. Play") names every subcommand of the
subcommand table and no other, so the guide cannot fall behind the code."""

from __future__ import annotations

import re
from pathlib import Path

from core.service.pipeline.subcommands import NAMES

README = Path(__file__).resolve().parents[2] / "README.md"


def table_rows() -> list[str]:
    """The first column of each row of the table under "### 3. Play"."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### 3. Play") :]
    section = section[: section.index("\n\n", section.index("| command |"))]
    return [line.split(" | ")[0] for line in section.splitlines() if line.startswith("| `/")]


def named(rows: list[str]) -> set[str]:
    """The subcommands a row names: `/shutbox start [...]`, and each `· `leave`` after it."""
    found = set()
    for row in rows:
        found |= set(re.findall(r"`/shutbox (\w+)", row))
        found |= set(re.findall(r"· `(\w+)", row))
    return found


def test_the_readme_lists_every_subcommand_and_no_other() -> None:
    assert named(table_rows()) == set(NAMES)


def test_the_check_reads_a_row() -> None:
    """The reading above can fail: a row's names are found, a word after a name is not one."""
    assert named(["| `/shutbox balance` · `daily`", "| `/shutbox web` · `web on\\|off`"]) == {
        "balance", "daily", "web"
    }  # fmt: skip
