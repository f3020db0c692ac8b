"""A workspace set to Norwegian gets Norwegian messages (SPEC 7)."""

from __future__ import annotations

from core.service.pipeline.subcommands import NAMES
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message


async def test_an_admin_sets_norwegian_and_the_game_speaks_it(
    slack: Driver, fake: FakeSlack
) -> None:
    """After `/shutbox config lang=nb` by Ann (an admin), the lobby, its buttons, the turn and
    private errors are Norwegian."""
    saved = await slack.say("UANN", "config lang=nb")
    assert saved.startswith("Lagret. Innstillinger: lang=nb")

    await slack.command("UBOB", "start")
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    lobby = found[0]
    labels = [b["text"]["text"] for b in lobby.buttons]
    assert "Bli med" in labels and "Host: Bob" not in lobby.body

    await slack.press("UCID", lobby, lobby.button("Bli med"))
    assert "Cid" in lobby.body
    refused = await fake.reply((await slack.click("UCID", lobby, lobby.button(labels[3]))).key)
    assert refused.text.startswith("Bare verten")

    assert (await slack.say("UCID", "start")).startswith(
        "Det er allerede en åpen lobby i denne kanalen, og du er med i den (vert: Bob);"
    )
    assert await slack.say("UCID", "frobnicate") == (
        f"Det finnes ingen /shutbox-kommando «frobnicate». Kommandoer: {', '.join(NAMES)}."
    )
    assert "Innstillinger" in await slack.say("UCID", "help")
