"""Review in Discord: the Review button of a finished match and `/shutbox review` (SPEC 5)."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.manager.manager import GameManager
from tests.e2e.discord.fake_discord import FakeDiscord, buttons, playing
from tests.e2e.discord.players import ANN, BOB, DAG, play_out, press


async def finished_solo(fake: FakeDiscord, manager: GameManager) -> int:
    opened = await fake.answered(await fake.command(ANN, "solo"))
    assert opened.original is not None
    await play_out(fake, manager, opened.original)
    return opened.original


async def test_the_review_button_answers_the_player_privately(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """After the match only Review is left on the message; Ann's press answers her ephemerally
    with her decisions and accuracy, and the game message stays as it was."""
    game = await finished_solo(fake, manager)
    assert playing(fake.messages[game]) == [] and len(buttons(fake.messages[game])) == 2
    shown = fake.messages[game]

    answer = await press(fake, ANN, game, "review")

    assert answer.answer_type == 4 and answer.ephemeral
    content = answer.data["content"]
    assert content.startswith("**Your play against perfect play**")
    assert "Accuracy " in content and "decisions best" in content
    assert fake.messages[game] == shown


async def test_review_command_and_a_bystanders_press(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """`/shutbox review` gives Ann the same review; Bob, who did not play, is told so."""
    game = await finished_solo(fake, manager)
    by_button = (await press(fake, ANN, game, "review")).data["content"]
    by_command = await fake.answered(await fake.command(ANN, "review"))
    assert by_command.ephemeral and by_command.data["content"] == by_button
    bystander = await press(fake, BOB, game, "review")
    assert bystander.ephemeral
    assert bystander.data["content"].startswith("There is no review of yours for that match")


async def test_a_danish_client_reads_that_there_is_nothing_to_review_yet(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """Before any finished match `/shutbox review` says so, in the user's own language."""
    answer = await fake.answered(await fake.command(DAG, "review"))
    assert answer.ephemeral
    assert answer.data["content"].startswith("Du har endnu ingen afsluttet kamp i denne kanal")
