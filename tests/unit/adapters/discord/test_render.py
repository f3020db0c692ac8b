"""Game views as Discord messages: the embed, the countdown, the buttons, message limits."""

from __future__ import annotations

from adapters.discord.buttons import FORGED, TEMPLATE, game_buttons
from adapters.discord.render import MESSAGE_LIMIT, game_embed, jump_url, split_text
from core.service.model.buttons import BUTTON_ID
from core.service.model.views import Button, ButtonStyle, GameView


def view(body: str = "Roll! ⏱ {deadline}", rows: int = 1, deadline: int = 1700000000) -> GameView:
    buttons = tuple(
        tuple(Button(f"stb:choose:g1:3:{r * 10 + c}", f"{r}.{c}") for c in range(7))
        for r in range(rows)
    )
    return GameView("c1", "g1", 3, "Round 1", body, buttons, deadline=deadline)


def test_the_deadline_becomes_a_countdown_the_client_runs() -> None:
    """`{deadline}` turns into Discord's relative timestamp `<t:UNIX:R>`."""
    assert game_embed(view()).description == "Roll! ⏱ <t:1700000000:R>"
    assert game_embed(view(deadline=0)).description == "Roll! ⏱ "


def test_buttons_keep_their_ids_and_fit_five_rows_of_five() -> None:
    """At most 5 rows of 5 buttons; each custom id is the core's id and matches the template."""
    shown = game_buttons(view(rows=7))
    assert shown is not None
    rows = shown.to_components()
    assert len(rows) == 5 and all(len(row["components"]) == 5 for row in rows)
    ids = [item["custom_id"] for row in rows for item in row["components"]]
    assert ids[0] == "stb:choose:g1:3:0" and all(TEMPLATE.fullmatch(i) for i in ids)


def test_the_template_is_the_cores_grammar_and_forged_ids_take_the_rest() -> None:
    """Discord's dynamic buttons match with the core's `BUTTON_ID`; any other `stb:` id, from
    Unicode digits to a trailing newline, falls to the forged-button handler instead."""
    assert TEMPLATE is BUTTON_ID
    for forged in ("stb:roll:g1:²:0", "stb:roll:g1:1:0\n", "stb:fly:g1:1:0", "stb:"):
        assert FORGED.fullmatch(forged) and not TEMPLATE.fullmatch(forged)
    assert not FORGED.fullmatch("stb:roll:g1:1:0")


def test_a_finished_game_has_no_buttons() -> None:
    """A game over shows no buttons at all (the edit removes them)."""
    assert game_buttons(view(rows=0)) is None


def test_long_text_is_split_between_lines_under_the_message_limit() -> None:
    """Texts over 2000 characters go out as several messages, cut at line ends."""
    lines = [f"line {n} " + "x" * 90 for n in range(60)]
    parts = split_text("\n".join(lines))
    assert len(parts) > 1 and all(len(part) <= MESSAGE_LIMIT for part in parts)
    assert "\n".join(parts) == "\n".join(lines)
    assert split_text("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]


def test_a_link_opens_the_game_message() -> None:
    """Jump links point into the guild, or into the DM (`@me`)."""
    assert jump_url(5, "6", "7") == "https://discord.com/channels/5/6/7"
    assert jump_url(None, "6", "7") == "https://discord.com/channels/@me/6/7"


def test_button_styles_follow_the_core() -> None:
    """A core danger button (Cancel) is a red Discord button."""
    danger = GameView(
        "c", "g", 1, "t", "b", ((Button("stb:cancel:g:1:0", "x", ButtonStyle.DANGER),),)
    )
    shown = game_buttons(danger)
    assert shown is not None and shown.children[0].to_component_dict()["style"] == 4
