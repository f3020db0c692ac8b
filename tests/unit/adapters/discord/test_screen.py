"""A game screen as Discord's JSON: the one form both modes answer and post with."""

from __future__ import annotations

from adapters.discord.buttons import row_buttons
from adapters.discord.render import game_embed
from adapters.discord.screen import (
    LOBBY_COLOUR,
    OVER_COLOUR,
    PLAYING_COLOUR,
    embed_data,
    rows_data,
)
from adapters.pictures import PictureLinks
from core.service.model.views import Button, ButtonStyle, GameView

LINKS = PictureLinks("https://bot.example.org/", b"k")


def view(*, rows: int = 2, over: bool = False, join: bool = False, picture: str = "") -> GameView:
    verb = "join" if join else "choose"
    buttons = tuple(
        tuple(Button(f"stb:{verb}:g1:3:{r}{c}", f"{r}.{c}", ButtonStyle.PRIMARY) for c in range(6))
        for r in range(rows)
    )
    return GameView("c1", "g1", 3, "T" * 300, "Roll! ⏱ {deadline}", buttons, deadline=1_700_000_000,
                    over=over, picture=picture)  # fmt: skip


def test_the_rows_are_the_buttons_discord_py_would_send() -> None:
    """Type, style, label and custom id of every button as discord.py's own view sends them,
    at most five rows of five."""
    shown = view(rows=7)
    theirs = row_buttons(shown.rows)
    assert theirs is not None
    keys = ("type", "style", "label", "custom_id")
    rows = theirs.to_components()
    expected = [[{k: b[k] for k in keys} for b in row["components"]] for row in rows]
    ours = rows_data(shown.rows)
    assert [row["type"] for row in ours] == [1] * 5
    assert [row["components"] for row in ours] == expected
    assert ours[0]["components"][0] == {"type": 2, "style": 1, "label": "0.0",
                                        "custom_id": "stb:choose:g1:3:00"}  # fmt: skip


def test_a_finished_game_has_no_rows() -> None:
    assert rows_data(view(rows=0).rows) == []


def test_the_embed_is_the_one_the_bot_posts_through_discord_py() -> None:
    """The REST posts' `Embed` is read from the same JSON: one text form for a screen."""
    shown = view(picture="tok")
    data = embed_data(shown, LINKS)
    assert game_embed(shown, LINKS).to_dict() == {**data, "flags": 0}
    assert data["description"] == "Roll! ⏱ <t:1700000000:R>"
    assert len(data["title"]) == 256


def test_the_picture_is_the_signed_link_else_the_attachment() -> None:
    shown = view(picture="tok")
    assert embed_data(shown, LINKS)["image"]["url"].startswith("https://bot.example.org/board/tok")
    assert embed_data(shown)["image"] == {"url": "attachment://board.png"}
    assert "image" not in embed_data(view())


def test_the_colour_says_lobby_playing_or_over() -> None:
    assert embed_data(view(join=True))["color"] == LOBBY_COLOUR == 0x5865F2
    assert embed_data(view())["color"] == PLAYING_COLOUR
    assert embed_data(view(over=True))["color"] == OVER_COLOUR
