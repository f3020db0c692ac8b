"""A game click over HTTP read from its JSON: the same command and context discord.py's path
builds, and its answer written as Discord's JSON."""

from __future__ import annotations

import discord
import pytest

from adapters.discord.click.read import context_of, game_click
from adapters.discord.click.surface import ClickSurface
from adapters.discord.http.exchange import Exchange
from adapters.discord.interactions import context_for
from adapters.discord.screen import embed_data, rows_data
from adapters.pictures import PictureLinks
from core.service.model.views import Button, GameView
from tests.e2e.discord.payloads import (
    CHANNEL_ID,
    Json,
    User,
    bot_user,
    dm_channel,
    guild_channel,
    interaction,
    message,
)

MESSAGE_ID = 1_300_000_000_000_000_001
BUTTON_ID = "stb:roll:g1:3:0"
LINKS = PictureLinks("https://bot.example.org", b"k")


def click(user: User, custom_id: str = BUTTON_ID, *, guild: bool = True, nick: str = "") -> Json:
    channel = guild_channel() if guild else dm_channel(CHANNEL_ID + 1, user)
    shown = message(MESSAGE_ID, int(channel["id"]), {"embeds": []}, flags=0, guild=guild)
    data = {"custom_id": custom_id, "component_type": 2}
    payload = interaction(3, user, data, interaction_id=1_300_000_000_000_000_002, token="t",
                          channel=channel, message=shown)  # fmt: skip
    if nick:
        payload["member"]["nick"] = nick
    return payload


def discord_py_context(payload: Json) -> object:
    """What the gateway path reads from discord.py's `Interaction` of the same JSON."""
    state = discord.Client(intents=discord.Intents(guilds=True))._connection
    state.user = discord.ClientUser(state=state, data=bot_user())  # type: ignore[arg-type]  # logged in
    return context_for(discord.Interaction(data=payload, state=state))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("user", "guild", "nick"),
    [
        (User(1_300_000_000_000_000_010, "Ann"), True, ""),
        (User(1_300_000_000_000_000_011, "Bo", locale="da", admin=True), True, "Bossen"),
        (User(1_300_000_000_000_000_012, "Cy", locale="nb"), False, ""),
        (User(1_300_000_000_000_000_013, "Di", locale="fr"), True, ""),
    ],
)
def test_the_context_is_the_one_discord_py_s_interaction_gives(
    user: User, guild: bool, nick: str
) -> None:
    """Server (or the user's own economy in a DM), channel, user, shown name, language and
    Manage Server: as `context_for` reads them through discord.py."""
    payload = click(user, guild=guild, nick=nick)
    assert context_of(payload) == discord_py_context(payload)


def test_the_context_of_a_click_that_names_nobody_is_none() -> None:
    payload = click(User(1_300_000_000_000_000_014, "Ed"))
    del payload["member"]
    assert context_of(payload) is None


def test_only_a_button_of_ours_on_a_message_is_a_game_click() -> None:
    user = User(1_300_000_000_000_000_015, "Fy")
    assert game_click(click(user)) == BUTTON_ID
    forged = "stb:roll:g1:²:0"  # the manager answers it as an outdated button
    assert game_click(click(user, forged)) == forged
    assert game_click(click(user, "someone-else:1")) is None
    select = click(user)
    select["data"]["component_type"] = 3
    assert game_click(select) is None
    command = click(user)
    command["type"] = 2
    assert game_click(command) is None
    assert game_click({**click(user), "message": {"id": "x"}}) is None


def screen(picture: str = "") -> GameView:
    rows = ((Button("stb:roll:g1:4:0", "Roll"),),)
    return GameView(str(CHANNEL_ID), "g1", 4, "Round 1", "Roll!", rows, picture=picture)


def surface(exchange: Exchange, links: PictureLinks | None, handed: list[str]) -> ClickSurface:
    def full() -> object:
        handed.append("discord.py")
        raise LookupError("discord.py's surface")

    return ClickSurface(click(User(1_300_000_000_000_000_016, "Gu")), exchange, links, full)  # type: ignore[arg-type]


async def test_the_pressed_message_s_edit_is_the_json_answer() -> None:
    """Type 7 with the screen's embed and rows, no attachments: nothing of discord.py built."""
    exchange, handed = Exchange(1, 2, component=True), list[str]()
    shown = surface(exchange, LINKS, handed)
    assert await shown.edit_game(screen("tok"), str(MESSAGE_ID))
    answer = exchange.answer.result()
    assert answer["type"] == 7 and handed == []
    assert answer["data"]["embeds"] == [embed_data(screen("tok"), LINKS)]
    assert answer["data"]["components"] == rows_data(screen().rows)
    assert answer["data"]["attachments"] == []


@pytest.mark.parametrize("case", ["upload", "elsewhere", "answered"])
async def test_anything_else_goes_to_discord_py_s_surface(case: str) -> None:
    """A picture to upload, another message, or an interaction answered already (a deferral):
    discord.py's surface shows it."""
    exchange, handed = Exchange(1, 2, component=True), list[str]()
    shown = surface(exchange, None if case == "upload" else LINKS, handed)
    if case == "answered":
        exchange.acknowledge()
    target = "42" if case == "elsewhere" else str(MESSAGE_ID)
    with pytest.raises(LookupError):
        await shown.edit_game(screen("tok"), target)
    assert handed == ["discord.py"]
