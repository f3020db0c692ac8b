"""What the bot reads of a backup's keys, checked before a restore writes anything: balances
are whole numbers, the journal's entries are chip movements, games parse as games, a daily
challenge's attempts and streaks parse. A key the bot only passes along is not looked into."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from core.service.features.challenge.day import STARTED, Result, Streak
from core.service.model import keys
from core.service.model.record import GameRecord
from core.service.model.unreadable import Unreadable
from core.store.backup import StoredKey
from core.store.backup_lines import STREAM_ID

SERVER_KEY = re.compile(r"stb:\{[^}]+\}:(.+)")
DAY = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"

# (the key's name inside its server, its value) -> each problem found, in words
Check = Callable[[str, Any], Iterator[str]]


def value_problem(stored: StoredKey) -> str | None:
    """The first thing the bot could not read in `stored`, naming the key; None if sound."""
    name = SERVER_KEY.fullmatch(stored.key)
    if name is None:
        return None
    for pattern, kind, check in CHECKS:
        if re.fullmatch(pattern, name.group(1)):
            if stored.kind != kind:
                return f"{stored.key} is a {stored.kind}, where the bot keeps a {kind}"
            found = next(check(name.group(1), stored.value), None)
            return None if found is None else f"{stored.key}: {found}"
    return None


def _whole(text: str) -> bool:
    return re.fullmatch(r"-?[0-9]+", text) is not None


def _balances(_: str, value: dict[str, str]) -> Iterator[str]:
    for account, amount in value.items():
        if not _whole(amount):
            yield f"the balance of {account} is {amount!r}, not a whole number of chips"


def _checkpoint(_: str, value: dict[str, str]) -> Iterator[str]:
    for field, text in value.items():
        if field.startswith("b:") and not _whole(text):
            yield f"the balance of {field[2:]} is {text!r}, not a whole number of chips"
    if "entries" in value and not _whole(value["entries"]):
        yield f"its count of entries is {value['entries']!r}, not a whole number"
    if "id" in value and not STREAM_ID.fullmatch(value["id"]):
        yield f"its last entry id is {value['id']!r}, not a journal id"


def _journal(_: str, value: dict[str, Any]) -> Iterator[str]:
    for entry_id, fields in value["entries"]:
        entry = dict(zip(fields[::2], fields[1::2], strict=True))
        if not {"src", "dst", "amt"} <= entry.keys():
            yield f"entry {entry_id} is not a chip movement (src, dst, amt)"
        elif not _whole(entry["amt"]):
            yield f"entry {entry_id} moves {entry['amt']!r} chips, not a whole number"


def _game(name: str, value: dict[str, str]) -> Iterator[str]:
    if "v" not in value or "r" not in value:
        yield "the game has no version (v) or no record (r)"
    elif not _whole(value["v"]):
        yield f"the game's version is {value['v']!r}, not a whole number"
    else:
        try:
            GameRecord.from_str(value["r"], name.removeprefix(keys.game("")))
        except Unreadable as error:
            yield f"the game record does not parse ({error.problem})"


def _attempts(_: str, value: dict[str, str]) -> Iterator[str]:
    for user, text in value.items():
        if text not in ("", STARTED) and _parsed(Result.from_str, text) is None:
            yield f"the attempt of {user} is {text!r}, not a challenge result"


def _streaks(_: str, value: dict[str, str]) -> Iterator[str]:
    for user, text in value.items():
        if _parsed(Streak.from_str, text) is None:
            yield f"the streak of {user} is {text!r}, not a streak"


def _parsed(parse: Callable[[str], Any], text: str) -> Any:
    try:
        return parse(text)
    except (ValueError, TypeError, IndexError):
        return None


# (name inside the server, the type the bot keeps it as, what it reads of the value)
CHECKS: tuple[tuple[str, str, Check], ...] = (
    (re.escape(keys.BALANCES), "hash", _balances),
    (re.escape(keys.CHECKPOINT), "hash", _checkpoint),
    (re.escape(keys.JOURNAL), "stream", _journal),
    (re.escape(keys.game("")) + ".+", "hash", _game),
    (re.escape(keys.CHALLENGE_DAY_HEAD) + DAY, "hash", _attempts),
    (re.escape(keys.CHALLENGE_STREAKS), "hash", _streaks),
)
