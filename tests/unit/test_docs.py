"""The README is a front door and the documentation site covers every command: the README stays
short and its links lead somewhere, every `shutbox` command's help names a page that exists,
and the pages that list commands name each one and no other, so the guide can't fall behind."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.cli import INDEX_PAGE, PAGES, build_parser
from bot.docs_tables import _subcommands

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
README_BUDGET = 150  # lines
LINK = re.compile(r"\]\(([^)#]+)(#[^)]*)?\)")


def commands() -> set[str]:
    return {name for name, _ in _subcommands(build_parser())}


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_BUDGET
    for needle in ("## Try it now", "## Run the tests", "## Where to go next", "shutbox run"):
        assert needle in text


def test_every_link_in_the_readme_leads_to_a_file() -> None:
    targets = [found.group(1) for found in LINK.finditer(README.read_text(encoding="utf-8"))]
    local = [target for target in targets if "://" not in target]
    assert local, "the README links to the documentation pages"
    for target in local:
        assert (ROOT / target).is_file(), target


def test_the_readme_and_ci_run_the_same_test_command() -> None:
    readme = README.read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = ci.strip().splitlines()[-1]
    assert command in readme
    assert "mkdocs build --strict" in command


def test_every_command_names_its_page_and_the_page_exists() -> None:
    assert set(PAGES) == commands()
    for page in (*PAGES.values(), INDEX_PAGE):
        assert (ROOT / page).is_file(), page


def test_a_commands_help_ends_with_its_page() -> None:
    parser = build_parser()
    (subparsers,) = [action for action in parser._actions if isinstance(action.choices, dict)]
    assert isinstance(subparsers.choices, dict)
    for name, page in PAGES.items():
        assert subparsers.choices[name].format_help().rstrip().endswith(f"Explained in {page}.")


def test_every_page_is_in_the_sites_navigation() -> None:
    """mkdocs --strict fails on a page left out too; this says which, without building."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def pages(nav: object) -> set[str]:
        if isinstance(nav, str):
            return {nav}
        if isinstance(nav, list):
            return set().union(*(pages(item) for item in nav))
        if isinstance(nav, dict):
            return set().union(*(pages(item) for item in nav.values()))
        return set()

    on_disk = {str(path.relative_to(ROOT / "docs")) for path in (ROOT / "docs").rglob("*.md")}
    assert pages(config["nav"]) == on_disk


def test_the_cli_page_lists_every_command_and_no_other() -> None:
    """docs/operate/cli.md's table (written by hand, with examples) names each `shutbox` command."""
    text = (ROOT / "docs" / "operate" / "cli.md").read_text(encoding="utf-8")
    named = set(re.findall(r"^\| `shutbox (\w+)", text, flags=re.MULTILINE))
    assert named == commands()


def test_the_ratings_example_is_what_the_model_gives_two_newcomers() -> None:
    """docs/play/ratings.md quotes the first match of two newcomers; OpenSkill computes it."""
    from core.service.features.skill import MODEL, Skill

    new = Skill()
    won, lost = MODEL.rate(
        [[MODEL.create_rating([new.mu, new.sigma])] for _ in range(2)], ranks=[0.0, 1.0]
    )
    ann, bob = (Skill(team[0].mu, team[0].sigma).shown for team in (won, lost))
    example = f"Ann {ann:,} (+{ann - 1500}) · Bob {bob:,} (−{1500 - bob})"
    assert example in (ROOT / "docs" / "play" / "ratings.md").read_text(encoding="utf-8")


def test_the_playground_server_the_docs_name_is_the_playground_s() -> None:
    """The operator's tools need the playground's server id: the pages give the real one."""
    from adapters.console import SCOPE
    from adapters.console.parse import user_id

    server = f"{SCOPE.platform}:{SCOPE.server}"
    playground = (ROOT / "docs" / "play" / "playground.md").read_text(encoding="utf-8")
    assert f"--server {server}" in " ".join(playground.split())
    members = " ".join((ROOT / "docs" / "operate" / "members.md").read_text().split())
    assert f"server is `{server}`" in members
    assert f"`Ann Lee` is `{user_id('Ann Lee')}`" in members
