"""A missing or malformed setting stops start-up with one line naming it (exit code 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import COMMANDS, main
from bot.platforms import PLATFORMS
from bot.settings import CoreSettings, RedisSettings

# One harmless command line per command that reads the settings.
LOADS_SETTINGS = {
    "run": ["run"],
    "play": ["play"],
    **{name: [name] for name in PLATFORMS},  # each platform's own subcommand
    "ledger": ["ledger", "verify"],
    "audit": ["audit", "--server", "discord:1"],
    "user": ["user", "export", "--server", "discord:1", "--user", "1"],
    "bench": ["bench", "--games", "1", "--actions", "1"],
    "backup": ["backup", "shutbox.jsonl"],  # `restore` checks its file first, then the same
}
# pure computations: no settings, no Redis
SETTINGS_FREE = {"odds", "board", "review", "simulate", "verify"}

MALFORMED = [  # every setting that can be malformed, with the mistakes people make
    ("SHUTBOX_SWEEP_SECONDS", "soon"),
    ("SHUTBOX_SWEEP_SECONDS", "0"),
    ("SHUTBOX_SWEEP_SECONDS", "-1"),
    ("SHUTBOX_SWEEP_SECONDS", "nan"),
    ("SHUTBOX_SWEEP_SECONDS", "inf"),
    ("SHUTBOX_RATE_LIMIT", "fast"),
    ("SHUTBOX_GAME_RATE_LIMIT", "0/10"),
    ("SHUTBOX_SEASONS_KEPT", "-1"),
    ("SHUTBOX_REQUEST_TTL", "10"),
    ("SHUTBOX_CACHE_GAMES", "0"),
    ("SHUTBOX_CACHE_SERVERS", "lots"),
    ("SHUTBOX_CACHE_MEMBERS", "²"),
    ("SHUTBOX_HEALTH_PORT", "99999"),
    ("SHUTBOX_HEALTH_PORT", "²"),
    ("SHUTBOX_HEALTH_HOST", "not a host!"),
    ("SHUTBOX_LOG_LEVEL", "loud"),
    ("SHUTBOX_LOG_JSON", "perhaps"),
    ("SHUTBOX_DATA_DIR", "pyproject.toml"),  # a file, not a folder
    ("SHUTBOX_PUBLIC_URL", "shutbox.example.org"),
    ("SHUTBOX_PUBLIC_URL", "ftp://shutbox.example.org"),
    ("SHUTBOX_PUBLIC_URL", "https://shutbox.example.org/?from=slack"),
    ("REDIS_URL", "notaurl"),
    ("REDIS_URL", "localhost:6379"),
    ("REDIS_URL", "http://localhost:6379"),
    ("REDIS_URL", "redis://localhost:port"),
    ("REDIS_URL", "redis://localhost:99999"),
    ("REDIS_URL", "redis://localhost/zero"),
    ("REDIS_URL", "redis://localhost?socket_timeout=soon"),
    ("REDIS_CLUSTER", "maybe"),
    ("DISCORD_DEV_GUILD", "my-guild"),
    ("DISCORD_DEV_GUILD", "-5"),
    ("DISCORD_CLIENT_ID", "my-app"),
    ("DISCORD_SHARD_COUNT", "0"),
    ("DISCORD_SHARD_IDS", "first,second"),
    ("DISCORD_API_BASE", "discord.com/api"),
    ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg"),
    ("SLACK_PORT", "http"),
    ("SLACK_PORT", "70000"),
    ("SLACK_API_URL", "slack.com/api"),
    ("SLACK_REDIRECT_URI", "nowhere"),
]


@pytest.fixture(autouse=True)
def no_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run where no `.env` file can add settings of its own."""
    monkeypatch.chdir(tmp_path)


def test_every_command_is_classified() -> None:
    """Each CLI command either reads the settings (and is tested below) or needs none."""
    assert set(COMMANDS) == set(LOADS_SETTINGS) | SETTINGS_FREE


@pytest.mark.parametrize("command", sorted(LOADS_SETTINGS))
def test_a_redis_url_that_is_not_a_url_stops_every_command_with_one_line(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`REDIS_URL=notaurl shutbox run` (or any command): exit 2, one line naming REDIS_URL."""
    monkeypatch.setenv("REDIS_URL", "notaurl")
    assert main(LOADS_SETTINGS[command]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shutbox: setting REDIS_URL: must start with redis://, rediss:// or ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", sorted(LOADS_SETTINGS))
def test_a_malformed_setting_stops_every_command_with_one_line(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever the command, a malformed setting ends it with exit 2 and one line naming it."""
    monkeypatch.setenv("SHUTBOX_SWEEP_SECONDS", "soon")
    assert main(LOADS_SETTINGS[command]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("shutbox: setting SHUTBOX_SWEEP_SECONDS: ")


@pytest.mark.parametrize(("name", "value"), MALFORMED)
def test_the_line_names_the_malformed_setting(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one line names the very variable that is wrong, prefix included."""
    if name == "SHUTBOX_DATA_DIR":
        Path(value).write_text("a file where the data folder should be")
    monkeypatch.setenv(name, value)
    assert main(["ledger", "verify"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"shutbox: setting {name}: ") and err.count("\n") == 1


def test_cluster_mode_without_a_url_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """REDIS_CLUSTER=true needs REDIS_URL: the bot cannot start its own cluster."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("REDIS_CLUSTER", "true")
    assert main(["ledger", "verify"]) == 2
    assert "setting REDIS_CLUSTER: needs REDIS_URL" in capsys.readouterr().err


def test_health_and_cluster_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """Probes listen on 8080 on loopback only by default, and Redis is not a cluster."""
    for name in ("SHUTBOX_HEALTH_PORT", "SHUTBOX_HEALTH_HOST", "REDIS_CLUSTER"):
        monkeypatch.delenv(name, raising=False)
    core = CoreSettings()
    assert (core.health_port, core.health_host) == (8080, "127.0.0.1")
    assert RedisSettings().cluster is False


def test_log_level_is_case_insensitive(monkeypatch: pytest.MonkeyPatch) -> None:
    """`debug` and `DEBUG` are the same level."""
    monkeypatch.setenv("SHUTBOX_LOG_LEVEL", "debug")
    assert CoreSettings().log_level == "DEBUG"
