"""Slack threads as the core's channels: a tournament table's match lives in a thread under
its line in the tournament's channel, and the core knows it as `<channel>/<thread_ts>`."""

from __future__ import annotations

THREAD_MARK = "/"  # never in a Slack channel id or a ts


def thread_channel(channel: str, thread_ts: str) -> str:
    return f"{channel}{THREAD_MARK}{thread_ts}"


def split(channel: str) -> tuple[str, str | None]:
    """The Slack channel and the thread's ts (None: the channel itself)."""
    base, _, thread = channel.partition(THREAD_MARK)
    return base, thread or None


def clicked_in(channel: str, message: dict[str, object]) -> str:
    """The core's channel of a clicked message: its thread's, when it sits in one."""
    thread, ts = message.get("thread_ts"), message.get("ts")
    return thread_channel(channel, str(thread)) if thread and thread != ts else channel
