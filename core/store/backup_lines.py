"""The shape of one key line of a backup file: a key of the bot's, a known type, a sane time to
live and a value of that type (core/store/backup_values.py then checks what the bot reads)."""

from __future__ import annotations

import math
import re
from itertools import pairwise
from typing import Any

from core.store.backup import NAMESPACE, StoredKey

KINDS = ("string", "hash", "set", "zset", "list", "stream")
STREAM_ID = re.compile(r"[0-9]+-[0-9]+")
LONGEST_TTL_MS = 10 * 366 * 86_400_000  # no key of the bot's lives ten years: past it, damage


def line_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with a key line's shape, in words naming its key; None if nothing."""
    key, kind, ttl, value = (record.get(name) for name in ("key", "type", "ttl_ms", "value"))
    if not isinstance(key, str) or not key.startswith(NAMESPACE):
        return f"its key is not one of the bot's ({NAMESPACE}...)"
    if kind not in KINDS:
        return f"{key} has an unknown type {kind!r}"
    if ttl is not None and not _sane_ttl(ttl):
        return f"{key} has a bad time to live {ttl!r}"
    if not _well_formed(str(kind), value):
        return f"{key} has a value that is not a {kind}"
    return None


def stored_key(record: dict[str, Any]) -> StoredKey:
    """A line whose shape `line_problem` found sound, as a key."""
    return StoredKey(record["key"], record["type"], record["ttl_ms"], record["value"])


def stream_id(text: str) -> tuple[int, int]:
    milliseconds, _, sequence = text.partition("-")
    return int(milliseconds), int(sequence)


def _sane_ttl(ttl: Any) -> bool:
    return type(ttl) is int and 0 < ttl <= LONGEST_TTL_MS


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _well_formed(kind: str, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "hash":
        return isinstance(value, dict) and value != {} and _strings(list(value.values()))
    if kind in ("set", "list"):
        return _strings(value) and value != []
    if kind == "zset":
        return isinstance(value, list) and value != [] and all(
            _strings(pair) and len(pair) == 2 and _score(pair[1]) for pair in value
        )  # fmt: skip
    return _well_formed_stream(value)


def _well_formed_stream(value: Any) -> bool:
    """Entries in the order Redis gave them, none past the last id the stream gave."""
    entries = value.get("entries") if isinstance(value, dict) else None
    last = value.get("last") if isinstance(value, dict) else None
    if not isinstance(entries, list) or not isinstance(last, str) or not STREAM_ID.fullmatch(last):
        return False
    if not all(_stream_entry(entry) for entry in entries):
        return False
    ids = [stream_id(entry[0]) for entry in entries]
    increasing = all(earlier < later for earlier, later in pairwise(ids))
    return increasing and (not ids or ids[-1] <= stream_id(last))


def _stream_entry(entry: Any) -> bool:
    return (
        isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
        and STREAM_ID.fullmatch(entry[0]) is not None and entry[0] != "0-0"
        and _strings(entry[1]) and len(entry[1]) % 2 == 0 and entry[1] != []
    )  # fmt: skip


def _score(text: str) -> bool:
    try:
        return not math.isnan(float(text))  # Redis refuses a NaN score
    except ValueError:
        return False
