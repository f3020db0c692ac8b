"""bot/sentinel.py and its settings: REDIS_SENTINELS and REDIS_SENTINEL_MASTER (SPEC 8)."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.sentinel import SentinelTarget, parse_sentinels
from bot.settings import RedisSettings


@pytest.fixture(autouse=True)
def clean_redis_env(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    for name in ("REDIS_URL", "REDIS_CLUSTER", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER",
                 "REDIS_PASSWORD", "REDIS_SENTINEL_PASSWORD"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # type: ignore[arg-type]  # no stray .env


def test_sentinel_addresses_are_host_port_pairs() -> None:
    """Hosts, IPv6 in brackets, spaces after commas."""
    assert parse_sentinels("10.0.0.1:26379, sentinel-b:26380,[::1]:26381") == (
        ("10.0.0.1", 26379), ("sentinel-b", 26380), ("::1", 26381),
    )  # fmt: skip


@pytest.mark.parametrize("text", ["10.0.0.1", "10.0.0.1:", ":26379", "a:b", "a:70000", "a:1,,b:2"])
def test_a_malformed_address_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not host:port"):
        parse_sentinels(text)


def test_the_settings_make_a_target_with_both_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    """The master's password and the sentinels' own are kept apart."""
    monkeypatch.setenv("REDIS_SENTINELS", "s1:26379,s2:26379")
    monkeypatch.setenv("REDIS_SENTINEL_MASTER", "shutbox")
    monkeypatch.setenv("REDIS_PASSWORD", "master-secret")
    monkeypatch.setenv("REDIS_SENTINEL_PASSWORD", "sentinel-secret")
    assert RedisSettings().sentinel_target() == SentinelTarget(
        (("s1", 26379), ("s2", 26379)), "shutbox", "master-secret", "sentinel-secret"
    )


def test_without_sentinels_there_is_no_target() -> None:
    assert RedisSettings().sentinel_target() is None


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"REDIS_SENTINELS": "s1"},
         "shutbox: setting REDIS_SENTINELS: 's1' is not host:port; "
         "give e.g. 10.0.0.1:26379,10.0.0.2:26379"),
        ({"REDIS_SENTINELS": "s1:26379", "REDIS_URL": "redis://r:6379/0",
          "REDIS_SENTINEL_MASTER": "m"},
         "shutbox: setting REDIS_SENTINELS: set REDIS_SENTINELS or REDIS_URL "
         "(and REDIS_CLUSTER), not both"),
        ({"REDIS_SENTINELS": "s1:26379"},
         "shutbox: setting REDIS_SENTINEL_MASTER: "
         "needs the name the sentinels monitor the master under"),
    ],
)  # fmt: skip
def test_bad_sentinel_settings_stop_with_one_line(
    env: dict[str, str], line: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Exit code 2 and one line naming the setting, before anything connects."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["ledger", "verify"]) == 2
    assert capsys.readouterr().err.splitlines() == [line]
