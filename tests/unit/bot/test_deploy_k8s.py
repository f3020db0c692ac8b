"""deploy/k8s: the manifests run real subcommands, probe the real routes, and are sound
Kubernetes (the API's own JSON schemas, offline) with the safety an operator expects."""

from __future__ import annotations

import yaml

from bot.health import LIVE_PATH, METRICS_PATH, READY_PATH
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
    """The Service selects the Slack pods and targets the port `--port` opens."""
    service = next(doc for doc in k8s_documents() if doc["kind"] == "Service")
    slack = next(doc for doc in deployments() if doc["metadata"]["name"] == "shutbox-slack")
    labels = slack["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    spec = container(slack)
    ports = {port["name"]: port["containerPort"] for port in spec["ports"]}
    target = service["spec"]["ports"][0]["targetPort"]
    assert str(ports[target]) == spec["args"][spec["args"].index("--port") + 1]


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
