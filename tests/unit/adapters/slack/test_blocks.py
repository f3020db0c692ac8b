"""Core views as Block Kit: the game message, mrkdwn and the countdown (SPEC 3, 7)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from adapters.slack.blocks import MAX_SECTION, deadline_token, game_blocks, mrkdwn
from adapters.slack.delivery import is_current
from core.service.model.record import GameRecord
from core.service.model.views import Button, ButtonStyle, GameView


def view(body: str = "**Ann**, your turn ⏱ {deadline}", rows: int = 1, per_row: int = 5,
         deadline: int = 1_700_000_000, over: bool = False) -> GameView:  # fmt: skip
    buttons = tuple(
        tuple(Button(f"stb:choose:g1:3:{r * 100 + i}", f"{i}", ButtonStyle.SUCCESS)
              for i in range(per_row))
        for r in range(rows)
    )  # fmt: skip
    return GameView("C1", "g1", 3, "Round 1", body, buttons, deadline, "", over)


def test_bold_becomes_slack_bold_and_names_cannot_mention() -> None:
    """`**x**` is `*x*`; `<`, `>` and `&` are escaped so `<!channel>` stays text."""
    assert mrkdwn("**Ann** & <!channel>") == "*Ann* &amp; &lt;!channel&gt;"


def test_the_deadline_is_a_slack_date_the_client_counts_itself() -> None:
    """`{deadline}` becomes `<!date^UNIX^{time}|HH:MM UTC>`; no deadline shows a dash."""
    assert deadline_token(1_700_000_000) == "<!date^1700000000^{time}|22:13 UTC>"
    assert deadline_token(0) == "—"
    section = game_blocks(view())[1]
    assert section["text"]["text"] == "*Ann*, your turn ⏱ <!date^1700000000^{time}|22:13 UTC>"


def test_the_message_is_a_header_a_body_and_one_actions_block_per_row() -> None:
    """Rows of buttons keep their order; styles map to Slack's primary/danger."""
    blocks = game_blocks(view(rows=5))
    assert [b["type"] for b in blocks] == ["header", "section"] + ["actions"] * 5
    first = blocks[2]["elements"][0]
    assert first["action_id"] == "stb:choose:g1:3:0" and first["style"] == "primary"
    ids = [e["action_id"] for b in blocks[2:] for e in b["elements"]]
    assert len(ids) == len(set(ids)) == 25
    assert len({b["block_id"] for b in blocks[2:]}) == 5


def test_a_row_longer_than_25_buttons_is_split() -> None:
    """Slack allows 25 elements per actions block: every button stays reachable."""
    blocks = game_blocks(view(per_row=30))
    assert [len(b["elements"]) for b in blocks if b["type"] == "actions"] == [25, 5]


def test_a_long_body_is_split_into_sections_on_line_breaks() -> None:
    """Sections hold at most 3000 characters; no line is lost."""
    body = "\n".join(f"line {n} " + "x" * 90 for n in range(80))
    sections = [b["text"]["text"] for b in game_blocks(view(body=body)) if b["type"] == "section"]
    assert len(sections) > 1 and all(len(s) <= MAX_SECTION for s in sections)
    assert "\n".join(sections) == body


def record(version: int) -> GameRecord:
    """Only the game id and version matter to `is_current`."""
    return cast(GameRecord, SimpleNamespace(game_id="g1", version=version))


def test_only_the_latest_view_of_the_game_is_shown() -> None:
    """A late or repeated view is skipped; the final view of a game just over is shown."""
    assert is_current(view(), record(3))
    assert not is_current(view(), record(4))
    assert is_current(view(over=True), None)
    assert not is_current(view(), None)


def test_a_picture_is_an_image_block_under_the_header() -> None:
    """With the bot's address, the image style's picture is an image block right under the
    header: the signed URL of its state, the text board as alt text; without one, none."""
    from dataclasses import replace

    from adapters.pictures import PictureLinks

    links = PictureLinks("https://shutbox.example.org/", b"k" * 32)
    pictured = replace(view(), picture="9.1ff.53.-.", alt="| 1 | 2 | 3 |")
    blocks = game_blocks(pictured, links)
    assert [block["type"] for block in blocks[:3]] == ["header", "image", "section"]
    assert blocks[1] == {
        "type": "image",
        "image_url": f"https://shutbox.example.org/board/9.1ff.53.-..png?s={links.sign('9.1ff.53.-.')}",
        "alt_text": "| 1 | 2 | 3 |",
    }
    assert "image" not in [block["type"] for block in game_blocks(pictured)]
    assert "image" not in [block["type"] for block in game_blocks(view(), links)]
