"""The backup file: JSON lines: a header, each group's copy (a group line, then its keys, one a
line), and an end line.

```
{"format": "shutbox-backup", "version": 2, "created": "2026-12-02T01:00:00Z", "redis": "7.4.6"}
{"group": "discord:1", "keys": 12}
{"key": "stb:{discord:1}:bal", "type": "hash", "ttl_ms": null, "value": {"mint": "-100", ...}}
...
{"end": true, "servers": 3, "keys": 120, "sha256": "<of every line above, as bytes>"}
```

A group's copy is one reading of its keys (one hash tag) in one step. A group read again later
(it gained keys while the backup ran) has another copy further on, even right after the first;
the last copy is the one restored, whole, and never mixed with another. Version 1 files have no
group lines: there a copy ends where the tag changes or the keys, sorted in a copy, start over.
The end line's checksum finds a file cut short or changed; every value is checked as the bot
reads it (core/store/backup_values.py). A name ending in `.gz` is gzip-compressed. The file is
written under a temporary name and renamed when complete, so a backup that fails half-way never
leaves a file that looks whole.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from core.store.backup import Group, StoredKey, hash_tag, is_server_tag
from core.store.backup_lines import line_problem, stored_key
from core.store.backup_values import value_problem

FORMAT = "shutbox-backup"
VERSION = 2
READS = (1, 2)  # the versions a restore reads
GZIP_LEVEL = 6  # zlib's default: most of level 9's saving at a fraction of its time


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
        self._line({"group": group.tag, "keys": len(group.keys)})
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
    """Read the whole file once: the header, every line's shape and value, each copy's keys,
    the end line and its checksum.

    Raises `BackupFileError` (one line naming the line and key) for anything that is not a whole
    backup of values the bot can read.
    """
    reader = _Reader(path)
    copies = Counter(group.tag for group in reader.groups())
    if reader.end is None:
        raise BackupFileError(f"{path}: no end line: the file is cut short or not a backup")
    if reader.end.get("sha256") != reader.digest.hexdigest():
        raise BackupFileError(f"{path}: the checksum does not match: the file was changed "
                              "or damaged")  # fmt: skip
    servers, keys = (reader.end.get(name, 0) for name in ("servers", "keys"))
    if type(servers) is not int or type(keys) is not int:
        raise BackupFileError(f"{path}: the end line's counts are not numbers: the file is "
                              "damaged")  # fmt: skip
    return Summary(servers, keys, path.stat().st_size, reader.created, copies)


def groups(path: Path, summary: Summary) -> Iterator[Group]:
    """The file's groups, each in its last copy (the file was `check`ed already)."""
    left = Counter(summary.copies)
    for group in _Reader(path).groups():
        left[group.tag] -= 1
        if left[group.tag] == 0:
            yield group


class _Reader:
    """One pass over a file: its header, its copies of groups, its end line and checksum."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.digest = hashlib.sha256()
        self.created = ""
        self.version = VERSION
        self.end: dict[str, Any] | None = None

    def groups(self) -> Iterator[Group]:
        """Each copy of a group, in the file's order; `BackupFileError` for what is wrong."""
        try:
            with _open(self.path, "r") as source:
                yield from self._copies(self._records(source))
        except (OSError, UnicodeDecodeError, EOFError) as error:
            raise BackupFileError(f"{self.path}: can't be read ({_reason(error)})") from None

    def _records(self, source: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
        """The group and key lines, numbered; the header and end line are kept aside."""
        for number, text in enumerate(source, start=1):
            if self.end is not None:
                raise BackupFileError(f"{self.path}: line {number} comes after the end line")
            record = _record(self.path, number, text)
            if "end" in record and number > 1:
                self.end = record
                continue
            self.digest.update(text.encode())
            if number == 1:
                self.created, self.version = _header(self.path, record)
            else:
                yield number, record

    def _copies(self, records: Iterable[tuple[int, dict[str, Any]]]) -> Iterator[Group]:
        """The copies of groups: each starts at its group line (version 2), or where the tag
        changes or the sorted keys start over (version 1)."""
        path, tag, keys, expected, opened = self.path, None, list[StoredKey](), 0, 0
        for number, record in records:
            if "group" in record and self.version > 1:
                if tag is not None:
                    yield _closed(path, opened, tag, keys, expected)
                tag, keys, opened = _group_line(path, number, record), [], number
                expected = record["keys"]
                continue
            stored = _stored(path, number, record)
            if self.version == 1 and _starts_over(tag, keys, stored):
                if tag is not None:
                    yield Group(tag, tuple(keys))
                tag, keys, opened = hash_tag(stored.key), [], number
            elif hash_tag(stored.key) != tag:
                raise BackupFileError(f"{path}: line {number}: {stored.key} is not of the group "
                                      f"{tag or '(none)'} it follows")  # fmt: skip
            elif keys and stored.key <= keys[-1].key:  # a reading lists each key once, sorted
                raise BackupFileError(f"{path}: line {number}: {stored.key} is out of order in "
                                      f"its group: the file is damaged")  # fmt: skip
            keys.append(stored)
        if tag is not None:
            yield _closed(path, opened, tag, keys, len(keys) if self.version == 1 else expected)


def _starts_over(tag: str | None, keys: list[StoredKey], stored: StoredKey) -> bool:
    """In a version 1 file: whether `stored` begins another copy (a copy's keys are sorted)."""
    return hash_tag(stored.key) != tag or (bool(keys) and stored.key <= keys[-1].key)


def _closed(path: Path, opened: int, tag: str, keys: list[StoredKey], expected: int) -> Group:
    if len(keys) != expected:
        raise BackupFileError(f"{path}: line {opened}: the group {tag} has {len(keys)} keys, "
                              f"not the {expected} it says: the file is damaged")  # fmt: skip
    return Group(tag, tuple(keys))


def _group_line(path: Path, number: int, record: dict[str, Any]) -> str:
    tag, count = record.get("group"), record.get("keys")
    if not isinstance(tag, str) or not tag or type(count) is not int or count < 0:
        raise BackupFileError(f"{path}: line {number} is not a group line: the file is damaged")
    return tag


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


def _header(path: Path, record: dict[str, Any]) -> tuple[str, int]:
    if record.get("format") != FORMAT:
        raise BackupFileError(f"{path}: not a shutbox backup (no shutbox-backup header)")
    version = record.get("version")
    if type(version) is not int or version not in READS:
        raise BackupFileError(f"{path}: a backup of format version {version}; this shutbox "
                              f"reads versions {READS[0]} to {READS[-1]}")  # fmt: skip
    return str(record.get("created", "")), version


def _stored(path: Path, number: int, record: dict[str, Any]) -> StoredKey:
    """The key of one line, or BackupFileError naming the line and key: its shape first, then
    whether the bot can read its value."""
    problem = line_problem(record)
    stored = stored_key(record) if problem is None else None
    if stored is not None:
        problem = value_problem(stored)
    if stored is None or problem is not None:
        raise BackupFileError(f"{path}: line {number}: {problem}")
    return stored
