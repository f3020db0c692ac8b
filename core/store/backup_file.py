"""The backup file: JSON lines, one key a line, between a header and an end line.

```
{"format": "shutbox-backup", "version": 1, "created": "2026-12-02T01:00:00Z", "redis": "7.4.6"}
{"key": "stb:{discord:1}:bal", "type": "hash", "ttl_ms": null, "value": {"mint": "-100", ...}}
...
{"end": true, "servers": 3, "keys": 120, "sha256": "<of every line above, as bytes>"}
```

A group's keys (one hash tag) are consecutive lines; a group read again later (it gained keys
while the backup ran) appears again further on, and that later copy is the one restored. The end
line's checksum finds a file cut short or changed. A name ending in `.gz` is gzip-compressed.
The file is written under a temporary name and renamed when complete, so a backup that fails
half-way never leaves a file that looks whole.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from core.store.backup import NAMESPACE, Group, StoredKey, hash_tag, is_server_tag

FORMAT = "shutbox-backup"
VERSION = 1
KINDS = ("string", "hash", "set", "zset", "list", "stream")
GZIP_LEVEL = 6  # zlib's default: most of level 9's saving at a fraction of its time
STREAM_ID = re.compile(r"[0-9]+-[0-9]+")


class BackupFileError(ValueError):
    """The file is not a whole, readable backup; `str()` is one line saying why."""


@dataclass(frozen=True, slots=True)
class Summary:
    """What a backup file holds (the last copy of each group)."""

    servers: int
    keys: int
    size: int = 0  # bytes on disk
    created: str = ""
    copies: Counter[str] = field(default_factory=Counter)  # tag -> copies in the file


def _open(path: Path, mode: str, name: Path | None = None) -> IO[str]:
    """The file as text; gzip-compressed when its (final) `name` ends in `.gz`."""
    if (name or path).suffix == ".gz":
        binary = gzip.GzipFile(path, mode + "b", compresslevel=GZIP_LEVEL)
        return io.TextIOWrapper(binary, encoding="utf-8", newline="\n")
    return path.open(mode, encoding="utf-8", newline="\n")


class BackupWriter:
    """`with BackupWriter(path, redis_version) as out: out.add(group)`; then `out.summary`."""

    def __init__(self, path: Path, redis_version: str) -> None:
        self.path = path
        self._partial = path.with_name(f".{path.name}.partial")
        self._file = _open(self._partial, "w", path)
        # Names and balances of real people: readable by the owner only, whatever the umask.
        self._partial.chmod(0o600)
        self._digest = hashlib.sha256()
        self._keys: dict[str, int] = {}  # tag -> keys in its latest copy
        self.summary = Summary(0, 0)
        created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self._line({"format": FORMAT, "version": VERSION, "created": created,
                    "redis": redis_version})  # fmt: skip

    def _line(self, record: dict[str, Any]) -> None:
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        self._digest.update(text.encode())
        self._file.write(text)

    def add(self, group: Group) -> None:
        for stored in group.keys:
            self._line({"key": stored.key, "type": stored.kind, "ttl_ms": stored.ttl_ms,
                        "value": stored.value})  # fmt: skip
        self._keys[group.tag] = len(group.keys)

    def __enter__(self) -> BackupWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            self._file.close()
            self._partial.unlink(missing_ok=True)
            return
        servers = sum(1 for tag, keys in self._keys.items() if is_server_tag(tag) and keys)
        keys = sum(self._keys.values())
        end = {"end": True, "servers": servers, "keys": keys, "sha256": self._digest.hexdigest()}
        self._file.write(json.dumps(end) + "\n")
        self._file.close()
        _sync(self._partial)
        self._partial.replace(self.path)
        self.summary = Summary(servers, keys, self.path.stat().st_size)


def _sync(path: Path) -> None:
    """Put the file on disk before it takes the real name (a crash leaves no empty backup)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def check(path: Path) -> Summary:
    """Read the whole file once: the header, every line's shape, the end line and its checksum.

    Raises `BackupFileError` (one line) for anything that is not a whole backup.
    """
    digest, copies, created = hashlib.sha256(), Counter[str](), ""
    previous = None
    end: dict[str, Any] | None = None
    try:
        with _open(path, "r") as source:
            for number, text in enumerate(source, start=1):
                if end is not None:
                    raise BackupFileError(f"{path}: line {number} comes after the end line")
                record = _record(path, number, text)
                if number == 1:
                    created = _header(path, record)
                elif "end" in record:
                    end = record
                    continue
                else:
                    tag = hash_tag(_stored(path, number, record).key)
                    copies[tag] += tag != previous
                    previous = tag
                digest.update(text.encode())
    except (OSError, UnicodeDecodeError, EOFError) as error:
        raise BackupFileError(f"{path}: can't be read ({_reason(error)})") from None
    if end is None:
        raise BackupFileError(f"{path}: no end line: the file is cut short or not a backup")
    if end.get("sha256") != digest.hexdigest():
        raise BackupFileError(f"{path}: the checksum does not match: the file was changed "
                              "or damaged")  # fmt: skip
    return Summary(int(end.get("servers", 0)), int(end.get("keys", 0)), path.stat().st_size,
                   created, copies)  # fmt: skip


