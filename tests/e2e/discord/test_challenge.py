"""The daily challenge in Discord: a private (ephemeral) screen edited through each click's
interaction, one spoiler-free line in the channel, the share only for the player (SPEC 9)."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.service.features.challenge.board import challenge_day
from core.service.features.challenge.day import day_of
from core.service.pipeline.manager import GameManager
from tests.e2e.discord.fake_discord import EPHEMERAL, FakeDiscord, Sent, playing, text_of
from tests.e2e.discord.payloads import User
from tests.e2e.discord.players import ANN, BOB, DAG, SCOPE

MAX_CLICKS = 60


def ephemeral(message: dict[str, object]) -> bool:
    return bool(int(str(message["flags"])) & EPHEMERAL)


async def play_challenge(fake: FakeDiscord, user: User) -> tuple[int, list[Sent]]:
    """`user` runs `/shutbox challenge` and presses the first button until the turn is over;
    returns the private screen's message id and every click's interaction."""
    opened = await fake.answered(await fake.command(user, "challenge"))
    assert opened.answer_type == 4 and opened.ephemeral
    screen = opened.original
    assert screen is not None
    clicks = []
    for _ in range(MAX_CLICKS):
        if not playing(fake.messages[screen]):
            return screen, clicks
        clicks.append(await fake.answered(await fake.click(user, screen)))
    raise AssertionError("the challenge did not end")


async def test_two_members_play_the_day_privately_and_the_channel_gets_one_line_each(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Each screen is ephemeral and edited in place (callback 7); the channel shows no die,
    only `<name> finished challenge #1: …`; the share is an ephemeral follow-up."""
    screens = {}
    for user in (ANN, BOB):
        screen, clicks = await play_challenge(fake, user)
        screens[user.name] = screen
        assert ephemeral(fake.messages[screen])
        assert all(click.answer_type == 7 and click.original == screen for click in clicks)
        last = clicks[-1]
        share = [fake.messages[m] for m in last.followups if ephemeral(fake.messages[m])]
        assert len(share) == 1 and "Shut the Box #1 · " in text_of(share[0])
        assert "In words: Shut the Box challenge 1, " in text_of(share[0])
    public = [text_of(m) for m in fake.channel_messages()]
    assert len(public) == 2
    assert public[0].startswith("Ann finished challenge #1: ") and " left · " in public[0]
    assert public[1].startswith("Bob finished challenge #1: ")
    day = await challenge_day(manager.store, SCOPE, day_of(manager.clock()))
    for screen in screens.values():
        shown = text_of(fake.messages[screen])
        assert shown.startswith("Daily challenge #1") and day.commitment in shown
        assert day.seed not in shown
    assert all(day.seed not in text for text in public)


async def test_a_second_challenge_and_the_board_answer_privately(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    """Bob cannot see today's board before playing; Ann's second try is refused with her
    result and the next start; after playing, Bob's board lists both."""
    await play_challenge(fake, ANN)
    locked = await fake.answered(await fake.command(BOB, "leaderboard", board="challenge"))
    assert locked.ephemeral or all(ephemeral(fake.messages[m]) for m in locked.followups)
    assert "opens once you have played" in _answer_text(fake, locked)
    again = await fake.answered(await fake.command(ANN, "challenge"))
    assert again.ephemeral
    assert again.data["content"].startswith("You have played today’s challenge #1: ")
    assert "Next challenge at 12:00\u202fAM UTC" in again.data["content"]
    await play_challenge(fake, BOB)
    board = await fake.answered(await fake.command(BOB, "leaderboard", board="challenge"))
    text = _answer_text(fake, board)
    assert "**Daily challenge #1** — today’s board" in text and "Ann —" in text


async def test_a_danish_member_reads_the_share_in_danish(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    screen, clicks = await play_challenge(fake, DAG)
    assert text_of(fake.messages[screen]).startswith("Dagens udfordring #1")
    share = [text_of(fake.messages[m]) for m in clicks[-1].followups]
    assert any("Dit resultat til deling" in text and " tilbage · " in text for text in share)
    assert any("Næste udfordring kl. 00.00 UTC" in text for text in share)


def _answer_text(fake: FakeDiscord, sent: Sent) -> str:
    """The text the user got: the answer itself, or the follow-ups after a "thinking" one."""
    texts = [str(sent.data.get("content") or "")]
    texts += [text_of(fake.messages[m]) for m in sent.followups]
    if sent.original is not None:
        texts.append(text_of(fake.messages[sent.original]))
    return "\n".join(texts)
