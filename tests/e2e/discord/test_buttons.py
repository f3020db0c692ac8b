"""Game buttons: who may press them, outdated and repeated clicks, and clicks after a restart."""

from __future__ import annotations

import copy

from adapters.discord import ShutboxClient
from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.conftest import SEED, running
from tests.e2e.discord.fake_discord import FakeDiscord, buttons, text_of
from tests.e2e.discord.payloads import User
from tests.e2e.discord.players import ANN, BOB, press, version


async def solo_game(fake: FakeDiscord, user: User = ANN) -> int:
    """`user` starts a solo game; returns the game message's id."""
    opened = await fake.answered(await fake.command(user, "solo"))
    assert opened.original is not None
    return opened.original


async def test_a_click_by_someone_else_gets_a_private_note_and_changes_nothing(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Bob pressing Roll in Ann's game is told privately whose turn it is."""
    game = await solo_game(fake)
    before = copy.deepcopy(fake.messages[game])
    before_version = await version(manager)

    answer = await press(fake, BOB, game, "roll")

    assert answer.answer_type == 4 and answer.ephemeral
    assert answer.data["content"] == "It is Ann’s turn. Please wait for yours."
    assert fake.messages[game] == before
    assert await version(manager) == before_version


async def test_a_click_on_an_outdated_message_gets_a_private_note(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Pressing Roll again on a copy of the message from before the roll changes nothing: the
    clicked message is brought up to the game as it stands, and the note comes privately."""
    game = await solo_game(fake)
    outdated = copy.deepcopy(fake.messages[game])
    await press(fake, ANN, game, "roll")
    after_roll = copy.deepcopy(fake.messages[game])
    before_version = await version(manager)

    roll = buttons(outdated)[0]["custom_id"]
    answer = await fake.answered(await fake.click(ANN, game, roll, snapshot=outdated))
    await fake.until(lambda: bool(answer.followups))

    assert answer.answer_type == 7  # the clicked message, edited to the current game
    (note,) = [fake.messages[m] for m in answer.followups]
    assert int(note.get("flags") or 0) & 64
    assert note["content"] == (
        "That button belongs to an earlier moment of the game; "
        "the game message now shows where it stands."
    )
    assert fake.messages[game]["embeds"] == after_roll["embeds"]
    assert await version(manager) == before_version


async def test_the_same_interaction_delivered_twice_is_applied_once(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """A click delivered twice (same interaction id) moves the game one step and is answered
    once, by the delivery that applied it; the bot carries on."""
    game = await solo_game(fake)
    before_version = await version(manager)

    click = await fake.click(ANN, game)
    await fake.until(lambda: click.answer is not None)
    await fake.redeliver(click)
    await fake.settle()
    assert len(click.callbacks) == 1

    assert click.answer_type == 7
    assert await version(manager) == before_version + 1
    assert "rolled" in text_of(fake.messages[game])
    later = await fake.answered(await fake.click(ANN, game))
    assert later.answer_type == 7  # the bot still answers the next click


async def test_a_button_posted_before_a_restart_still_works(
    fake: FakeDiscord, store: RedisStore
) -> None:
    """The bot process restarts mid-game (new client, new manager, same Redis): a click on
    the old message's button is dispatched and edits that message."""
    async with running(fake, GameManager(store, dice=SeededDice(SEED))):
        game = await solo_game(fake)
        await press(fake, ANN, game, "roll")
    shown = copy.deepcopy(fake.messages[game])

    fresh = GameManager(store, dice=SeededDice(SEED + 1))
    async with running(fake, fresh):
        answer = await fake.answered(await fake.click(ANN, game))

    assert answer.answer_type == 7 and answer.original == game
    assert fake.messages[game] != shown
    assert "closed" in text_of(fake.messages[game])


async def test_hint_answers_only_the_player_who_asked(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """After a roll, Hint tells Ann privately the best move and her chance to shut the box."""
    game = await solo_game(fake)
    await press(fake, ANN, game, "roll")
    shown = copy.deepcopy(fake.messages[game])

    hint = await press(fake, ANN, game, "hint")

    assert hint.answer_type == 4 and hint.ephemeral
    assert hint.data["content"].startswith("Best: ") and "chance to shut" in hint.data["content"]
    assert fake.messages[game] == shown
