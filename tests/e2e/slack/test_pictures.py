"""The image style on Slack: the game message's image block links to the bot's own server,
which serves the picture of the same state as the text board; without a public address the
board stays emoji and `config style=image` says why."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import aiohttp
import pytest

from adapters.pictures import PictureLinks, derived_key
from adapters.slack.app import SlackBot, SlackConfig
from adapters.slack.server import serving_http
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.service.show.pictures import drawn_board
from core.text.drawn import DrawnBoard
from core.text.picture import board_png
from core.text.render import render_board
from tests.e2e.slack.conftest import BOT_TOKEN
from tests.e2e.slack.driver import CHANNEL, SECRET, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message

SCOPE = Scope("slack", TEAM)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def config(fake: FakeSlack, port: int) -> SlackConfig:
    """The app with a public address: its own port on loopback."""
    links = PictureLinks(f"http://127.0.0.1:{port}/", derived_key(SECRET))
    return SlackConfig(SECRET, bot_token=BOT_TOKEN, api_url=fake.api_url, pictures=links)


@pytest.fixture
async def app_url(bot: SlackBot, port: int) -> AsyncIterator[str]:
    async with serving_http(bot, "127.0.0.1", port) as bound:
        yield f"http://127.0.0.1:{bound}/slack/events"


def image_of(message: Message) -> dict[str, str]:
    images = [block for block in message.blocks if block["type"] == "image"]
    assert len(images) == 1, message.blocks
    return images[0]


async def fetch(url: str, **headers: str) -> tuple[int, bytes, aiohttp.typedefs.LooseHeaders]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as answer:
        return answer.status, await answer.read(), answer.headers


async def solo_game(slack: Driver, fake: FakeSlack) -> Message:
    assert (await slack.command("UANN", "solo")).status == 200
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    return found[0]


async def test_the_image_url_serves_the_picture_of_the_text_board(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    """The image block's URL, fetched from the bot, is a PNG of the game as the text board
    shows it, cached for good; a move gives a new URL; the URL names no game, user or channel."""
    message = await solo_game(slack, fake)
    for _ in range(4):
        image = image_of(message)
        record = await manager.current(Context(SCOPE, CHANNEL, "UANN", "Ann"))
        assert record is not None
        text_board = render_board(record.state.config.rules, record.state.board, "text")
        assert image["alt_text"] == text_board and f"`{text_board}`" in message.body
        status, png, headers = await fetch(image["image_url"])
        assert status == 200 and headers["Content-Type"] == "image/png"
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert png == board_png(drawn_board(record))  # type: ignore[arg-type]
        token = urlsplit(image["image_url"]).path.removeprefix("/board/").removesuffix(".png")
        assert DrawnBoard.from_token(token).open_mask == record.state.board
        for secret in (record.game_id, "UANN", CHANNEL, "Ann"):
            assert secret not in image["image_url"]
        before = image["image_url"]
        await slack.press("UANN", message, str(message.playing[0]["action_id"]))
        assert image_of(message)["image_url"] != before
        assert (await fetch(before))[0] == 200  # an old state's picture stays what it was


async def test_signature_and_path_rules(slack: Driver, fake: FakeSlack) -> None:
    """A wrong or missing signature: 404; a path that is no picture: 400; a repeat: 304."""
    url = image_of(await solo_game(slack, fake))["image_url"]
    base, _, signature = url.partition("?s=")
    assert (await fetch(f"{base}?s={signature[:-1]}A"))[0] == 404
    assert (await fetch(base))[0] == 404
    forged = base.replace("/board/9.", "/board/12.", 1)  # another box, the first one's signature
    assert (await fetch(f"{forged}?s={signature}"))[0] == 404
    root = base[: base.index("/board/")]
    for bad in ("/board/9.1ff.73.-..png", "/board/nothing.png", "/board/9.1ff.53.-.gif",
                "/board/9.1FF..-..png"):  # fmt: skip
        status, body, headers = await fetch(f"{root}{bad}?s={signature}")
        assert status == 400 and body == b"not a board picture\n", bad
        assert headers["Cache-Control"] == "no-store"
    status, _, headers = await fetch(url)
    assert (await fetch(url, **{"If-None-Match": headers["ETag"]}))[0] == 304


async def test_without_a_public_address_the_board_is_emoji(
    slack: Driver, fake: FakeSlack, bot: SlackBot, manager: GameManager
) -> None:
    """Socket Mode behind NAT (no SHUTBOX_PUBLIC_URL): no image block, the emoji board, and
    `config style=image` is saved with the reason it does not show yet."""
    manager.pictures.discard("slack")
    bot.delivery.pictures = None
    message = await solo_game(slack, fake)
    assert not [block for block in message.blocks if block["type"] == "image"]
    assert "1️⃣" in message.body
    said = await slack.say("UANN", "config style=image")
    assert said.startswith("Saved. Settings: lang=en, style=image,")
    assert said.endswith("new games here show the board as emoji until it is set.")
