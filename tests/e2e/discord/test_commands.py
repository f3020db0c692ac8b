"""`/shutbox` subcommands against the fake Discord: registration, languages, rights, bad input."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.service.pipeline.manager import GameManager
from core.service.pipeline.subcommands import NAMES
from tests.e2e.discord.fake_discord import FakeDiscord, buttons, playing, text_of
from tests.e2e.discord.payloads import GUILD_ID
from tests.e2e.discord.players import ANN, BOB, DAG, MOD, NOR, current

# The subcommands SPEC section 6 lists; the table (NAMES), which Discord registers, holds them all.
SPEC_SUBCOMMANDS = {
    "start", "solo", "join", "leave", "stop", "leaderboard", "stats", "balance", "daily",
    "challenge", "rules", "odds", "config", "grant", "give", "rank", "review", "season", "audit",
    "web",
    "help",
}  # fmt: skip


async def test_one_group_registers_every_subcommand_in_danish_and_norwegian(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """The registration payload is one `/shutbox` group with the table's subcommands, in its
    order, whose subcommands and options carry `da` and `no` names and descriptions."""
    (group,) = fake.registered["global"]
    assert group["name"] == "shutbox" and set(group["description_localizations"]) == {"da", "no"}
    subcommands = {sub["name"]: sub for sub in group["options"]}
    assert list(subcommands) == list(NAMES) and set(NAMES) >= SPEC_SUBCOMMANDS
    for sub in subcommands.values():
        assert set(sub["name_localizations"]) == {"da", "no"}, sub["name"]
        assert set(sub["description_localizations"]) == {"da", "no"}, sub["name"]
        for option in sub.get("options", []):
            assert set(option["name_localizations"]) == {"da", "no"}, option["name"]
    assert subcommands["join"]["name_localizations"] == {"da": "deltag", "no": "bli-med"}
    stakes = {o["name"]: o for o in subcommands["start"]["options"]}["stakes"]
    assert stakes["name_localizations"] == {"da": "indsats", "no": "innsats"}


async def test_private_replies_come_in_the_users_discord_language(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """Dag (Danish client) and Nora (Norwegian client) read their balance in their language."""
    danish = await fake.answered(await fake.command(DAG, "balance"))
    norwegian = await fake.answered(await fake.command(NOR, "balance"))
    assert danish.ephemeral and danish.data["content"] == "Du har 100 jetoner."
    assert norwegian.ephemeral and norwegian.data["content"] == "Du har 100 sjetonger."


async def test_public_messages_follow_the_server_language(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """Once an admin sets the server to Danish, Ann's lobby is in Danish but her own note
    stays in English."""
    saved = await fake.answered(await fake.command(MOD, "config", language="da"))
    assert saved.ephemeral and saved.data["content"].startswith("Saved. Settings: lang=da")
    opened = await fake.answered(await fake.command(ANN, "start"))
    assert opened.original is not None
    labels = [b["label"] for b in buttons(fake.messages[opened.original])]
    assert "Deltag" in labels
    again = await fake.answered(await fake.command(ANN, "start"))
    assert again.ephemeral and again.data["content"].startswith("A lobby is already open")


async def test_bad_options_get_a_private_error_and_open_nothing(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """A negative ante and an unknown preset are refused privately, saying what is allowed."""
    ante = await fake.answered(await fake.command(ANN, "start", stakes="pot:-5"))
    preset = await fake.answered(await fake.command(ANN, "start", preset="bogus"))
    assert ante.answer_type == 4 and ante.data["flags"] == 64
    assert ante.data["content"] == "A stake must be 1 to 1,000,000 chips, not -5."
    assert preset.answer_type == 4 and preset.data["flags"] == 64
    assert preset.data["content"].startswith("Unknown preset “bogus”. Try one of: classic")
    assert await current(manager) is None


async def test_stop_needs_the_host_or_manage_server(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Bob may not stop Ann's game; a member with Manage Server may, seated or not: the game
    message shows who stopped it and the channel is told."""
    opened = await fake.answered(await fake.command(ANN, "start"))
    refused = await fake.answered(await fake.command(BOB, "stop"))
    assert refused.ephemeral
    assert refused.data["content"] == "Only the host (Ann) or an admin can stop this game."

    stopped = await fake.answered(await fake.command(MOD, "stop"))

    assert not stopped.ephemeral and "The game was stopped" in stopped.data["content"]
    assert opened.original is not None
    assert fake.requests_to("PATCH", f"/messages/{opened.original}")
    assert buttons(fake.messages[opened.original]) == []
    assert "stopped" in text_of(fake.messages[opened.original])


