"""`/shutbox give` in a Discord server: chips move once, or one private line says why not."""

from __future__ import annotations

import logging

import pytest

from adapters.discord import ShutboxClient
from core.service.features.gifts import GIFT_LIMIT
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, text_of
from tests.e2e.discord.payloads import Forged, User
from tests.e2e.discord.players import ANN, BOB, DAG, MOD, SCOPE

ROBO = User(1_300_000_000_000_000_099, "Robo", bot=True)


async def test_ann_gives_bob_chips_and_the_channel_sees_it(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    """Ann's receipt is private; the gift is announced; both balances and the ledger agree."""
    given = await fake.answered(await fake.command(ANN, "give", player=BOB, amount=20))
    assert given.ephemeral and given.data["content"] == "You gave Bob 20 chips. Your balance: 80."
    await fake.until(lambda: any("🎁 Ann gave Bob 20 chips." in text_of(m)
                                 for m in fake.channel_messages()))  # fmt: skip
    bob = await fake.answered(await fake.command(BOB, "balance"))
    assert bob.data["content"] == "You have 120 chips."
    assert (await store.verify_ledger(SCOPE)).ok


@pytest.mark.parametrize(
    ("target", "amount", "line"),
    [
        (BOB, 0, "You can only give more than 0 chips, not 0."),
        (BOB, -3, "You can only give more than 0 chips, not -3."),
        (BOB, 101, "You have only 100 chips, so you can’t give 101."),
        (
            BOB,
            GIFT_LIMIT + 1,
            f"You can give at most {GIFT_LIMIT:,} chips at once, not {GIFT_LIMIT + 1:,}.",
        ),
        (ANN, 5, "You can’t give chips to yourself."),
        (ROBO, 5, "Robo is a bot, and bots don’t keep chips."),
    ],
)
async def test_each_refused_gift_is_one_private_line(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore, target: User, amount: int, line: str
) -> None:
    refused = await fake.answered(await fake.command(ANN, "give", player=target, amount=amount))
    assert refused.ephemeral and refused.data["content"] == line
    assert await store.balances(SCOPE, [str(BOB.id), str(ANN.id)]) == {}


async def test_a_danish_client_is_refused_in_danish(fake: FakeDiscord, bot: ShutboxClient) -> None:
    refused = await fake.answered(await fake.command(DAG, "give", player=DAG, amount=5))
    assert refused.data["content"] == "Du kan ikke give jetoner til dig selv."


async def test_rank_places_the_giver_and_the_receiver_on_the_chips_board(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    """After Ann gives Bob 20 chips, `/shutbox rank` puts Bob first and Ann second by chips."""
    await fake.answered(await fake.command(ANN, "give", player=BOB, amount=20))
    mine = await fake.answered(await fake.command(ANN, "rank"))
    assert not mine.ephemeral and mine.data["content"] == "**Where Ann stands**\n#2 of 2 by chips"
    bobs = await fake.answered(await fake.command(ANN, "rank", player=BOB))
    assert bobs.data["content"] == "**Where Bob stands**\n#1 of 2 by chips"


STRANGER = User(1_300_000_000_000_000_077, "Stranger", guild_member=False)
ABSENT = (
    "That isn’t a member of this server (or the account was deactivated), so no chips were moved."
)


async def test_chips_go_only_to_members_of_the_server(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    """A user Discord does not resolve as a member of this guild gets no gift and no grant;
    an admin's grant to a bot is refused too. No account appears."""
    gift = await fake.answered(await fake.command(ANN, "give", player=STRANGER, amount=5))
    assert gift.ephemeral and gift.data["content"] == ABSENT
    grant = await fake.answered(await fake.command(MOD, "grant", player=STRANGER, amount=5))
    assert grant.data["content"] == ABSENT
    robo = await fake.answered(await fake.command(MOD, "grant", player=ROBO, amount=5))
    assert robo.data["content"] == "Robo is a bot, and bots don’t keep chips."
    accounts = [str(STRANGER.id), str(ROBO.id), str(ANN.id)]
    assert await store.balances(SCOPE, accounts) == {}


@pytest.mark.parametrize(
    ("command", "options", "line"),
    [
        (
            "give",
            {"player": BOB, "amount": Forged(4, 1.5)},
            "The option amount must be a whole number, not “1.5”.",
        ),
        (
            "give",
            {"player": BOB, "amount": Forged(4, "lots")},
            "The option amount must be a whole number, not “lots”.",
        ),
        (
            "give",
            {"player": BOB, "amount": Forged(4, True)},
            "The option amount must be a whole number, not “True”.",
        ),
        (
            "give",
            {"player": Forged(6, "1300000000000000055"), "amount": 5},
            "The option player must name a member of this server.",
        ),
        (
            "grant",
            {"player": BOB, "amount": Forged(4, 10**12)},
            "The option amount must be a whole number from -1,000,000 to 1,000,000, "
            "not “1000000000000”.",
        ),
        (
            "leaderboard",
            {"season": Forged(4, "abc")},
            "The option season must be a whole number, not “abc”.",
        ),
        ("start", {"fair": Forged(5, "yes")}, "The option fair can’t be “yes”."),
        (
            "config",
            {"start-chips": Forged(4, -5)},
            "The option start-chips must be a whole number from 0 to 1,000,000, not “-5”.",
        ),
    ],
)
async def test_forged_option_values_get_one_private_line(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore, caplog: pytest.LogCaptureFixture,
    command: str, options: dict[str, object], line: str,
) -> None:  # fmt: skip
    """Values Discord's client would never send are refused by their registered type, as
    typed text is: never a traceback, never "Something went wrong", never a chip moved."""
    user = MOD if command in ("grant", "config") else ANN
    answer = await fake.answered(await fake.command(user, command, options=options))
    assert answer.ephemeral and answer.data["content"] == line
    assert await store.balances(SCOPE, [str(BOB.id), str(ANN.id)]) == {}
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
