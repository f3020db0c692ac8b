"""The metric families of one bot process, on a prometheus-client registry of their own.

Besides ours, the registry carries prometheus-client's standard collectors (`process_*`,
`python_gc_*`, `python_info`), which operators' dashboards and alerts expect. Each `Metrics` has
its own registry (not the library's global one), so two runtimes in one test never share counts.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)

from core.service.model.unreadable import Kind

# Seconds, from a cache hit (well under a millisecond) to a Redis in trouble.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# Slack retries a request that is not answered within 3 s: the buckets straddle that.
ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)


def package_version() -> str:
    """The installed shutbox package's version (`unknown` when run from a bare source tree)."""
    try:
        return version("shutbox")
    except PackageNotFoundError:
        return "unknown"


def standard_registry() -> CollectorRegistry:
    """A registry with the process, platform and garbage-collector collectors."""
    registry = CollectorRegistry(auto_describe=True)
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)  # registers itself only where CPython's gc stats exist
    return registry


class Metrics:
    """Our metric families; names and labels are part of the operators' dashboards."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry = registry or standard_registry()
        self.actions = Counter(
            "shutbox_actions",
            "Commands and button presses handled, by action and outcome.",
            ("action", "outcome"), registry=registry,
        )  # fmt: skip
        self.errors = Counter(
            "shutbox_errors",
            "Commands that failed on our side (Redis, a game too busy, a bug), by error.",
            ("action", "error"), registry=registry,
        )  # fmt: skip
        self.delivery_failures = Counter(
            "shutbox_delivery_failures",
            "Platform calls that still failed after their retries (the game message then "
            "catches up later), by platform, call and reason.",
            ("platform", "call", "reason"), registry=registry,
        )  # fmt: skip
        self.latency = Histogram(
            "shutbox_action_seconds", "Time to handle one command, in seconds.",
            ("action", "outcome"), buckets=LATENCY_BUCKETS, registry=registry,
        )  # fmt: skip
        self.active_games = Gauge(
            "shutbox_active_games",
            "Games (lobbies and matches) in Redis, across every process.", registry=registry,
        )  # fmt: skip
        self.cached_games = Gauge(
            "shutbox_cached_games", "Games this process holds in its cache.", registry=registry
        )
        self.rate_limited = Counter(
            "shutbox_rate_limited",
            "Commands refused because a member went past a rate limit, by limit "
            "(commands, games).", ("limit",), registry=registry,
        )  # fmt: skip
        self.unreadable = Counter(
            "shutbox_unreadable_records",
            "Stored records found unreadable (a game, a balance, a setting, a stats counter, a "
            "challenge result or streak, a tournament table's result), each counted once "
            "per process; that one game, member or setting is set aside, the rest goes on.",
            ("kind",), registry=registry,
        )  # fmt: skip
        for kind in Kind:  # at 0 from the start, so an alert's increase() sees the first one
            self.unreadable.labels(kind=kind.value)
        self.redis_up = Gauge("shutbox_redis_up", "1 when Redis answered PING.", registry=registry)
        self.redis_gauges_age = Gauge(
            "shutbox_redis_gauges_age_seconds",
            "Seconds since the gauges read from Redis (active games, sweep lag) were refreshed.",
            registry=registry,
        )  # fmt: skip
        self.redis_latency = Histogram(
            "shutbox_redis_roundtrip_seconds", "Time for Redis to answer a PING, in seconds.",
            buckets=LATENCY_BUCKETS, registry=registry,
        )  # fmt: skip
        self.sweep_lag = Gauge(
            "shutbox_sweep_lag_seconds",
            "Now minus the oldest deadline that has passed and is not applied yet (0: none).",
            registry=registry,
        )  # fmt: skip
        self.platform_up = Gauge(
            "shutbox_platform_connected", "1 while this process is connected.", ("platform",),
            registry=registry,
        )  # fmt: skip
        self.gateway_latency = Gauge(
            "shutbox_discord_gateway_latency_seconds",
            "Time between a Discord gateway heartbeat and its acknowledgement, per shard.",
            ("shard",), registry=registry,
        )  # fmt: skip
        self.slack_ack = Histogram(
            "shutbox_slack_ack_seconds",
            "Time from a Slack request arriving to its acknowledgement (HTTP mode), in seconds.",
            buckets=ACK_BUCKETS, registry=registry,
        )  # fmt: skip
        self.build_info = Gauge(
            "shutbox_build_info", "1, labelled with the version of shutbox this process runs.",
            ("version",), registry=registry,
        )  # fmt: skip
        self.build_info.labels(version=package_version()).set(1)
        self.redis_memory = Gauge(
            "shutbox_redis_used_memory_bytes",
            "Memory Redis uses (INFO used_memory; summed over a cluster's masters).",
            registry=registry,
        )  # fmt: skip
