"""An exclusive lock on a file (an flock): the kernel frees it when its holder dies, however it
dies, so a crashed process never leaves it taken."""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO


class FileLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[bytes] | None = None  # open while this process holds the lock

    def take(self) -> bool:
        """Take the lock; False at once when another process holds it."""
        handle = self.path.open("ab")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        self._handle = handle
        return True

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.close()  # closing the file frees the flock
