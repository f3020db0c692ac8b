"""What the tests of deploy/ share: where the files are, how to read them, what the code reads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

import bot.settings
from bot.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
MONITORING = DEPLOY / "monitoring"


def settings_the_code_reads() -> set[str]:
    """PREFIX_FIELD for every field of every settings section (the platforms' included)."""
    classes = bot.settings.SECTIONS
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
