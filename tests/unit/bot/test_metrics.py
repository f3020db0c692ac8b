"""bot/metrics.py, bot/telemetry.py: our families on prometheus-client beside its standard ones."""

from __future__ import annotations

import math

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.instrument import ActionRecord, Outcome
from bot.metrics import LATENCY_BUCKETS, Metrics
from bot.telemetry import Telemetry
from core.service.model.commit import Scope


def families(telemetry: Telemetry) -> dict[str, list[tuple[str, dict[str, str], float]]]:
    """The exposition parsed by prometheus-client's own parser: family -> samples."""
    text = generate_latest(telemetry.registry).decode()
    return {
        family.name: [(s.name, s.labels, s.value) for s in family.samples]
        for family in text_string_to_metric_families(text)
    }


def record(outcome: Outcome, seconds: float = 0.002, error: str = "") -> ActionRecord:
    return ActionRecord("click.roll", outcome, seconds, Scope("discord", "1"), "c", "u", "r", error)


def test_the_process_and_python_collectors_come_with_every_registry() -> None:
    """Dashboards look for process_* and python_* beside ours."""
    found = families(Telemetry())
    for name in ("process_resident_memory_bytes", "process_cpu_seconds", "process_open_fds",
                 "python_gc_objects_collected", "python_info", "shutbox_actions"):  # fmt: skip
        assert name in found, name


def test_each_registry_counts_on_its_own() -> None:
    """Two runtimes in one process never share a count (no global registry)."""
    first, second = Telemetry(), Telemetry()
    first.observe(record(Outcome.OK))
    labels = {"action": "click.roll", "outcome": "ok"}
    assert first.registry.get_sample_value("shutbox_actions_total", labels) == 1
    assert second.registry.get_sample_value("shutbox_actions_total", labels) is None


def test_an_action_is_counted_and_timed_by_outcome() -> None:
    """Each record adds one to its action and outcome, and one observation to the histogram."""
    telemetry = Telemetry()
    telemetry.observe(record(Outcome.OK, 0.002))
    telemetry.observe(record(Outcome.REFUSED, 0.0004))
    telemetry.observe(record(Outcome.ERROR, 0.3, "error.redis"))
    sample = telemetry.registry.get_sample_value
    ok = {"action": "click.roll", "outcome": "ok"}
    assert sample("shutbox_actions_total", ok) == 1
    assert sample("shutbox_action_seconds_bucket", {**ok, "le": "0.0025"}) == 1
    assert sample("shutbox_action_seconds_bucket", {**ok, "le": "0.001"}) == 0
    assert sample("shutbox_errors_total", {"action": "click.roll", "error": "error.redis"}) == 1
    refused = {"action": "click.roll", "outcome": "refused"}
    assert sample("shutbox_action_seconds_count", refused) == 1


def test_platform_gauges_follow_the_reports_and_the_gateway_latency() -> None:
    """1 while connected, 0 after a disconnect; a shard's latency once it is known."""
    telemetry = Telemetry()
    telemetry.platforms.expect("discord")
    telemetry.gateway_latencies = lambda: [(0, 0.042), (1, math.inf)]
    telemetry.refresh_platforms()
    sample = telemetry.registry.get_sample_value
    assert sample("shutbox_platform_connected", {"platform": "discord"}) == 0
    telemetry.platforms.connected("discord")
    telemetry.refresh_platforms()
    assert sample("shutbox_platform_connected", {"platform": "discord"}) == 1
    assert sample("shutbox_discord_gateway_latency_seconds", {"shard": "0"}) == 0.042
    assert sample("shutbox_discord_gateway_latency_seconds", {"shard": "1"}) is None


def test_slack_acks_land_in_their_histogram() -> None:
    """An acknowledgement past Slack's 3 s limit is told apart from a quick one."""
    telemetry = Telemetry()
    telemetry.observe_slack_ack(0.02)
    telemetry.observe_slack_ack(3.5)
    sample = telemetry.registry.get_sample_value
    assert sample("shutbox_slack_ack_seconds_bucket", {"le": "3.0"}) == 1
    assert sample("shutbox_slack_ack_seconds_count") == 2


def test_latency_buckets_reach_from_a_cache_hit_to_a_slow_redis() -> None:
    """Sub-millisecond and multi-second observations land in different buckets."""
    assert LATENCY_BUCKETS[0] < 0.001 and LATENCY_BUCKETS[-1] >= 1
    assert list(LATENCY_BUCKETS) == sorted(LATENCY_BUCKETS)
    metrics = Metrics()
    metrics.latency.labels(action="start", outcome="ok").observe(0.0002)
    metrics.latency.labels(action="start", outcome="ok").observe(2.0)
    sample = metrics.registry.get_sample_value
    labels = {"action": "start", "outcome": "ok"}
    assert sample("shutbox_action_seconds_bucket", {**labels, "le": "0.0005"}) == 1
    assert sample("shutbox_action_seconds_bucket", {**labels, "le": "1.0"}) == 1
    assert sample("shutbox_action_seconds_bucket", {**labels, "le": "2.5"}) == 2