def groups(path: Path, summary: Summary) -> Iterator[Group]:
    """The file's groups, each in its last copy (the file was `check`ed already)."""
    left = Counter(summary.copies)
    keys: list[StoredKey] = []
    tag = None
    with _open(path, "r") as source:
        for number, text in enumerate(source, start=1):
            record = json.loads(text)
            if number == 1 or "end" in record:
                continue
            stored = _stored(path, number, record)
            if hash_tag(stored.key) != tag:
                if tag is not None and _last_copy(left, tag):
                    yield Group(tag, tuple(keys))
                tag, keys = hash_tag(stored.key), []
            keys.append(stored)
    if tag is not None and _last_copy(left, tag):
        yield Group(tag, tuple(keys))


def _last_copy(left: Counter[str], tag: str) -> bool:
    left[tag] -= 1
    return left[tag] == 0


def _reason(error: BaseException) -> str:
    """Why a file can't be read, without repeating its name."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    if isinstance(error, UnicodeDecodeError):
        return "it is not text"
    return str(error) or type(error).__name__


def _record(path: Path, number: int, text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except ValueError:
        if number == 1:
            raise BackupFileError(f"{path}: not a shutbox backup (line 1 is not JSON)") from None
        raise BackupFileError(f"{path}: line {number} is not JSON: the file is damaged") from None
    if not isinstance(record, dict):
        raise BackupFileError(f"{path}: line {number} is not a JSON object: the file is damaged")
    return record


def _header(path: Path, record: dict[str, Any]) -> str:
    if record.get("format") != FORMAT:
        raise BackupFileError(f"{path}: not a shutbox backup (no shutbox-backup header)")
    if record.get("version") != VERSION:
        raise BackupFileError(f"{path}: a backup of format version {record.get('version')}; "
                              f"this shutbox reads version {VERSION}")  # fmt: skip
    return str(record.get("created", ""))


def _stored(path: Path, number: int, record: dict[str, Any]) -> StoredKey:
    """The key of one line, or BackupFileError naming the line."""
    key, kind, ttl, value = (record.get(name) for name in ("key", "type", "ttl_ms", "value"))
    problem = None
    if not isinstance(key, str) or not key.startswith(NAMESPACE):
        problem = f"its key is not one of the bot's ({NAMESPACE}...)"
    elif kind not in KINDS:
        problem = f"{key} has an unknown type {kind!r}"
    elif ttl is not None and (not isinstance(ttl, int) or ttl <= 0):
        problem = f"{key} has a bad time to live {ttl!r}"
    elif not _well_formed(str(kind), value):
        problem = f"{key} has a value that is not a {kind}"
    if problem:
        raise BackupFileError(f"{path}: line {number}: {problem}")
    return StoredKey(str(key), str(kind), ttl, value)


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
    entries = value.get("entries") if isinstance(value, dict) else None
    return (
        isinstance(entries, list)
        and STREAM_ID.fullmatch(str(value.get("last"))) is not None
        and all(_stream_entry(entry) for entry in entries)
    )


def _stream_entry(entry: Any) -> bool:
    return (
        isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
        and STREAM_ID.fullmatch(entry[0]) is not None and _strings(entry[1])
        and len(entry[1]) % 2 == 0 and entry[1] != []
    )  # fmt: skip


def _score(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
