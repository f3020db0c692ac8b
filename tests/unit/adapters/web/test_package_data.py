"""`pip install .` ships every template and static file of the pages (pyproject package-data)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import jinja2

from adapters.web.app import STATIC_TYPES, environment, static_files

ROOT = Path(__file__).resolve().parents[4]
WEB = ROOT / "adapters" / "web"


def test_every_page_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["adapters.web"]
    files = [p.relative_to(WEB).as_posix() for p in WEB.rglob("*") if p.is_file()
             and p.suffix != ".py" and "__pycache__" not in p.parts]  # fmt: skip
    assert files
    for name in files:
        assert any(fnmatch(name, pattern) for pattern in patterns), name


def test_the_templates_autoescape_and_every_static_file_loads() -> None:
    env = environment()
    assert env.autoescape is True
    assert env.from_string("{{ name }}").render(name="<b>") == "&lt;b&gt;"
    for template in (WEB / "templates").glob("*.html"):
        env.get_template(template.name)  # parses
    assert set(static_files()) == set(STATIC_TYPES)
    assert isinstance(env.undefined, type) and issubclass(env.undefined, jinja2.StrictUndefined)
