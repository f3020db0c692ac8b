"""Every Redis key is named in core/service/model/keys.py, and no two names there are one key."""

from __future__ import annotations

import ast
import re
from datetime import date
from pathlib import Path

from core.service.model import keys

ROOT = Path(__file__).resolve().parents[5]
# Calls whose argument at this position is a key: a commit's operations, the store's reads and
# claims, and the store's own key building.
KEY_ARGUMENTS = {"StoreOp": 1, "hash": 1, "top": 1, "claim": 1, "server_key": 1}
PLACEHOLDER = re.compile(r"<([^>]+)>")
FILLS = {"YYYY-MM-DD": r"\d{4}-\d{2}-\d{2}", "season": r"\d+"}


def _matcher(pattern: str) -> re.Pattern[str]:
    parts = PLACEHOLDER.split(pattern)
    regex = "".join(FILLS.get(part, ".+") if odd else re.escape(part) for odd, part in _odd(parts))
    return re.compile(regex)


def _odd(parts: list[str]) -> list[tuple[bool, str]]:
    return [(index % 2 == 1, part) for index, part in enumerate(parts)]


def test_every_key_is_listed_once() -> None:
    """No key is listed twice."""
    patterns = [key.pattern for key in keys.KEYS]
    assert len(patterns) == len(set(patterns))


def test_no_fixed_key_is_one_of_a_family() -> None:
    """A fixed name (`challenge:streak`) can't be a member of a family (`challenge:<day>`)."""
    fixed = [key.pattern for key in keys.KEYS if "<" not in key.pattern]
    families = [key.pattern for key in keys.KEYS if "<" in key.pattern]
    clashes = [(name, family) for name in fixed for family in families
               if _matcher(family).fullmatch(name)]  # fmt: skip
    assert clashes == []


def test_no_two_families_share_a_head() -> None:
    """Two families of keys start differently, so one's member is never the other's."""
    heads = [key.pattern.split("<")[0] for key in keys.KEYS if "<" in key.pattern]
    shared = [(a, b) for a in heads for b in heads if a != b and b.startswith(a)]
    assert shared == []


def test_the_builders_make_the_listed_names() -> None:
    """What a feature writes is what the table lists."""
    listed = [_matcher(key.pattern) for key in keys.KEYS]
    made = [keys.stats("u1"), keys.board("wins"), keys.review("c1"), keys.rematch("c1"),
            keys.game("c1"), keys.request("r1"), keys.claim(keys.announced("r1")),
            keys.claim(keys.posted("m1")), keys.last_result("c1"), keys.rate("cmd", "u1"),
            keys.season_request("r1"), keys.archived(3, "lb:wins"),
            keys.challenge_day(date(2026, 12, 5))]  # fmt: skip
    assert [name for name in made if not any(m.fullmatch(name) for m in listed)] == []


def _literal_keys(path: Path) -> list[str]:
    """`file:line` of every key written as a string literal in a call that takes a key."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        position = KEY_ARGUMENTS.get(name)
        if position is None or len(node.args) <= position:
            continue
        if isinstance(node.args[position], ast.Constant | ast.JoinedStr):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_key_is_named_outside_the_keys_module() -> None:
    """The service and the store name each key through keys.py, never a literal of their own."""
    sources = [*(ROOT / "core" / "service").rglob("*.py"), *(ROOT / "core" / "store").rglob("*.py")]
    assert [spot for path in sources for spot in _literal_keys(path)] == []
