"""deploy/: the compose file, Dockerfile and systemd unit match the code (the Kubernetes
manifests: test_deploy_k8s.py; monitoring: test_deploy_monitoring.py).

Docker and Kubernetes are not needed: the files are parsed and checked against the settings the
code reads, the CLI's real subcommands and the health server's route.
"""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from typing import Any

import pytest
import yaml

from bot.health import HEALTH_PATH, LIVE_PATH, METRICS_PATH, READY_PATH
from bot.settings import CoreSettings
from tests.unit.bot.deploy_files import (
    DEPLOY,
    ROOT,
    assert_real_command,
    compose,
    env_example_names,
    k8s_documents,
    settings_the_code_reads,
)

MAX_SYSTEMD_EXPOSURE = 2.5


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
    """One service runs `shutbox discord`, one `shutbox slack`; each publishes its public
    listener (SHUTBOX_PUBLIC_PORT) and never the operator listener (SHUTBOX_HEALTH_PORT)."""
    services = bot_services()
    commands = {name: service["command"] for name, service in services.items()}
    for argv in commands.values():
        assert_real_command(argv)
    assert commands["discord"] == ["discord"]
    assert commands["slack"] == ["slack"]
    assert "3000:3000" in services["slack"]["ports"]
    for service in services.values():
        public, operator = (service["environment"][f"SHUTBOX_{name}_PORT"]
                            for name in ("PUBLIC", "HEALTH"))  # fmt: skip
        published = [mapping.rsplit(":", 1)[1] for mapping in service["ports"]]
        assert published == [public] and operator not in published
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_compose_bots_check_liveness_not_readiness() -> None:
    """A bot's healthcheck asks /livez on the health port: Redis down must not mark it sick."""
    for name, service in bot_services().items():
        command = " ".join(service["healthcheck"]["test"])
        port = service["environment"]["SHUTBOX_HEALTH_PORT"]
        assert f"127.0.0.1:{port}{LIVE_PATH}'" in command, name
        assert service["environment"]["SHUTBOX_HEALTH_HOST"] == "0.0.0.0"


def test_compose_redis_keeps_its_data_with_aof() -> None:
    """Redis 7, one exact release, reads deploy/redis.conf and keeps its files on a volume."""
    file = compose()
    redis = file["services"]["redis"]
    assert re.fullmatch(r"redis:7\.\d+\.\d+-alpine(@sha256:[0-9a-f]{64})?", redis["image"])
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


def test_redis_has_a_memory_ceiling_below_its_containers_limit() -> None:
    """maxmemory is set, and leaves room under the compose limit for a fork's copy-on-write."""
    lines = (DEPLOY / "redis.conf").read_text(encoding="utf-8").splitlines()
    directives = {line.split()[0]: line.split()[1:] for line in lines if line and line[0] != "#"}
    ceiling = _bytes(directives["maxmemory"][0])
    limit = _bytes(compose()["services"]["redis"]["deploy"]["resources"]["limits"]["memory"])
    assert 0.5 * limit <= ceiling <= 0.8 * limit


