"""A bare Slack bot on the same library, the baseline of `bench_surface`: bolt's `AsyncApp`
over HTTP that answers `/shutbox` with a message of game-like blocks and every button click
with an ack and a `chat.update` of similar blocks, as our app does, with no game behind it.

`python -m tests.bench.bare_slack --port P --api-url URL --signing-secret S --token T`
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

CLICKS_PER_GAME = 12
TILES = 9


def game_blocks(clicks: int) -> list[dict[str, Any]]:
    """A header, a board line, a status line and (until the game ends) two rows of buttons,
    about the size of our game message."""
    board = " ".join(f"`{n}`" if n > clicks % TILES else "`·`" for n in range(1, TILES + 1))
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": "Shut the Box"}},
        {"type": "section", "text": {"type": "mrkdwn", "text": f"{board}\n🎲 ⚃ ⚂ = 7"}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": f"*Ann* · click {clicks}"}]},
    ]
    if clicks < CLICKS_PER_GAME:
        for row in range(2):
            blocks.append({"type": "actions", "block_id": f"row{row}", "elements": [
                {"type": "button", "action_id": f"bare:{clicks}:{row}:{n}",
                 "text": {"type": "plain_text", "text": f"{n}+{row}"}}
                for n in range(1, 5)
            ]})  # fmt: skip
    return blocks


def build(signing_secret: str, token: str, api_url: str) -> AsyncApp:
    app = AsyncApp(signing_secret=signing_secret, token=token)  # as our app is built
    app.client.base_url = api_url

    @app.command("/shutbox")
    async def start(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        await client.chat_postMessage(
            channel=body["channel_id"], text="Shut the Box", blocks=game_blocks(0)
        )

    @app.action(re.compile("^bare:"))
    async def click(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        clicks = int(body["actions"][0]["action_id"].split(":")[1]) + 1
        await client.chat_update(
            channel=body["channel"]["id"], ts=body["message"]["ts"], text="Shut the Box",
            blocks=game_blocks(clicks),
        )  # fmt: skip

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--api-url", required=True)
    parser.add_argument("--signing-secret", required=True)
    parser.add_argument("--token", required=True)
    args = parser.parse_args()
    app = build(args.signing_secret, args.token, args.api_url)
    app.start(port=args.port, path="/slack/events", host="127.0.0.1")


if __name__ == "__main__":
    main()
