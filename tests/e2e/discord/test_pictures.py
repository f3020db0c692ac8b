"""The image style on Discord: the game message's embed shows the board picture, attached to
the message, and every edit replaces it (never a second, stale picture beside it); with a
public address, the embed links the bot's signed picture URL instead."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from adapters.discord import ClientOptions, ShutboxClient
from core.service.pipeline.manager import GameManager
from core.service.show.pictures import drawn_board
from core.text.picture import board_png
from core.text.render import render_board
from tests.e2e.discord.conftest import PICTURES, PUBLIC_URL, running
from tests.e2e.discord.fake_discord import FakeDiscord, playing
from tests.e2e.discord.payloads import Json
from tests.e2e.discord.players import ANN, BOB, MOD, current, press

MOVES = 10


def picture_of(fake: FakeDiscord, message: Json) -> tuple[Json, bytes]:
    """The message's one attachment and its bytes, checked to be what the embed shows."""
    attachments = message["attachments"]
    assert len(attachments) == 1, attachments
    (attachment,) = attachments
    assert attachment["filename"] == "board.png"
    assert message["embeds"][0]["image"]["url"] == "attachment://board.png"
    return attachment, fake.files[attachment["id"]]


async def expected_picture(manager: GameManager) -> tuple[bytes, str]:
    """The PNG and the text board of the channel's game as Redis holds it."""
    record = await current(manager)
    assert record is not None
    board = drawn_board(record)
    assert board is not None
    assert (board.tiles, board.open_mask) == (record.state.config.rules.tiles, record.state.board)
    return board_png(board), render_board(record.state.config.rules, record.state.board, "text")


@pytest.mark.gateway_only  # uploads; over HTTP by link
async def test_ten_moves_leave_one_picture_on_the_game_message(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Through ten clicks the game message carries exactly one attachment, the picture of the
    game as it stands, with the text board as its description, sent as a multipart edit."""
    opened = await fake.answered(await fake.command(ANN, "start"))
    game = opened.original
    assert game is not None and fake.messages[game]["attachments"] == []  # the lobby: no box
    await press(fake, BOB, game, "join")
    await press(fake, ANN, game, "begin")
    for move in range(MOVES):
        attachment, png = picture_of(fake, fake.messages[game])
        expected, alt = await expected_picture(manager)
        assert png == expected, f"move {move}: the picture is not of the game as it stands"
        assert attachment["description"] == alt
        assert f"`{alt}`" in fake.messages[game]["embeds"][0]["description"]
        assert Image.open(io.BytesIO(png)).size == (640, 348)
        record = await current(manager)
        assert (
            record is not None and record.state.to_act is not None and playing(fake.messages[game])
        )
        player = ANN if record.state.to_act.name == "Ann" else BOB
        await fake.answered(await fake.click(player, game))
    edits = [
        request for request in fake.requests
        if request.uploads and request.path.endswith("/callback")
    ]  # fmt: skip
    assert len(edits) >= MOVES  # each move edited the message with its new picture
    for request in edits:
        # the edit names its one new file as the message's whole list of attachments
        (listed,) = request.body["data"]["attachments"]
        assert listed["id"] == 0 and listed["filename"] == "board.png"
        assert len(request.uploads) == 1 and request.uploads[0].filename == "board.png"
    assert len(fake.files) > MOVES  # a new file every time; the message kept only the last
    picture_of(fake, fake.messages[game])


async def test_text_style_sends_no_picture(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """`config style=text`: the game message is the text board, with no attachment."""
    await fake.answered(await fake.command(MOD, "config", style="text"))
    opened = await fake.answered(await fake.command(ANN, "solo"))
    game = opened.original
    assert game is not None
    message = fake.messages[game]
    assert message["attachments"] == [] and "image" not in message["embeds"][0]
    assert "| 1 | 2 |" in message["embeds"][0]["description"]


async def test_with_a_public_address_the_picture_is_a_signed_link_and_nothing_is_uploaded(
    fake: FakeDiscord, manager: GameManager
) -> None:
    """SHUTBOX_PUBLIC_URL set: the embed links `<address>/board/<state>.png?s=…` for the game
    as it stands, the message has no attachment, and no request carries a file."""
    async with running(fake, manager, ClientOptions(pictures=PICTURES)):
        opened = await fake.answered(await fake.command(ANN, "solo"))
        game = opened.original
        assert game is not None
        await fake.answered(await fake.click(ANN, game))
    record = await current(manager)
    assert record is not None
    board = drawn_board(record)
    assert board is not None
    message = fake.messages[game]
    assert message["embeds"][0]["image"]["url"] == PICTURES.url(board.to_token())
    assert PICTURES.url(board.to_token()).startswith(f"{PUBLIC_URL}/board/")
    assert message["attachments"] == [] and not any(r.uploads for r in fake.requests)
