"""Discord over HTTP interactions (DISCORD_MODE=http): what only this mode does.

Interactions arrive as POSTs signed with the application's Ed25519 key and are answered in the
HTTP response. The rest of the Discord suite runs in this mode too (tests/e2e/discord/conftest.py).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator

import pytest

from adapters.discord import ShutboxClient
from core.service.pipeline.manager import GameManager
from tests.e2e.discord import payloads
from tests.e2e.discord.conftest import PICTURES, PUBLIC_URL, faked, over_http
from tests.e2e.discord.fake_discord import FakeDiscord, buttons, text_of
from tests.e2e.discord.players import ANN, BOB, current, press, version
from tests.e2e.discord.signed import Signer, post, post_signed

EPHEMERAL = 64


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with faked("http") as server:
        yield server
        assert server.problems == []  # every answer of a shape Discord takes


@pytest.fixture
async def bot(fake: FakeDiscord, manager: GameManager) -> AsyncIterator[ShutboxClient]:
    async with over_http(fake, manager) as client:
        yield client


def solo_command() -> bytes:
    """A genuine-looking `/shutbox solo` from Ann, as a POST body."""
    data = payloads.command_data("solo", {})
    iid = payloads.snowflake()
    interaction = payloads.interaction(
        2, ANN, data, interaction_id=iid, token=f"token-{iid}",
        channel=payloads.guild_channel(payloads.CHANNEL_ID),
    )  # fmt: skip
    return json.dumps(interaction).encode()


async def solo_game(fake: FakeDiscord) -> int:
    opened = await fake.answered(await fake.command(ANN, "solo"))
    assert opened.original is not None
    return opened.original


async def test_a_request_not_signed_by_discord_gets_401_and_nothing_else(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """No signature, another key's, a body changed after signing, a timestamp ten minutes old:
    each gets 401 with an empty body, and the bot neither calls Discord nor starts a game."""
    body, before = solo_command(), len(fake.requests)
    stranger = Signer()
    signed = fake.signer.headers(body)
    forged = [
        {"Content-Type": "application/json"},
        stranger.headers(body),
        {**signed, "X-Signature-Ed25519": "zz" * 64},
        fake.signer.headers(body, timestamp=int(time.time()) - 600),
    ]
    answers = [await post(fake.endpoint, body, headers) for headers in forged]
    answers.append(await post(fake.endpoint, body.replace(b"solo", b"SOLO"), signed))

    assert [(answer.status, answer.text) for answer in answers] == [(401, "")] * 5
    assert fake.requests[before:] == []
    assert await current(manager) is None
    assert (await post(fake.endpoint, body, signed)).status == 200  # the genuine one is taken


async def test_a_ping_gets_a_pong(fake: FakeDiscord, bot: ShutboxClient) -> None:
    """Discord PINGs the URL when it is saved in the portal: the answer is `{"type": 1}`."""
    before = len(fake.requests)
    answer = await fake.ping()
    assert (answer.status, answer.body) == (200, {"type": 1})
    assert fake.requests[before:] == []


async def test_a_command_is_answered_in_the_response(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """`/shutbox balance`: the private answer is the HTTP response itself (type 4, flags 64);
    the bot makes no call to Discord. (An answer longer than one message, such as the help,
    goes on in a follow-up.)"""
    before = len(fake.requests)
    sent = await fake.answered(await fake.command(ANN, "balance"))
    (reply,) = sent.replies
    assert reply.body is not None and reply.body["type"] == 4
    assert reply.body["data"]["flags"] == EPHEMERAL and "100" in reply.body["data"]["content"]
    assert fake.requests[before:] == []


async def test_a_new_game_message_is_deferred_and_written_by_the_webhook(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """A new public game message: the response defers (type 5), and the webhook's edit of the
    original writes it and returns its id, which the game keeps for later edits by REST."""
    opened = await fake.answered(await fake.command(ANN, "solo"))
    assert [reply.body for reply in opened.replies] == [{"type": 5}]
    (written,) = fake.requests_to("PATCH", "/messages/@original")
    assert "embeds" in written.body
    record = await current(manager)
    assert record is not None and record.message == str(opened.original)


async def test_a_click_is_answered_with_update_message_and_no_outbound_call(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Roll: the response is type 7 with the whole message (embed, picture by link, buttons);
    Discord is not called at all."""
    game = await solo_game(fake)
    before, before_version = len(fake.requests), await version(manager)

    click = await fake.answered(await fake.click(ANN, game))

    (reply,) = click.replies
    assert reply.body is not None and reply.body["type"] == 7
    assert fake.requests[before:] == []
    assert await version(manager) == before_version + 1
    shown = fake.messages[game]
    assert "rolled" in text_of(shown) and buttons(shown)
    image = shown["embeds"][0]["image"]["url"]
    record = await current(manager)
    assert record is not None and image.startswith(f"{PUBLIC_URL}/board/")
    assert shown["attachments"] == [] and reply.body["data"]["attachments"] == []
    token = image.removeprefix(f"{PUBLIC_URL}/board/").split(".png")[0]
    assert image == PICTURES.url(token)  # signed with the bot's key


