"""The layers of docs/ARCHITECTURE.md hold: who may import whom, and no import cycle anywhere.

Read from the source with `ast` (imports inside functions count too), so a test fails the day
someone reaches across a layer, whatever ruff's per-directory settings allow.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("core", "adapters", "bot")

# package -> the first-party packages it may import (its own included)
FIRST_PARTY: dict[str, tuple[str, ...]] = {
    "core.game": ("core.game",),
    "core.text": ("core.text", "core.game"),
    "core.service": ("core.service", "core.text", "core.game"),
    # the store implements the model's ports, and reads what a few features keep (the audit
    # log's and the seasons' keys); never the pipeline
    "core.store": ("core.store", "core.service.model", "core.service.features", "core.game"),
    "adapters": ("adapters", "core.service", "core.text", "core.game"),
    "bot": ("bot", "adapters", "core"),
}
# The service's rooms, lowest first (docs/ARCHITECTURE.md, "The service's rooms"): each may
# import its own and the rooms before it, never one after it.
SERVICE_ROOMS = ("model", "features", "show", "api", "pipeline")
FIRST_PARTY |= {
    f"core.service.{room}": (*(f"core.service.{r}" for r in SERVICE_ROOMS[: i + 1]), "core.text",
                             "core.game")
    for i, room in enumerate(SERVICE_ROOMS)
}  # fmt: skip
# Slack's installation store keeps the workspaces' tokens in the same Redis as the games: it
# takes the store's client type (never the `redis` package itself).
EXCEPTIONS: dict[str, tuple[str, ...]] = {
    "adapters.slack.installations": ("core.store.redis_store",),
    "adapters.slack.app": ("core.store.redis_store",),
}
# outside libraries that only some packages may use
PLATFORM_LIBRARIES: dict[str, tuple[str, ...]] = {
    "redis": ("core.store", "bot"),
    "discord": ("adapters.discord", "bot"),
    "nacl": ("adapters.discord",),  # Discord's signatures on interactions over HTTP
    "slack_bolt": ("adapters.slack", "bot"),
    "slack_sdk": ("adapters.slack", "bot"),
    "aiohttp": ("adapters", "bot"),
    "PIL": ("core.text",),  # the board picture is drawn in one place
    "jinja2": ("adapters.web",),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def product_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def package_of(path: Path) -> str:
    return module_name(path) if path.name == "__init__.py" else module_name(path.parent)


def imports_of(path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """Every module `path` imports, resolved to a product module where it is one."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = package_of(path)
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                yield child if child in modules else base


@functools.cache
def graph() -> dict[str, set[str]]:
    modules = product_modules()
    return {
        name: {imported for imported in imports_of(path, modules) if imported in modules}
        for name, path in modules.items()
    }


def layer_of(module: str) -> str:
    return max((p for p in FIRST_PARTY if module == p or module.startswith(p + ".")), key=len)


def under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


@pytest.mark.parametrize("module", sorted(m for m in product_modules() if m != "core"))
def test_a_module_imports_only_from_the_layers_below_it(module: str) -> None:
    allowed = FIRST_PARTY[layer_of(module)] + EXCEPTIONS.get(module, ())
    crossing = sorted(i for i in graph()[module] if not under(i, allowed))
    assert not crossing, f"{module} may not import {crossing}"


def test_platform_libraries_stay_in_their_packages() -> None:
    modules = product_modules()
    wrong = []
    for name, path in modules.items():
        for imported in imports_of(path, modules):
            top = imported.split(".")[0]
            if top in PLATFORM_LIBRARIES and not under(name, PLATFORM_LIBRARIES[top]):
                wrong.append(f"{name} imports {imported}")
    assert not wrong


def test_there_is_no_import_cycle() -> None:
    edges = graph()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges)))
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> None:
        if module in path:
            cycle = [*path[path.index(module) :], module]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if module in done:
            return
        path.append(module)
        for imported in sorted(edges[module]):
            visit(imported)
        path.pop()
        done.add(module)

    for module in sorted(edges):
        visit(module)


def test_adapters_hold_the_service_never_the_manager() -> None:
    """Adapters reach the core through `Service` (handle and three narrow calls); only the
    composition root (bot/) builds and configures the manager itself."""
    reaching = sorted(
        module for module, imported in graph().items()
        if module.startswith("adapters.") and "core.service.pipeline.manager" in imported
    )  # fmt: skip
    assert not reaching


def test_the_core_names_no_platform() -> None:
    """What differs between platforms comes in from the adapters (`Context.mentions`, the
    `Mentions` of the typed grammar): the core never branches on a platform's name."""
    named = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "core").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and node.value.lower() in ("discord", "slack")
    ]  # fmt: skip
    assert not named


def test_every_service_module_sits_in_a_room() -> None:
    """core/service/ holds only its rooms: a module dropped beside them would escape the order."""
    loose = [p.name for p in (ROOT / "core" / "service").glob("*.py") if p.name != "__init__.py"]
    rooms = {p.name for p in (ROOT / "core" / "service").iterdir() if p.is_dir() and
             p.name != "__pycache__"}  # fmt: skip
    assert not loose
    assert rooms == set(SERVICE_ROOMS)


def test_the_checker_sees_a_crossing(tmp_path: Path) -> None:
    """The rules above can fail: a layer crossing is found in a module's source."""
    source = tmp_path / "probe.py"
    source.write_text("from core.store.redis_store import RedisStore\nimport redis\n")
    found = set(imports_of(source, product_modules()))
    assert "core.store.redis_store" in found
    assert "redis" in found
    assert not under("core.store.redis_store", FIRST_PARTY["core.service"])
    assert not under("core.service.pipeline.manager", FIRST_PARTY["core.service.show"])
