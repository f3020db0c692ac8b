"""deploy/k8s: the manifests run real subcommands, probe the real routes, and are sound
Kubernetes (the API's own JSON schemas, offline) with the safety an operator expects."""

from __future__ import annotations

import copy
import re
from typing import Any

import kubernetes_validate
import pytest
import yaml

from bot.health import LIVE_PATH, METRICS_PATH, PING_TIMEOUT, READY_PATH
from bot.settings import CoreSettings
from tests.unit.bot.deploy_files import (
    K8S,
    assert_real_command,
    container,
    deployments,
    k8s_documents,
)


def test_k8s_deployments_run_real_subcommands() -> None:
    """The Discord and Slack Deployments run `shutbox discord` and `shutbox slack`."""
    args = {doc["metadata"]["name"]: container(doc)["args"] for doc in deployments()}
    for argv in args.values():
        assert_real_command(argv)
    assert args["shutbox-discord"] == ["discord"]
    assert args["shutbox-slack"][0] == "slack"


def test_k8s_probes_ask_liveness_and_readiness_on_the_health_port() -> None:
    """Startup and liveness ask /livez (a Redis outage never restarts a pod), readiness asks
    /readyz, all on the port the bot serves them on; no fixed initial delay."""
    config = next(doc for doc in k8s_documents() if doc["kind"] == "ConfigMap")
    health_port = int(config["data"].get("SHUTBOX_HEALTH_PORT", CoreSettings().health_port))
    assert config["data"]["SHUTBOX_HEALTH_HOST"] == "0.0.0.0"
    routes = {"startupProbe": LIVE_PATH, "livenessProbe": LIVE_PATH, "readinessProbe": READY_PATH}
    for doc in deployments():
        spec = container(doc)
        ports = {port["name"]: port["containerPort"] for port in spec["ports"]}
        for probe, path in routes.items():
            get = spec[probe]["httpGet"]
            assert get["path"] == path, (doc["metadata"]["name"], probe)
            assert ports[get["port"]] == health_port
            assert "initialDelaySeconds" not in spec[probe]
        startup = spec["startupProbe"]
        assert startup["periodSeconds"] * startup["failureThreshold"] >= 60
        annotations = doc["spec"]["template"]["metadata"]["annotations"]
        assert annotations["prometheus.io/path"] == METRICS_PATH


def test_k8s_takes_redis_url_from_a_secret() -> None:
    """REDIS_URL comes from a Secret in every Deployment."""
    for doc in deployments():
        env = {item["name"]: item for item in container(doc)["env"]}
        assert "secretKeyRef" in env["REDIS_URL"]["valueFrom"]


