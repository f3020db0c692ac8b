"""Review in Discord: the Review buttons of round and match summaries and of a finished match,
and `/shutbox review` (SPEC 5)."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.service.features.reviews import kept_of, review_text
from core.service.pipeline.manager import GameManager
from tests.e2e.discord.fake_discord import FakeDiscord, Json, buttons, playing, text_of
from tests.e2e.discord.players import ANN, BOB, CID, DAG, by_id, current, play_out, press


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


async def play_round_one(fake: FakeDiscord, manager: GameManager) -> Json:
    """Ann and Bob play the first round of two; the round's summary message is returned."""
    opened = await fake.answered(await fake.command(ANN, "start", rounds=2))
    game = opened.original
    assert game is not None
    await press(fake, BOB, game, "join")
    await press(fake, ANN, game, "begin")
    for _ in range(200):
        found = [m for m in fake.channel_messages() if "**Round 1**" in text_of(m)]
        if found:
            return found[0]
        record = await current(manager)
        assert record is not None and record.state.to_act is not None
        await fake.answered(await fake.click(by_id(record.state.to_act.id), game))
    raise AssertionError("round 1 did not end")


async def test_a_round_summary_reviews_each_players_match_so_far(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Round 1's summary message carries a Review button; Ann's and Bob's presses answer each
    of them privately with their own decisions of the match so far."""
    summary = await play_round_one(fake, manager)
    record = await current(manager)
    assert record is not None and not record.state.over
    assert [b["label"] for b in buttons(summary)] == ["Review"]
    custom_id = str(buttons(summary)[0]["custom_id"])
    assert custom_id.startswith(f"stb:review:{record.game_id}:")

    for user in (ANN, BOB):
        answer = await fake.answered(await fake.click(user, int(summary["id"]), custom_id))
        assert answer.ephemeral
        assert answer.data["content"] == review_text(kept_of(record, str(user.id)), "en")
    bystander = await fake.answered(await fake.click(CID, int(summary["id"]), custom_id))
    assert bystander.data["content"].startswith("There is no review of yours")


async def test_a_long_game_is_reviewed_by_the_chance_to_win(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Ann closes and Bob opens in a long game; after it, the message's Review answers each of
    them privately with their decisions graded by their chance to win the match."""
    opened = await fake.answered(await fake.command(ANN, "start", format="long"))
    game = opened.original
    assert game is not None
    await press(fake, BOB, game, "join")
    await press(fake, ANN, game, "begin")
    await play_out(fake, manager, game)
    assert [b["label"] for b in buttons(fake.messages[game])] == ["Rematch", "Review"]
    for user in (ANN, BOB):
        answer = await press(fake, user, game, "review")
        assert answer.ephemeral
        content = answer.data["content"]
        assert content.startswith(
            "**Your play against perfect play** (aiming for the best chance to win the match)"
        )
        assert "decisions best" in content or "no choices to make" in content
