"""deploy/monitoring: the PodMonitor, the dashboard and the alerting rules ask for metrics the
bot really exports; the rules pass their promtool tests."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest
import yaml
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.health import METRICS_PATH
from bot.telemetry import Telemetry
from tests.unit.bot.deploy_files import (
    MONITORING,
    container,
    deployments,
)

SUFFIXES = ("_bucket", "_count", "_sum", "_total")  # of a family's samples


def exposed_families() -> set[str]:
    """Every metric family a bot process exposes (labelled ones once they have a series)."""
    telemetry = Telemetry()
    telemetry.platforms.expect("discord")
    telemetry.gateway_latencies = lambda: [(0, 0.05)]
    telemetry.refresh_platforms()
    metrics = telemetry.metrics
    metrics.actions.labels(action="start", outcome="ok").inc()
    metrics.errors.labels(action="start", error="error.redis").inc()
    metrics.latency.labels(action="start", outcome="ok").observe(0.001)
    text = generate_latest(telemetry.registry).decode()
    return {family.name for family in text_string_to_metric_families(text)}


def test_pod_monitor_scrapes_the_pods_health_port() -> None:
    """The PodMonitor selects the Deployments' pods and scrapes /metrics on their `health` port."""
    monitor = yaml.safe_load((MONITORING / "podmonitor.yaml").read_text(encoding="utf-8"))
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1" and monitor["kind"] == "PodMonitor"
    selector = monitor["spec"]["selector"]["matchLabels"]
    (endpoint,) = monitor["spec"]["podMetricsEndpoints"]
    assert endpoint["path"] == METRICS_PATH
    for doc in deployments():
        assert selector.items() <= doc["spec"]["template"]["metadata"]["labels"].items()
        assert endpoint["port"] in {port["name"] for port in container(doc)["ports"]}


def test_grafana_dashboard_asks_only_for_metrics_the_bot_exposes() -> None:
    """Every metric a panel queries is one /metrics serves (a renamed metric breaks this)."""
    dashboard = json.loads((MONITORING / "grafana-dashboard.json").read_text(encoding="utf-8"))
    expressions = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    queried = {name for expr in expressions
               for name in re.findall(r"\b((?:shutbox|process|python)_[a-z_]+)", expr)}  # fmt: skip
    families = exposed_families()
    for name in queried:
        base = next((name.removesuffix(s) for s in SUFFIXES if name.endswith(s)), name)
        assert name in families or base in families, name
    for wanted in ("shutbox_actions", "shutbox_action_seconds", "shutbox_sweep_lag_seconds",
                   "shutbox_redis_roundtrip_seconds", "shutbox_discord_gateway_latency_seconds",
                   "shutbox_slack_ack_seconds", "process_resident_memory_bytes"):  # fmt: skip
        assert any(name.startswith(wanted) for name in queried), wanted


# -- alerting rules --------------------------------------------------------------------------

ALERTS = ("ShutboxRedisDown", "ShutboxPlatformDisconnected", "ShutboxSweepLagging",
          "ShutboxErrorRatio", "ShutboxSlackAckSlow", "ShutboxActionsSlow",
          "ShutboxUnreadableRecord")  # fmt: skip
PROMTOOL = shutil.which("promtool")
NO_PROMTOOL = "promtool is not installed (Debian: apt-get install prometheus); .ci/run installs it"


def rule_groups() -> list[dict[str, Any]]:
    plain = yaml.safe_load((MONITORING / "alerts.rules.yaml").read_text(encoding="utf-8"))
    groups: list[dict[str, Any]] = plain["groups"]
    return groups


def rules() -> list[dict[str, Any]]:
    return [rule for group in rule_groups() for rule in group["rules"]]


def test_the_prometheus_rule_and_the_plain_rules_file_hold_the_same_rules() -> None:
    """alerts.yaml (the operator's PrometheusRule) and alerts.rules.yaml say the same."""
    resource = yaml.safe_load((MONITORING / "alerts.yaml").read_text(encoding="utf-8"))
    assert resource["apiVersion"] == "monitoring.coreos.com/v1"
    assert resource["kind"] == "PrometheusRule"
    assert resource["metadata"]["labels"]["app.kubernetes.io/name"] == "shutbox"
    assert resource["spec"]["groups"] == rule_groups()


def test_alerts_cover_each_duty_and_ask_for_metrics_the_bot_exposes() -> None:
    """Redis down, a platform disconnected, the sweep lagging, errors, slow answers: each rule
    queries only series /metrics serves, waits (`for`) before firing, and says what to do."""
    assert tuple(rule["alert"] for rule in rules()) == ALERTS
    families = exposed_families()
    for rule in rules():
        queried = set(re.findall(r"\b(shutbox_[a-z_]+)", rule["expr"]))
        assert queried, rule["alert"]
        for name in queried:
            base = next((name.removesuffix(s) for s in SUFFIXES if name.endswith(s)), name)
            assert name in families or base in families, (rule["alert"], name)
        assert rule["for"] and rule["labels"]["severity"] in ("critical", "warning")
        assert {"summary", "description"} <= rule["annotations"].keys()


def test_every_alert_has_a_promtool_test_that_fires_it_and_one_that_does_not() -> None:
    cases = yaml.safe_load((MONITORING / "alerts.test.yaml").read_text(encoding="utf-8"))
    assert cases["rule_files"] == ["alerts.rules.yaml"]
    checks = [check for test in cases["tests"] for check in test["alert_rule_test"]]
    for alert in ALERTS:
        expected = [check["exp_alerts"] for check in checks if check["alertname"] == alert]
        assert [] in expected and any(expected), alert


@pytest.mark.skipif(PROMTOOL is None, reason=NO_PROMTOOL)
def test_promtool_checks_the_rules_and_passes_their_tests() -> None:
    """`promtool check rules` on both files' rules, `promtool test rules` on the tests."""
    assert PROMTOOL is not None
    checked = subprocess.run(
        [PROMTOOL, "check", "rules", str(MONITORING / "alerts.rules.yaml")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {len(ALERTS)} rules found" in checked.stdout
    tested = subprocess.run(
        [PROMTOOL, "test", "rules", "alerts.test.yaml"], cwd=MONITORING,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "SUCCESS" in tested.stdout
