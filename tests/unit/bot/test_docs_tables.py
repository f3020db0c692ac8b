"""The documentation site's generated tables: each is made from the code it describes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.docs_tables import TABLES, UnknownTable, fill, settings_table
from core.game.match import FormatKind, StakesKind
from core.game.rules import PRESETS
from core.service.pipeline.subcommands import NAMES

DOCS = Path(__file__).resolve().parents[3] / "docs"


def first_cells(table: str) -> list[str]:
    return [row.split(" | ")[0].removeprefix("| ") for row in table.splitlines()[2:]]


def test_the_subcommand_table_names_every_subcommand_and_no_other() -> None:
    names = [re.match(r"`/shutbox (\w+)", cell).group(1) for cell in first_cells(fill(  # type: ignore[union-attr]
        "<!-- generated: subcommands -->"))]  # fmt: skip
    assert names == list(NAMES)


def test_the_presets_formats_and_stakes_tables_name_every_one() -> None:
    assert first_cells(TABLES["presets"]()) == [f"`{name}`" for name in PRESETS]
    assert first_cells(TABLES["formats"]()) == [f"`{kind.value}`" for kind in FormatKind]
    assert first_cells(TABLES["stakes"]()) == [f"`{kind.value}`" for kind in StakesKind]


def test_the_settings_table_is_the_example_file(tmp_path: Path) -> None:
    example = tmp_path / ".env.example"
    example.write_text(
        "# --- Redis ---\n# Where games live, e.g. <url>.\nREDIS_URL=\n"
        "# Two settings, one comment: `<n>` stays code.\nA_ONE=1\nA_TWO=2\n\n# orphan comment\n",
        encoding="utf-8",
    )
    rows = settings_table(example).splitlines()[2:]
    assert rows == [
        "| `REDIS_URL=` | Where games live, e.g. &lt;url&gt;. |",
        "| `A_ONE=1`<br>`A_TWO=2` | Two settings, one comment: `<n>` stays code. |",
    ]


def test_the_real_settings_table_has_a_row_per_setting() -> None:
    table = settings_table()
    assert "`REDIS_URL=`" in table
    assert "`SHUTBOX_REQUEST_TTL=3600`" in table


def test_an_unknown_table_stops_the_build() -> None:
    with pytest.raises(UnknownTable, match="no generated table 'nope'"):
        fill("text\n<!-- generated: nope -->\n")


def test_every_marker_in_the_pages_names_a_table() -> None:
    for page in DOCS.rglob("*.md"):
        fill(page.read_text(encoding="utf-8"))  # raises on an unknown one
    assert "<!-- generated: subcommands -->" in (DOCS / "play" / "commands.md").read_text(
        encoding="utf-8"
    )
