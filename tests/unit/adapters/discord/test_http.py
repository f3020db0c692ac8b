"""The HTTP mode's parts: Discord's signature check, and which answers ride in the response."""

from __future__ import annotations

import io
from pathlib import Path

import discord
import pytest
from discord.webhook.async_ import interaction_message_response_params
from nacl.signing import SigningKey

from adapters.discord.http.exchange import deferral, needs_webhook
from adapters.discord.http.gateway_once import GatewayRefused, identify_once
from adapters.discord.http.signature import WINDOW, BadPublicKey, Signatures, verify_key
from adapters.discord.interactions import ANSWER_BUDGET

NOW = 1_800_000_000
BODY = b'{"type":2}'
DOCS = Path(__file__).resolve().parents[4] / "docs" / "run" / "discord.md"


def signed(key: SigningKey, timestamp: str, body: bytes = BODY) -> str:
    return key.sign(timestamp.encode() + body).signature.hex()


@pytest.fixture
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture
def signatures(key: SigningKey) -> Signatures:
    return Signatures(verify_key(key.verify_key.encode().hex()), clock=lambda: NOW)


def test_a_request_signed_with_the_application_key_is_genuine(
    key: SigningKey, signatures: Signatures
) -> None:
    stamp = str(NOW)
    assert signatures.genuine(stamp, signed(key, stamp), BODY)


@pytest.mark.parametrize("age", [-WINDOW, WINDOW])
def test_a_timestamp_at_the_edge_of_the_window_is_accepted(
    key: SigningKey, signatures: Signatures, age: float
) -> None:
    stamp = str(int(NOW - age))
    assert signatures.genuine(stamp, signed(key, stamp), BODY)


@pytest.mark.parametrize("age", [-WINDOW - 1, WINDOW + 1])
def test_a_timestamp_outside_the_window_is_refused_though_signed(
    key: SigningKey, signatures: Signatures, age: float
) -> None:
    """A captured request can't be replayed later: its signed timestamp is too old (or new)."""
    stamp = str(int(NOW - age))
    assert not signatures.genuine(stamp, signed(key, stamp), BODY)


def test_anything_else_is_refused(key: SigningKey, signatures: Signatures) -> None:
    """Another key, a changed body, a changed timestamp, a signature that is not hex or not
    64 bytes, a timestamp that is not a number, nothing at all."""
    stamp = str(NOW)
    good = signed(key, stamp)
    assert not signatures.genuine(stamp, signed(SigningKey.generate(), stamp), BODY)
    assert not signatures.genuine(stamp, good, BODY + b" ")
    assert not signatures.genuine(str(NOW + 1), good, BODY)
    assert not signatures.genuine(stamp, "zz" * 64, BODY)
    assert not signatures.genuine(stamp, good[:-2], BODY)
    assert not signatures.genuine("soon", good, BODY)
    assert not signatures.genuine("", "", BODY)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("ab", "must be 64 hex digits, not 2 characters"),
        ("g" * 64, "must be hex digits (0-9, a-f)"),
    ],
)
def test_a_malformed_public_key_says_what_is_wrong(text: str, said: str) -> None:
    with pytest.raises(BadPublicKey, match=said.replace("(", r"\(").replace(")", r"\)")):
        verify_key(text)


def message(**options: object) -> tuple[object, dict[str, object]]:
    params = interaction_message_response_params(type=4, **options)  # type: ignore[arg-type]
    return params, dict(params.payload or {})


def test_private_text_and_an_update_ride_in_the_response() -> None:
    params, answer = message(content="hi", flags=discord.MessageFlags(ephemeral=True))
    assert not needs_webhook(params, answer)  # type: ignore[arg-type]
    update = interaction_message_response_params(type=7, embed=discord.Embed(title="game"))
    assert not needs_webhook(update, dict(update.payload or {}))


def test_a_new_public_game_message_and_any_upload_go_through_the_webhook() -> None:
    """The game keeps its message's id, which only the webhook's answer carries; and Discord
    takes no file in a response."""
    params, answer = message(embed=discord.Embed(title="game"))
    assert needs_webhook(params, answer)  # type: ignore[arg-type]
    upload = discord.File(io.BytesIO(b"png"), filename="board.png")
    update = interaction_message_response_params(type=7, files=[upload])
    assert needs_webhook(update, {"type": 7, "data": {}})


def test_the_deferral_keeps_only_the_visibility() -> None:
    assert deferral({"type": 4, "data": {"embeds": [{}]}}) == {"type": 5}
    assert deferral({"type": 4, "data": {"flags": 64, "content": "x"}}) == {
        "type": 5, "data": {"flags": 64},
    }  # fmt: skip
    assert deferral({"type": 7, "data": {"embeds": []}}) == {"type": 6}


def test_the_figures_on_the_discord_page_are_the_code_s() -> None:
    page = DOCS.read_text(encoding="utf-8")
    assert f"more than {WINDOW / 60:g} minutes from the bot's clock" in page
    assert f"longer than {ANSWER_BUDGET:g} s is deferred" in page


async def test_a_gateway_that_cannot_be_reached_is_one_line(unused_tcp_port: int) -> None:
    """The one gateway connection of the HTTP mode, refused: `GatewayRefused`, one line (the
    bot logs it and serves interactions all the same)."""
    with pytest.raises(GatewayRefused) as refused:
        await identify_once(f"ws://127.0.0.1:{unused_tcp_port}/gateway", "token", within=5)
    assert "\n" not in str(refused.value) and str(refused.value).startswith("ClientConnectorError")
