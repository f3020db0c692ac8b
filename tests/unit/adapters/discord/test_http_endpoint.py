"""The endpoint when discord.py gives no answer in time: nobody is left waiting on Discord's
"interaction failed" (a click is acknowledged, a command told privately, in the user's language)."""

from __future__ import annotations

import json

import pytest
from aiohttp import web
from nacl.signing import SigningKey

from adapters.discord.http import endpoint
from adapters.discord.http.endpoint import INTERACTIONS_PATH, interactions_handler
from adapters.discord.http.signature import Signatures, verify_key
from adapters.http import serving_app
from core.text.i18n import t
from tests.e2e.discord.signed import Signer, post_signed


@pytest.mark.parametrize(
    ("kind", "locale", "expected"),
    [
        (3, "en-US", {"type": 6}),
        (2, "da", {"type": 4, "data": {"content": t("da", "error.generic"), "flags": 64}}),
        (2, "no", {"type": 4, "data": {"content": t("nb", "error.generic"), "flags": 64}}),
    ],
)
async def test_an_interaction_nobody_answers_in_time_still_gets_an_answer(
    monkeypatch: pytest.MonkeyPatch, kind: int, locale: str, expected: dict[str, object]
) -> None:
    monkeypatch.setattr(endpoint, "ANSWER_WITHIN", 0.05)
    signer = Signer(SigningKey.generate())
    signatures = Signatures(verify_key(signer.public_key))
    received: list[dict[str, object]] = []
    app = web.Application()
    app.router.add_post(INTERACTIONS_PATH, interactions_handler(signatures, received.append))
    interaction = {"id": "10", "application_id": "20", "type": kind, "token": "t", "version": 1,
                   "locale": locale, "data": {}}  # fmt: skip
    async with serving_app(app, "127.0.0.1", 0) as port:
        url = f"http://127.0.0.1:{port}{INTERACTIONS_PATH}"
        answer = await post_signed(url, signer, interaction)
    assert received == [json.loads(json.dumps(interaction))]  # handed over, never answered
    assert (answer.status, answer.body) == (200, expected)