def _bytes(size: str) -> int:
    """`768mb`, `1g`, `1gb` as Redis and Compose read them (powers of 1024)."""
    found = re.fullmatch(r"(\d+)([kmg])b?", size.lower())
    assert found, size
    return int(found.group(1)) * 1024 ** "kmg".index(found.group(2)) * 1024


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
    """One exact slim Python release, by tag and digest, for both stages, the pinned
    dependencies installed by pip, a non-root USER, entrypoint `shutbox`."""
    instructions = dockerfile_instructions()
    arg = next(args for name, args in instructions if name == "ARG")
    assert re.fullmatch(r"PYTHON_IMAGE=python:3\.11\.\d+-slim-\w+@sha256:[0-9a-f]{64}", arg)
    images = [args.split()[0] for name, args in instructions if name == "FROM"]
    assert images == ["${PYTHON_IMAGE}", "${PYTHON_IMAGE}"]
    build = next(args for name, args in instructions if name == "RUN" and "pip wheel" in args)
    assert "--constraint constraints.txt" in build
    assert any(name == "RUN" and "pip install" in args for name, args in instructions)
    users = [args for name, args in instructions if name == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("ENTRYPOINT", '["shutbox"]') in instructions
    cmd = next(args for name, args in instructions if name == "CMD")
    assert_real_command(yaml.safe_load(cmd))


def test_dockerfile_build_context_holds_what_the_build_copies() -> None:
    """The dockerignore lets through the files the build stage copies (LICENSE: the wheel)."""
    allowed = (DEPLOY / "Dockerfile.dockerignore").read_text(encoding="utf-8").splitlines()
    copied = [
        args for name, args in dockerfile_instructions() if name == "COPY" and "--from" not in args
    ]
    for args in copied:
        for source in args.split()[:-1]:
            assert f"!{source}" in allowed, source
            assert (ROOT / source).exists(), source


def test_dockerfile_healthcheck_asks_liveness() -> None:
    """HEALTHCHECK requests /livez on SHUTBOX_HEALTH_PORT; the image opens it to the network."""
    instructions = dockerfile_instructions()
    healthcheck = next(args for name, args in instructions if name == "HEALTHCHECK")
    assert f"/{LIVE_PATH.lstrip('/')}'" in healthcheck
    assert "SHUTBOX_HEALTH_PORT" in healthcheck
    env = " ".join(args for name, args in instructions if name == "ENV")
    assert "SHUTBOX_HEALTH_HOST=0.0.0.0" in env


def test_ci_installs_the_pinned_versions() -> None:
    """.ci/run installs with constraints.txt, which pins every dependency with ==."""
    assert "-c constraints.txt" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    pins = [line for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith(("#", " "))]  # fmt: skip
    assert pins and all(re.fullmatch(r"[a-z0-9._-]+==[\w.+]+", pin) for pin in pins)


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


def test_systemd_unit_sets_nothing_the_environment_file_would_override() -> None:
    """systemd lets EnvironmentFile= win over Environment=: the unit sets no setting itself."""
    lines = (DEPLOY / "shutbox.service").read_text(encoding="utf-8").splitlines()
    assert not [line for line in lines if line.startswith("Environment=")]


def test_the_copied_env_example_keeps_probes_on_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """/etc/shutbox/shutbox.env is a copy of .env.example: loaded, it keeps 127.0.0.1."""
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        if re.match(r"^[A-Z][A-Z0-9_]*=", line):
            name, _, value = line.partition("=")
            monkeypatch.setenv(name, value)
    assert CoreSettings().health_host == "127.0.0.1"


def test_systemd_unit_header_points_at_files_that_exist() -> None:
    """Every repository file the unit's comments name is there."""
    lines = (DEPLOY / "shutbox.service").read_text(encoding="utf-8").splitlines()
    comments = "\n".join(line for line in lines if line.startswith("#"))
    named = re.findall(r"(?<![\w/.])(\.?[\w-]+(?:/[\w.-]+)*\.(?:md|service|example))", comments)
    assert named
    for path in named:
        assert (ROOT / path).exists() or (DEPLOY / path).exists(), path


def test_systemd_unit_is_locked_down() -> None:
    """No capabilities, IP and unix sockets only, a system call allow list, a private umask."""
    service = systemd_unit()["Service"]
    assert service["CapabilityBoundingSet"] == ""
    assert service["RestrictAddressFamilies"].split() == ["AF_INET", "AF_INET6", "AF_UNIX"]
    assert service["SystemCallFilter"]  # the last of the two lines: what is taken away
    assert service["UMask"] == "0077"
    for directive in ("ProtectClock", "ProtectKernelLogs", "NoNewPrivileges", "PrivateTmp"):
        assert service[directive] == "yes", directive


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_analyze_rates_the_unit_at_most_2_5() -> None:
    """`systemd-analyze security` (offline, on the file) scores the unit's exposure <= 2.5."""
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(DEPLOY / "shutbox.service")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    found = re.search(r"Overall exposure level for shutbox.service: (\d+\.\d+)", done.stdout)
    if found is None:
        pytest.skip(f"this systemd-analyze cannot rate a unit file: {done.stderr.strip()[:200]}")
    assert float(found.group(1)) <= MAX_SYSTEMD_EXPOSURE


def test_deploy_guide_walks_through_each_way_to_run() -> None:
    """The deploy guide (docs/operate/) covers compose, Kubernetes, systemd and the endpoints."""
    pages = (DEPLOY.parent / "docs" / "operate" / page for page in ("deploy.md", "monitoring.md"))
    guide = "".join(page.read_text(encoding="utf-8") for page in pages)
    needles = ("compose.yaml", "deploy/k8s", "shutbox.service", "deploy/monitoring",
               LIVE_PATH, READY_PATH, HEALTH_PATH, METRICS_PATH)  # fmt: skip
    for needle in needles:
        assert needle in guide
