"""deploy/: the compose file, Kubernetes manifests, Dockerfile and systemd unit match the code.

Docker and Kubernetes are not needed: the files are parsed and checked against the settings the
code reads, the CLI's real subcommands and the health server's route.
"""

from __future__ import annotations

import configparser
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from pydantic_settings import BaseSettings

import bot.settings
from bot.cli import COMMANDS, build_parser
from bot.health import HEALTH_PATH, METRICS_PATH
from bot.settings import CoreSettings

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"


def settings_the_code_reads() -> set[str]:
    """PREFIX_FIELD for every field of every settings class in bot/settings.py."""
    classes = [
        value for value in vars(bot.settings).values()
        if isinstance(value, type) and issubclass(value, BaseSettings) and value is not BaseSettings
    ]  # fmt: skip
    assert len(classes) >= 4
    return {
        f"{cls.model_config.get('env_prefix', '')}{name}".upper()
        for cls in classes
        for name in cls.model_fields
    }


def env_example_names() -> set[str]:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    return {line.split("=", 1)[0] for line in lines if re.match(r"^[A-Z][A-Z0-9_]*=", line)}


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    return loaded


def k8s_documents() -> Iterator[dict[str, Any]]:
    for path in sorted(K8S.glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if document:
                yield document


def deployments() -> list[dict[str, Any]]:
    return [doc for doc in k8s_documents() if doc["kind"] == "Deployment"]


def container(deployment: dict[str, Any]) -> dict[str, Any]:
    containers: list[dict[str, Any]] = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def assert_real_command(argv: list[str]) -> None:
    """The command line is one the `shutbox` CLI accepts, for one of its subcommands."""
    assert argv[0] in COMMANDS
    build_parser().parse_args(argv)  # argparse exits on an unknown option


def bot_services() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in compose()["services"].items() if name != "redis"}


# -- settings --------------------------------------------------------------------------------


def test_env_example_lists_exactly_the_settings_the_code_reads() -> None:
    """.env.example has a line for every setting, and none the code no longer reads."""
    assert env_example_names() == settings_the_code_reads()


def test_compose_file_names_every_setting() -> None:
    """The compose file's settings list is exactly the settings the code reads."""
    names = compose()["x-settings"]
    assert len(names) == len(set(names))
    assert set(names) == settings_the_code_reads()


def test_compose_bots_read_env_file_and_pin_only_real_settings() -> None:
    """Every bot service takes `.env` and sets only variables the code reads (typos would not)."""
    for name, service in bot_services().items():
        env_file = service["env_file"]
        files = [env_file] if isinstance(env_file, str) else env_file
        assert "../.env" in files, name
        assert set(service["environment"]) <= settings_the_code_reads(), name
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"


def test_k8s_config_and_secrets_hold_only_real_settings() -> None:
    """ConfigMap and Secret keys are setting names, so pods pick them up as settings."""
    for doc in k8s_documents():
        if doc["kind"] in ("ConfigMap", "Secret"):
            keys = set(doc.get("data") or {}) | set(doc.get("stringData") or {})
            assert keys and keys <= settings_the_code_reads(), doc["metadata"]["name"]


# -- compose ---------------------------------------------------------------------------------


def test_compose_runs_discord_and_slack_with_real_subcommands() -> None:
    """One service runs `shutbox discord`, one `shutbox slack --port 3000` publishing port 3000."""
    services = bot_services()
    commands = {name: service["command"] for name, service in services.items()}
    for argv in commands.values():
        assert_real_command(argv)
    assert commands["discord"] == ["discord"]
    assert commands["slack"] == ["slack", "--port", "3000"]
    assert "3000:3000" in services["slack"]["ports"]
    for service in services.values():
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_compose_redis_keeps_its_data_with_aof() -> None:
    """Redis 7 reads deploy/redis.conf and keeps its files on a named volume."""
    file = compose()
    redis = file["services"]["redis"]
    assert redis["image"].startswith("redis:7")
    conf_mount = next(v for v in redis["volumes"] if v.startswith("./redis.conf:"))
    assert conf_mount.split(":")[1] in redis["command"]
    data_volume = next(v for v in redis["volumes"] if v.endswith(":/data"))
    assert data_volume.split(":")[0] in file["volumes"]