def test_k8s_service_reaches_the_slack_http_port() -> None:
    """The Service selects the Slack pods and targets the public listener's port; the operator
    listener (probes, /metrics) is another port, which no Service publishes."""
    service = next(doc for doc in k8s_documents() if doc["kind"] == "Service")
    slack = next(doc for doc in deployments() if doc["metadata"]["name"] == "shutbox-slack")
    labels = slack["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    spec = container(slack)
    ports = {port["name"]: port["containerPort"] for port in spec["ports"]}
    target = service["spec"]["ports"][0]["targetPort"]
    config = next(doc for doc in k8s_documents() if doc["kind"] == "ConfigMap")["data"]
    assert str(ports[target]) == config["SHUTBOX_PUBLIC_PORT"]
    assert config["SHUTBOX_PUBLIC_PORT"] != config["SHUTBOX_HEALTH_PORT"]
    assert ports["health"] != ports[target]


def test_discord_runs_one_replica_and_never_two_at_once() -> None:
    """Two copies of one shard set would answer every interaction twice."""
    discord = next(doc for doc in deployments() if doc["metadata"]["name"] == "shutbox-discord")
    assert discord["spec"]["replicas"] == 1
    assert discord["spec"]["strategy"]["type"] == "Recreate"


def test_kustomization_lists_existing_files() -> None:
    """`kubectl apply -k deploy/k8s` finds every resource it names."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))
    for resource in kustomization["resources"]:
        assert (K8S / resource).is_file(), resource


# -- the Kubernetes API's schemas, and what an operator expects of a workload ----------------

# The oldest Kubernetes release the manifests are held to, and the newest the schemas know.
OLDEST_KUBERNETES = "1.27.0"


def resources() -> list[dict[str, Any]]:
    """Every Kubernetes object in deploy/k8s (the Kustomization is kustomize's, not the API's)."""
    return [doc for doc in k8s_documents() if doc["kind"] != "Kustomization"]


def test_manifests_are_valid_kubernetes_objects() -> None:
    """Each object validates, strictly (no unknown field), against the API's JSON schemas of the
    oldest and the newest release: offline, from the kubernetes-validate package."""
    kinds = {doc["kind"] for doc in resources()}
    assert {"Deployment", "Service", "ConfigMap", "Secret", "PodDisruptionBudget",
            "NetworkPolicy"} <= kinds  # fmt: skip
    for version in (OLDEST_KUBERNETES, kubernetes_validate.latest_version()):
        for doc in resources():
            kubernetes_validate.validate(doc, version, strict=True)


def test_a_misspelt_field_fails_the_schema_check() -> None:
    """The check can fail: a probe's `timeoutSecond` (one letter short) is refused."""
    discord = copy.deepcopy(next(d for d in deployments() if d["metadata"]["name"].endswith("d")))
    container(discord)["readinessProbe"]["timeoutSecond"] = 3
    with pytest.raises(kubernetes_validate.ValidationError, match="timeoutSecond"):
        kubernetes_validate.validate(discord, kubernetes_validate.latest_version(), strict=True)


def test_pods_carry_no_service_account_token_and_a_bounded_tmp() -> None:
    """The bot never calls the Kubernetes API; its scratch space cannot fill the node's disk."""
    for doc in deployments():
        pod = doc["spec"]["template"]["spec"]
        assert pod["automountServiceAccountToken"] is False, doc["metadata"]["name"]
        for volume in pod["volumes"]:
            if "emptyDir" in volume:
                assert re.fullmatch(r"\d+(Mi|Gi)", volume["emptyDir"]["sizeLimit"]), volume


def test_probes_wait_longer_than_readyz_waits_for_redis() -> None:
    """/readyz waits up to PING_TIMEOUT for Redis: a shorter probe timeout would call a slow
    but answering Redis a failure. Every probe says its timeout, within its period."""
    for doc in deployments():
        spec = container(doc)
        assert spec["readinessProbe"]["timeoutSeconds"] > PING_TIMEOUT
        for name in ("startupProbe", "livenessProbe", "readinessProbe"):
            probe = spec[name]
            assert 1 <= probe["timeoutSeconds"] <= probe["periodSeconds"], (name, probe)


def test_a_drain_keeps_a_slack_pod_answering() -> None:
    """The PodDisruptionBudget selects the Slack pods and keeps one, fewer than the replicas
    (else no node could ever be drained)."""
    budget = next(doc for doc in resources() if doc["kind"] == "PodDisruptionBudget")
    slack = next(doc for doc in deployments() if doc["metadata"]["name"] == "shutbox-slack")
    labels = slack["spec"]["template"]["metadata"]["labels"]
    assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert 1 <= budget["spec"]["minAvailable"] < slack["spec"]["replicas"]


def _selects(policy: dict[str, Any], labels: dict[str, str]) -> bool:
    return bool(policy["spec"]["podSelector"]["matchLabels"].items() <= labels.items())


def test_network_policies_open_only_the_ports_the_bots_use() -> None:
    """Every bot pod is covered; in: the health port (from Prometheus' namespace) and Slack's
    HTTP port; out: DNS, Redis, Sentinel and HTTPS, nothing else."""
    policies = [doc for doc in resources() if doc["kind"] == "NetworkPolicy"]
    for doc in deployments():
        labels = doc["spec"]["template"]["metadata"]["labels"]
        covering = [p for p in policies if _selects(p, labels)]
        assert any(set(p["spec"]["policyTypes"]) == {"Ingress", "Egress"} for p in covering)
        names = {port["name"] for port in container(doc)["ports"]}
        opened = {port["port"] for p in covering for rule in p["spec"].get("ingress", [])
                  for port in rule["ports"]}  # fmt: skip
        assert opened == names, doc["metadata"]["name"]  # health; and http on Slack's pods
    health = next(rule for p in policies for rule in p["spec"].get("ingress", [])
                  if rule["ports"][0]["port"] == "health")  # fmt: skip
    assert health["from"], "the health port is not open to every pod of the cluster"
    egress = {port["port"] for p in policies for rule in p["spec"].get("egress", [])
              for port in rule["ports"]}  # fmt: skip
    assert egress == {53, 443, 6379, 6380, 26379}