async def test_join_by_command_edits_the_lobby_message(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """`/shutbox join` seats Bob and updates the lobby message in place, with a link to it."""
    opened = await fake.answered(await fake.command(ANN, "start"))
    joined = await fake.answered(await fake.command(BOB, "join"))
    assert opened.original is not None
    assert joined.ephemeral
    link = f"https://discord.com/channels/{GUILD_ID}/"
    assert link in joined.data["content"] and str(opened.original) in joined.data["content"]
    assert "Bob" in text_of(fake.messages[opened.original])


async def test_grant_and_config_changes_need_manage_server(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """Bob cannot grant chips or change settings; Mod grants Bob 50, announced in the channel."""
    refused = await fake.answered(await fake.command(BOB, "grant", player=BOB, amount=50))
    assert refused.data["content"] == "Only an admin can do that."
    config = await fake.answered(await fake.command(BOB, "config", timer=30))
    assert config.data["content"] == "Only an admin can do that."
    looked = await fake.answered(await fake.command(BOB, "config"))
    assert looked.data["content"].startswith("Settings: lang=en")

    granted = await fake.answered(await fake.command(MOD, "grant", player=BOB, amount=50))

    assert granted.ephemeral and "granted Bob 50 chips" in granted.data["content"]
    announced = [text_of(m) for m in fake.channel_messages()]
    assert any("granted Bob 50 chips from the bank (balance 150)" in text for text in announced)
    balance = await fake.answered(await fake.command(BOB, "balance"))
    assert balance.data["content"] == "You have 150 chips."


async def test_help_lists_the_command_names_a_danish_client_shows(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """Help in Danish ends with the Danish names of the subcommands, all in one message."""
    answer = await fake.answered(await fake.command(DAG, "help"))
    assert answer.ephemeral and not answer.followups
    shown = answer.data["content"]
    assert "/shutbox deltag (join)" in shown and len(shown) <= 2000
    assert shown.startswith("**Shut the Box** (luk kassen)")


async def test_a_solo_game_is_played_in_a_direct_message(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """In a DM with the bot, solo works (and is played to the end), start and balance say why
    they do not."""
    refused = await fake.answered(await fake.command(ANN, "start", direct=True))
    assert refused.ephemeral and "direct message" in refused.data["content"]
    balance = await fake.answered(await fake.command(ANN, "balance", direct=True))
    assert balance.data["content"].startswith("This works in a server")

    opened = await fake.answered(await fake.command(ANN, "solo", direct=True))

    assert opened.original is not None and not opened.ephemeral
    game = fake.messages[opened.original]
    assert game["channel_id"] == str(fake.dm_channel(ANN)) and "guild_id" not in game
    for _ in range(100):
        if not playing(fake.messages[opened.original]):
            break
        await fake.answered(await fake.click(ANN, opened.original))
    assert "game over" in text_of(fake.messages[opened.original])


async def test_an_admin_reads_the_audit_log_privately(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """Mod's grant is in `/shutbox audit`, answered only to Mod; Bob is refused."""
    await fake.answered(await fake.command(MOD, "grant", player=BOB, amount=50))
    refused = await fake.answered(await fake.command(BOB, "audit"))
    assert refused.ephemeral and refused.data["content"] == "Only an admin can do that."
    shown = await fake.answered(await fake.command(MOD, "audit"))
    assert shown.ephemeral
    first, line = shown.data["content"].splitlines()
    assert first.startswith("**Audit log** — the latest 1 admin action, newest first")
    assert line.endswith(" · Mod granted chips to Bob · amount=50 balance=100→150")


async def test_help_on_one_command_gives_its_line(fake: FakeDiscord, bot: ShutboxClient) -> None:
    """`/shutbox help command:tournament`: that command's words and what it does, privately."""
    answer = await fake.answered(await fake.command(ANN, "help", command="tournament"))
    assert answer.ephemeral
    assert answer.data["content"].startswith("/shutbox tournament [standings|join|leave]")
