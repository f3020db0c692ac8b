"""What one bot process knows about itself: platform connections, action metrics, the action log.

Adapters report their connection through `Platforms` (the composition code in bot/commands/
passes `telemetry.platforms.report` to them); `/healthz` and `/metrics` (bot/health.py) read it.
"""

from __future__ import annotations

import logging

from bot.instrument import ActionRecord, Outcome
from bot.metrics import Registry

action_log = logging.getLogger("shutbox.action")

STARTING, CONNECTED, DISCONNECTED = "starting", "connected", "disconnected"


class Platforms:
    """The platforms this process serves, and whether each is connected right now."""

    def __init__(self) -> None:
        self._states: dict[str, str] = {}

    def expect(self, platform: str) -> None:
        """This process serves `platform`: unhealthy until the adapter reports it connected."""
        self._states.setdefault(platform, STARTING)

    def report(self, platform: str, connected: bool) -> None:
        """What an adapter calls when its connection comes up or goes down."""
        self._states[platform] = CONNECTED if connected else DISCONNECTED

    def connected(self, platform: str) -> None:
        self.report(platform, True)

    def disconnected(self, platform: str) -> None:
        self.report(platform, False)

    @property
    def healthy(self) -> bool:
        return all(state == CONNECTED for state in self._states.values())

    def states(self) -> dict[str, str]:
        return dict(self._states)


class Telemetry:
    """The metrics registry of the process and the observer that feeds it."""

    def __init__(self) -> None:
        self.platforms = Platforms()
        self.registry = registry = Registry()
        self.actions = registry.counter(
            "shutbox_actions_total",
            "Commands and button presses handled, by action and outcome.",
            ("action", "outcome"),
        )
        self.errors = registry.counter(
            "shutbox_errors_total",
            "Commands that failed on our side (Redis, a game too busy, a bug), by error.",
            ("action", "error"),
        )
        self.latency = registry.histogram(
            "shutbox_action_seconds", "Time to handle one command, in seconds.", ("action",)
        )
        self.active_games = registry.gauge(
            "shutbox_active_games", "Games (lobbies and matches) in Redis, across every process."
        )
        self.cached_games = registry.gauge(
            "shutbox_cached_games", "Games this process holds in its cache."
        )
        self.redis_up = registry.gauge("shutbox_redis_up", "1 when Redis answered PING.")
        self.platform_up = registry.gauge(
            "shutbox_platform_connected", "1 while this process is connected.", ("platform",)
        )

    def observe(self, record: ActionRecord) -> None:
        """Count one handled command and time it (an `InstrumentedManager` observer)."""
        self.actions.inc(action=record.action, outcome=record.outcome.value)
        self.latency.observe(record.seconds, action=record.action)
        if record.outcome is Outcome.ERROR:
            self.errors.inc(action=record.action, error=record.error or "unknown")

    def refresh_platforms(self) -> None:
        for platform, state in self.platforms.states().items():
            self.platform_up.set(1 if state == CONNECTED else 0, platform=platform)


def log_action(record: ActionRecord) -> None:
    """One log line per handled command, with its request id (an `InstrumentedManager` observer)."""
    level = logging.WARNING if record.outcome is Outcome.ERROR else logging.INFO
    if not action_log.isEnabledFor(level):
        return
    server = f"{record.scope.platform}:{record.scope.server}"
    milliseconds = round(record.seconds * 1000, 2)
    action_log.log(
        level,
        "%s %s%s in %.2f ms request=%s server=%s channel=%s user=%s",
        record.action, record.outcome.value, f" ({record.error})" if record.error else "",
        milliseconds, record.request_id or "-", server, record.channel, record.user,
        extra={
            "action": record.action, "outcome": record.outcome.value, "error": record.error,
            "ms": milliseconds, "request_id": record.request_id, "server": server,
            "channel": record.channel, "user": record.user,
        },
    )  # fmt: skip
