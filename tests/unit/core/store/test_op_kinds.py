"""The store operations are defined once in Python (`OpKind`) and applied by name in the commit
script: the two lists are held together here, so a kind added on one side only fails a test
instead of a commit (`ERR stats op does not fit its key`)."""

from __future__ import annotations

import re
from pathlib import Path

from core.service.model.commit import OpKind

COMMIT_LUA = Path(__file__).resolve().parents[4] / "core" / "store" / "lua" / "commit.lua"


def _lua() -> str:
    return COMMIT_LUA.read_text(encoding="utf-8")


def _named(lua: str) -> set[str]:
    """The kinds the script acts on by name (`kind == 'hset'`, `op[1] == 'heq'`)."""
    return set(re.findall(r"(?:kind|op\[1\]) == '(\w+)'", lua))


def test_the_commit_script_applies_every_kind_and_no_other() -> None:
    assert _named(_lua()) == {kind.value for kind in OpKind}


def test_the_commit_script_checks_every_kind_fits_its_key() -> None:
    """Each kind is in one of the script's key-type tables (or is `expire`, which fits any)."""
    tables = re.findall(r"local \w+_OPS = \{([^}]*)\}", _lua())
    checked = {name for table in tables for name in re.findall(r"(\w+) = true", table)}
    assert checked | {"expire"} == {kind.value for kind in OpKind}


def test_the_check_sees_a_kind_missing_from_the_script() -> None:
    """The tests above can fail: a kind the script does not name is found."""
    assert "hdel" not in _named(_lua())
    assert _named("if kind == 'hdel' then") == {"hdel"}
