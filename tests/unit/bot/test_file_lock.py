"""The owner lock of a data directory: one holder at a time, free again once released."""

from __future__ import annotations

from pathlib import Path

from bot.file_lock import FileLock


def test_one_holder_at_a_time(tmp_path: Path) -> None:
    first, second = FileLock(tmp_path / "owner.lock"), FileLock(tmp_path / "owner.lock")
    assert first.take()
    assert not second.take()
    first.release()
    assert second.take()
    second.release()


def test_releasing_a_lock_not_held_does_nothing(tmp_path: Path) -> None:
    FileLock(tmp_path / "owner.lock").release()