def test_redis_conf_turns_on_aof_and_never_evicts() -> None:
    """deploy/redis.conf: appendonly yes, fsync every second, no eviction."""
    lines = (DEPLOY / "redis.conf").read_text(encoding="utf-8").splitlines()
    directives = {line.split()[0]: line.split()[1:] for line in lines if line and line[0] != "#"}
    assert directives["appendonly"] == ["yes"]
    assert directives["appendfsync"] == ["everysec"]
    assert directives["maxmemory-policy"] == ["noeviction"]


# -- Kubernetes ------------------------------------------------------------------------------


def test_k8s_deployments_run_real_subcommands() -> None:
    """The Discord and Slack Deployments run `shutbox discord` and `shutbox slack`."""
    args = {doc["metadata"]["name"]: container(doc)["args"] for doc in deployments()}
    for argv in args.values():
        assert_real_command(argv)
    assert args["shutbox-discord"] == ["discord"]
    assert args["shutbox-slack"][0] == "slack"


def test_k8s_probes_ask_the_health_route_on_the_health_port() -> None:
    """Liveness and readiness probes hit /healthz on the port the bot serves it on."""
    config = next(doc for doc in k8s_documents() if doc["kind"] == "ConfigMap")
    health_port = int(config["data"].get("SHUTBOX_HEALTH_PORT", CoreSettings().health_port))
    for doc in deployments():
        spec = container(doc)
        ports = {port["name"]: port["containerPort"] for port in spec["ports"]}
        for probe in ("livenessProbe", "readinessProbe"):
            get = spec[probe]["httpGet"]
            assert get["path"] == HEALTH_PATH
            assert ports[get["port"]] == health_port
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


# -- Dockerfile and systemd ------------------------------------------------------------------


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with line continuations joined."""
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    pairs = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            instruction, _, rest = line.strip().partition(" ")
            pairs.append((instruction.upper(), rest.strip()))
    return pairs


def test_dockerfile_runs_shutbox_as_a_non_root_user_on_slim_python() -> None:
    """python:3.11-slim, pip-installed package, a non-root USER, entrypoint `shutbox`."""
    instructions = dockerfile_instructions()
    images = [args.split()[0] for name, args in instructions if name == "FROM"]
    assert images and all(image == "python:3.11-slim" for image in images)
    assert any(name == "RUN" and "pip install" in args for name, args in instructions)
    users = [args for name, args in instructions if name == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("ENTRYPOINT", '["shutbox"]') in instructions
    cmd = next(args for name, args in instructions if name == "CMD")
    assert_real_command(yaml.safe_load(cmd))


def test_dockerfile_healthcheck_asks_the_health_route() -> None:
    """HEALTHCHECK requests the path the health server serves."""
    healthcheck = next(args for name, args in dockerfile_instructions() if name == "HEALTHCHECK")
    assert f"/{HEALTH_PATH.lstrip('/')}'" in healthcheck
    assert "SHUTBOX_HEALTH_PORT" in healthcheck


def systemd_unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY / "shutbox.service", encoding="utf-8")
    return parser


def test_systemd_unit_runs_shutbox_run_from_a_venv_with_an_environment_file() -> None:
    """ExecStart is the venv's `shutbox run`; settings come from EnvironmentFile."""
    service = systemd_unit()["Service"]
    argv = shlex.split(service["ExecStart"])
    assert argv[0].endswith("/.venv/bin/shutbox")
    assert_real_command(argv[1:])
    assert argv[1:] == ["run"]
    assert service["EnvironmentFile"].startswith("/")
    assert service["User"] not in ("root", "0")


def test_systemd_unit_sets_only_real_settings() -> None:
    """The unit's own Environment= lines name settings the code reads."""
    lines = (DEPLOY / "shutbox.service").read_text(encoding="utf-8").splitlines()
    names = {line.split("=", 2)[1] for line in lines if line.startswith("Environment=")}
    assert names and names <= settings_the_code_reads()


def test_deploy_guide_walks_through_each_way_to_run() -> None:
    """The README's deploy guide covers compose, Kubernetes and systemd, and the endpoints."""
    guide = (DEPLOY.parent / "README.md").read_text(encoding="utf-8")
    for needle in ("compose.yaml", "deploy/k8s", "shutbox.service", HEALTH_PATH, METRICS_PATH):
        assert needle in guide
