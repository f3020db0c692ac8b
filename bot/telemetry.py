"""What one bot process knows about itself: platform connections, action metrics, the action log.

Adapters report their connection through `Platforms` (the composition code in bot/commands/
passes `telemetry.platforms.report` to them); `/readyz` and `/metrics` (bot/health.py) read it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable

from cachetools import LRUCache
from prometheus_client import Counter, Histogram

from bot.instrument import ActionRecord, Outcome
from bot.metrics import Metrics
from core.service.model.commit import Scope
from core.service.model.unreadable import HINTS, Unreadable

action_log = logging.getLogger("shutbox.action")
log = logging.getLogger("shutbox")
# Distinct unreadable records remembered per process, the most recently met: a bot on 100,000
# servers keeps no more than this. One forgotten and met again is counted and logged again,
# which only a store with more damaged records than this would see.
UNREADABLE_REMEMBERED = 10_000

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


# The refusals of core/service/pipeline/rate_limit.py, by the limit they name (a metric label).
RATE_LIMITS = {"error.rate_limit": "commands", "error.rate_limit.games": "games"}


class Telemetry:
    """The metrics of the process and the observers that feed them."""

    def __init__(self, unreadable_remembered: int = UNREADABLE_REMEMBERED) -> None:
        self.platforms = Platforms()
        self.metrics = Metrics()
        self.registry = self.metrics.registry
        # Set by the Discord command: (shard id, seconds) per shard, read at each scrape.
        self.gateway_latencies: Callable[[], Iterable[tuple[int, float]]] = tuple
        # The records already counted and logged (the value is unused: an LRU set).
        self._unreadable: LRUCache[str, bool] = LRUCache(unreadable_remembered)
        # Each (action, outcome)'s counter and histogram, looked up once rather than on every
        # click (`labels()` costs a lock and a dict per metric); the actions are a fixed set
        # (bot/instrument.py names them), so this stays a few dozen pairs.
        self._bound: dict[tuple[str, str], tuple[Counter, Histogram]] = {}

    def delivery_failed(self, platform: str) -> Callable[[str, str], None]:
        """What an adapter calls for a platform call that failed after its retries."""

        def report(call: str, reason: str) -> None:
            self.metrics.delivery_failures.labels(platform, call, reason).inc()

        return report

    def observe(self, record: ActionRecord) -> None:
        """Count one handled command and time it (an `Instrument` observer)."""
        metrics, outcome = self.metrics, record.outcome.value
        bound = self._bound.get((record.action, outcome))
        if bound is None:
            bound = self._bound[record.action, outcome] = (
                metrics.actions.labels(action=record.action, outcome=outcome),
                metrics.latency.labels(action=record.action, outcome=outcome),
            )
        bound[0].inc()
        bound[1].observe(record.seconds)
        if record.outcome is Outcome.ERROR:
            metrics.errors.labels(action=record.action, error=record.error or "unknown").inc()
        if record.error in RATE_LIMITS:
            metrics.rate_limited.labels(limit=RATE_LIMITS[record.error]).inc()

    def unreadable(self, scope: Scope, error: Unreadable) -> None:
        """A record the manager could not read: counted and logged the first time this
        process meets it, not on every sweep or command that meets it again."""
        record = f"{scope.tag}:{error.record}"
        if self._unreadable.get(record):  # a hit also keeps it among the most recent
            return
        self._unreadable[record] = True
        self.metrics.unreadable.labels(kind=error.kind.value).inc()
        log.warning(
            "unreadable %s record %s (%s); set aside, everything else goes on; %s",
            error.kind.value, record, error.problem, HINTS[error.kind],
            extra={"server": f"{scope.platform}:{scope.server}", "record": record,
                   "kind": error.kind.value},
        )  # fmt: skip

    @property
    def unreadable_remembered(self) -> int:
        """How many unreadable records this process remembers having counted."""
        return len(self._unreadable)

    def observe_slack_ack(self, seconds: float) -> None:
        self.metrics.slack_ack.observe(seconds)

    def refresh_platforms(self) -> None:
        """Set the per-platform gauges from what the adapters reported."""
        for platform, state in self.platforms.states().items():
            self.metrics.platform_up.labels(platform=platform).set(state == CONNECTED)
        for shard, seconds in self.gateway_latencies():
            # discord.py says inf (or nan) until a shard's first heartbeat is acknowledged.
            if math.isfinite(seconds):
                self.metrics.gateway_latency.labels(shard=str(shard)).set(seconds)


def log_action(record: ActionRecord) -> None:
    """One log line per handled command, with its request id (an `Instrument` observer)."""
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
