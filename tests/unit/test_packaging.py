"""pyproject.toml: metadata an index and a packager expect, and a build without deprecations."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "core", "adapters", "bot")


def project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        table: dict[str, Any] = tomllib.load(file)["project"]
    return table


def test_the_license_is_an_spdx_expression_with_its_file() -> None:
    """`license = "MIT"` (the table form is deprecated) and the LICENSE file it ships with."""
    meta = project()
    assert meta["license"] == "MIT"
    assert meta["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert not [c for c in meta["classifiers"] if c.startswith("License ::")]


def test_urls_and_classifiers_are_there() -> None:
    meta = project()
    assert {"Homepage", "Source", "Issues"} <= set(meta["urls"])
    assert all(url.startswith("https://") for url in meta["urls"].values())
    assert "Programming Language :: Python :: 3.11" in meta["classifiers"]


def test_every_dependency_has_an_upper_bound() -> None:
    """A new major release never reaches an install unannounced (constraints.txt pins exactly)."""
    for requirement in project()["dependencies"]:
        assert "<" in requirement, requirement


def test_every_dependency_is_pinned_in_the_constraints() -> None:
    """constraints.txt has an exact version for each direct dependency."""
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    pinned = {line.split("==")[0] for line in text.splitlines() if "==" in line}
    for requirement in project()["dependencies"]:
        name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0]
        assert name.lower().replace(".", "-").replace("_", "-") in pinned, name


def test_building_the_package_prints_no_deprecation_warning(tmp_path: Path) -> None:
    """`pip wheel .` runs the same build hooks as `pip install .`; verbose, nothing deprecated;
    the package data (catalogs, the font and its licence) is in the wheel.
    (Built from a copy of the sources: setuptools leaves a build/ folder where it builds.)"""
    source = tmp_path / "src"
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy2
        copy(ROOT / name, source / name)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--verbose",
         "--wheel-dir", str(tmp_path), "--disable-pip-version-check"],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-2000:]
    assert "deprecat" not in output.lower(), output[-4000:]
    wheels = list(tmp_path.glob("shutbox-*.whl"))
    assert wheels
    with zipfile.ZipFile(wheels[0]) as wheel:
        shipped = set(wheel.namelist())
    # the board picture's font and its licence are package data, installed with the code
    assert {"core/text/fonts/DejaVuSans-Bold.ttf", "core/text/fonts/LICENSE"} <= shipped
