"""`shutbox backup FILE` and `shutbox restore FILE [--replace]`: the bot's whole Redis data.

Works on whatever the bot itself connects to (REDIS_URL, REDIS_CLUSTER, REDIS_SENTINELS, or the
embedded Redis in SHUTBOX_DATA_DIR). Each server is read in one atomic step, while bots keep
playing; see core/store/backup.py for the reading and core/store/backup_file.py for the file.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from redis.exceptions import ResponseError

from bot.commands import CommandError, Subparsers
from bot.settings import load_settings
from core.store.backup import REREADS

FAILED = 1


def register(subparsers: Subparsers) -> None:
    """Add `backup` and `restore` to the command line."""
    backup = subparsers.add_parser(
        "backup", help="write every key of the bot's data to a file", description=__doc__
    )
    backup.add_argument("file", type=Path, metavar="FILE",
                        help="the file to write (a name ending in .gz is compressed)")  # fmt: skip
    backup.set_defaults(func=run_backup)
    restore = subparsers.add_parser(
        "restore", help="load a backup into a Redis without the bot's data", description=__doc__
    )
    restore.add_argument("file", type=Path, metavar="FILE", help="a file `shutbox backup` wrote")
    restore.add_argument("--replace", action="store_true",
                         help="overwrite the bot's data already in Redis: keys the file does "
                              "not hold are deleted")  # fmt: skip
    restore.set_defaults(func=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    if str(args.file) == "-":  # it is written under another name first, then renamed
        raise CommandError("backup writes a file, not standard output: give a file name")
    if not args.file.parent.is_dir():
        raise CommandError(f"can't write {args.file}: {args.file.parent} is not a directory")
    if args.file.is_dir():
        raise CommandError(f"can't write {args.file}: it is a directory")
    started = time.perf_counter()
    summary, unsettled = asyncio.run(_backup(args.file))
    print(f"Wrote {args.file}: {_count(summary.servers, 'server')}, "
          f"{_count(summary.keys, 'key')}, {summary.size:,} bytes, "
          f"in {time.perf_counter() - started:.2f} s.")  # fmt: skip
    if unsettled:
        print(f"shutbox: still gaining keys after {REREADS + 1} readings: "
              f"{', '.join(unsettled)}; each is saved as one moment, which may lack keys "
              "created just before it was read (back up again when it is quieter)",
              file=sys.stderr)  # fmt: skip
    return 0


async def _backup(path: Path) -> tuple[Any, tuple[str, ...]]:
    """The file's summary, and the groups that were still gaining keys at the end."""
    from bot.runtime import open_runtime
    from core.store.backup import NamespaceReader
    from core.store.backup_file import BackupWriter

    settings = load_settings()
    async with open_runtime(settings.redis.url, settings.core.data_dir) as runtime:
        reader = NamespaceReader(runtime.redis)
        with _redis_errors(), BackupWriter(path, await _version(runtime.redis)) as out:
            async for group in reader.groups():
                out.add(group)
    return out.summary, reader.unsettled


def run_restore(args: argparse.Namespace) -> int:
    from core.store.backup_file import BackupFileError, check

    started = time.perf_counter()  # the check of every value is part of the wait
    try:
        summary = check(args.file)
    except BackupFileError as error:
        raise CommandError(str(error)) from None
    try:
        servers, keys = asyncio.run(_restore(args.file, summary, replace=args.replace))
    except BackupFileError as error:  # the file changed after it was checked: nothing written
        raise CommandError(str(error)) from None
    print(f"Restored {_count(servers, 'server')}, {_count(keys, 'key')} from {args.file} "
          f"(written {summary.created}) in {time.perf_counter() - started:.2f} s.")  # fmt: skip
    return 0


async def _restore(path: Path, summary: Any, *, replace: bool) -> tuple[int, int]:
    from bot.runtime import open_runtime
    from core.store.backup import namespace_keys
    from core.store.backup_file import groups
    from core.store.restore import load

    settings = load_settings()
    async with open_runtime(settings.redis.url, settings.core.data_dir) as runtime:
        redis = runtime.redis
        if not replace:
            await _refuse_if_present(redis)
        present = await namespace_keys(redis) if replace else {}
        with _redis_errors():
            servers, keys = await load(redis, groups(path, summary), present, str(path))
    return len(servers), keys


async def _refuse_if_present(redis: Any) -> None:
    """Without --replace, only into a Redis without the bot's data."""
    from core.store.backup import any_namespace_key
    from core.store.restore import RESTORING_KEY

    if started := await redis.get(RESTORING_KEY):
        raise CommandError(f"a restore of {started} into this Redis did not finish; run it "
                           "again with --replace")  # fmt: skip
    if found := await any_namespace_key(redis):
        raise CommandError(f"Redis already holds the bot's data ({found}, ...); restore into "
                           "a Redis without it, or add --replace to overwrite it")  # fmt: skip


@contextmanager
def _redis_errors() -> Iterator[None]:
    """A Redis that refuses a command (out of memory, read-only): one line. One that cannot be
    reached is reported by `open_runtime`, as for every tool."""
    try:
        yield
    except ResponseError as error:
        raise CommandError(f"Redis refused: {error}", exit_code=FAILED) from None


async def _version(redis: Any) -> str:
    """The Redis version (of any node, on a cluster)."""
    info: Any = await redis.info("server")
    if "redis_version" not in info and info:  # a cluster answers per node
        info = next(iter(info.values()))
    return str(info.get("redis_version", "unknown")) if isinstance(info, dict) else "unknown"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