async def test_a_click_by_someone_else_gets_a_private_answer(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Bob pressing Roll in Ann's game: type 4 with flags 64, in the response; nothing moves."""
    game = await solo_game(fake)
    before, before_version = len(fake.requests), await version(manager)

    answer = await press(fake, BOB, game, "roll")

    (reply,) = answer.replies
    assert reply.body is not None and reply.body["type"] == 4
    assert reply.body["data"]["flags"] == EPHEMERAL
    assert answer.data["content"] == "It is Ann’s turn. Please wait for yours."
    assert fake.requests[before:] == []
    assert await version(manager) == before_version


async def test_an_interaction_posted_twice_is_applied_once(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """The same signed click POSTed again (a replay inside the time window): the game moves
    once; the second response acknowledges (type 6) and shows nothing new."""
    game = await solo_game(fake)
    before_version = await version(manager)
    click = await fake.answered(await fake.click(ANN, game))
    shown = json.dumps(fake.messages[game], sort_keys=True)

    again = await post_signed(fake.endpoint, fake.signer, click.payload)

    assert (again.status, again.body) == (200, {"type": 6})
    assert await version(manager) == before_version + 1
    assert json.dumps(fake.messages[game], sort_keys=True) == shown
    assert len(click.callbacks) == 1


async def test_without_a_public_address_the_picture_is_uploaded_after_a_deferral(
    fake: FakeDiscord, manager: GameManager
) -> None:
    """No SHUTBOX_PUBLIC_URL: a click defers (type 6, as no file can ride in the response)
    and the webhook edit uploads the picture, the message's one attachment."""
    async with over_http(fake, manager, pictures=None):
        game = await solo_game(fake)
        click = await fake.answered(await fake.click(ANN, game))

    assert [reply.body for reply in click.replies] == [{"type": 6}]
    edits = fake.requests_to("PATCH", "/messages/@original")
    assert edits and [upload.filename for upload in edits[-1].uploads] == ["board.png"]
    (attachment,) = fake.messages[game]["attachments"]
    assert attachment["filename"] == "board.png"
    assert fake.messages[game]["embeds"][0]["image"]["url"] == "attachment://board.png"


async def test_a_signed_body_that_is_no_interaction_gets_400(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """Signed, but not JSON, of no known type, or a click without its data: one line, 400."""
    bodies = [b"not json", b'{"type": 99}', json.dumps({
        "type": 3, "id": "1", "application_id": "2", "token": "t", "version": 1,
    }).encode()]  # fmt: skip
    answers = [await post(fake.endpoint, body, fake.signer.headers(body)) for body in bodies]
    assert [(answer.status, answer.text) for answer in answers] == [
        (400, "not a Discord interaction\n")
    ] * 3
