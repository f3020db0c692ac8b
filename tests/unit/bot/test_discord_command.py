"""`shutbox discord`: the invite link, the shard options, a missing token, the HTTP mode's
settings."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import discord
import pytest

from bot.cli import main
from bot.commands import CommandError
from bot.commands.discord import client_options
from bot.settings import DiscordSettings

BOT_PERMISSIONS = {
    "read_messages", "send_messages", "send_messages_in_threads", "embed_links",  # read = view
    "read_message_history", "create_public_threads",
}  # fmt: skip


@pytest.fixture(autouse=True)
def no_discord_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No DISCORD_* variable or stray .env file leaks into these tests."""
    monkeypatch.chdir(tmp_path)
    for name in ("TOKEN", "CLIENT_ID", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD", "MODE",
                 "PUBLIC_KEY"):  # fmt: skip
        monkeypatch.delenv(f"DISCORD_{name}", raising=False)


def test_invite_url_asks_for_exactly_the_scopes_and_permissions_the_bot_uses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`invite-url --client-id` prints the OAuth2 link: bot + applications.commands, and the
    permissions to see the channel, post and edit the game message, and post summaries."""
    assert main(["discord", "invite-url", "--client-id", "123456"]) == 0
    url = urlparse(capsys.readouterr().out.strip())
    query = parse_qs(url.query)
    assert query["client_id"] == ["123456"]
    assert query["scope"] == ["bot applications.commands"]
    granted = {name for name, on in discord.Permissions(int(query["permissions"][0])) if on}
    assert granted == BOT_PERMISSIONS


def test_invite_url_reads_the_client_id_from_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without `--client-id`, DISCORD_CLIENT_ID names the application."""
    monkeypatch.setenv("DISCORD_CLIENT_ID", "987")
    assert main(["discord", "invite-url"]) == 0
    assert "client_id=987" in capsys.readouterr().out


def test_invite_url_without_an_application_id_says_where_to_find_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No application id: exit 2 with one line saying where to find it."""
    assert main(["discord", "invite-url"]) == 2
    assert "DISCORD_CLIENT_ID" in capsys.readouterr().err


def test_running_without_a_token_says_which_setting_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No token: exit 2 before anything starts, naming DISCORD_TOKEN."""
    assert main(["discord"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


def test_shard_ids_split_the_shards_and_only_shard_zero_registers_commands() -> None:
    """`--shard-count 4 --shard-ids 2,3` runs two of four shards and leaves the commands alone."""
    settings = DiscordSettings()
    first = client_options(settings, 4, "0,1")
    second = client_options(settings, 4, "2,3")
    assert (first.shard_count, first.shard_ids, first.sync_commands) == (4, (0, 1), True)
    assert (second.shard_ids, second.sync_commands) == ((2, 3), False)
    assert client_options(settings).shard_count is None  # Discord recommends a count


@pytest.mark.parametrize(("count", "ids"), [(None, "0"), (2, "2"), (2, "a,b"), (0, None)])
def test_bad_shard_options_are_refused(count: int | None, ids: str | None) -> None:
    """Ids without a count, ids out of range, text, or a zero count are usage errors."""
    with pytest.raises(CommandError):
        client_options(DiscordSettings(), count, ids)


KEY = "ab" * 32  # 64 hex digits: a well-formed Ed25519 public key


@pytest.mark.parametrize(
    ("key", "said"),
    [
        (None, "setting DISCORD_PUBLIC_KEY: needed when DISCORD_MODE=http (Developer Portal > "
               "General Information > Public Key)"),
        ("abc", "setting DISCORD_PUBLIC_KEY: the application's Public Key must be 64 hex "
                "digits, not 3 characters"),
        ("zz" * 32, "setting DISCORD_PUBLIC_KEY: the application's Public Key must be hex "
                    "digits (0-9, a-f)"),
    ],
)  # fmt: skip
def test_the_http_mode_without_a_good_public_key_stops_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, key: str | None,
    said: str,
) -> None:  # fmt: skip
    """DISCORD_MODE=http checks every POST with DISCORD_PUBLIC_KEY: missing or malformed, the
    process exits 2 before anything starts, with one line naming the setting."""
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("DISCORD_MODE", "http")
    if key is not None:
        monkeypatch.setenv("DISCORD_PUBLIC_KEY", key)
    assert main(["discord"]) == 2
    assert capsys.readouterr().err == f"shutbox: {said}\n"


def test_the_http_mode_needs_the_public_listener(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SHUTBOX_PUBLIC_PORT=0 nothing would take Discord's POSTs: exit 2, one line."""
    for name, value in (("DISCORD_TOKEN", "token"), ("DISCORD_MODE", "http"),
                        ("DISCORD_PUBLIC_KEY", KEY), ("SHUTBOX_PUBLIC_PORT", "0")):  # fmt: skip
        monkeypatch.setenv(name, value)
    assert main(["discord"]) == 2
    assert capsys.readouterr().err == (
        "shutbox: DISCORD_MODE=http needs the public listener: set SHUTBOX_PUBLIC_PORT (0 turns "
        "it off); Discord's interactions arrive at /discord/interactions on it\n"
    )


def test_a_mode_that_does_not_exist_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("DISCORD_MODE", "webhook")
    assert main(["discord"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("shutbox: setting DISCORD_MODE: ") and "'http'" in line
