"""`shutbox discord`: the invite link, the shard options, and a missing token."""

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
    for name in ("TOKEN", "CLIENT_ID", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD"):
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
