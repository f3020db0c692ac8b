"""The people in the tests, and how they drive a game message with clicks."""

from __future__ import annotations

from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.pipeline.manager import GameManager
from tests.e2e.discord.fake_discord import FakeDiscord, Sent, buttons, playing
from tests.e2e.discord.payloads import CHANNEL_ID, GUILD_ID, User

ANN = User(1_300_000_000_000_000_001, "Ann")
BOB = User(1_300_000_000_000_000_002, "Bob")
CID = User(1_300_000_000_000_000_003, "Cid")
DAG = User(1_300_000_000_000_000_004, "Dag", locale="da")
NOR = User(1_300_000_000_000_000_005, "Nora", locale="no")
MOD = User(1_300_000_000_000_000_006, "Mod", admin=True)
EVERYONE = (ANN, BOB, CID, DAG, NOR, MOD)

SCOPE = Scope("discord", str(GUILD_ID))
MAX_PRESSES = 400


def by_id(user_id: str) -> User:
    return next(user for user in EVERYONE if str(user.id) == user_id)


async def current(manager: GameManager, channel: int = CHANNEL_ID) -> GameRecord | None:
    """The channel's game as the bot's manager sees it."""
    return await manager.current(Context(SCOPE, str(channel), "watcher", "Watcher"))


async def version(manager: GameManager, channel: int = CHANNEL_ID) -> int:
    """The version of the channel's running game."""
    record = await current(manager, channel)
    assert record is not None
    return record.version


def button_id(fake: FakeDiscord, message_id: int, verb: str) -> str:
    """The custom id of the message's button for `verb` (e.g. `join`, `begin`, `roll`)."""
    found = [str(b["custom_id"]) for b in buttons(fake.messages[message_id])]
    return next(custom for custom in found if custom.split(":")[1] == verb)


async def press(fake: FakeDiscord, user: User, message_id: int, verb: str) -> Sent:
    """`user` presses the button for `verb` and the bot answers."""
    custom_id = button_id(fake, message_id, verb)
    return await fake.answered(await fake.click(user, message_id, custom_id))


async def play_out(
    fake: FakeDiscord, manager: GameManager, message_id: int, *, scope: Scope = SCOPE
) -> list[Sent]:
    """The player to act presses the game message's first button until it has none left."""
    clicks: list[Sent] = []
    for _ in range(MAX_PRESSES):
        if not playing(fake.messages[message_id]):
            return clicks
        channel = fake.messages[message_id]["channel_id"]
        record = await manager.current(Context(scope, channel, "watcher", "Watcher"))
        assert record is not None and record.state.to_act is not None
        player = by_id(record.state.to_act.id)
        clicks.append(await fake.answered(await fake.click(player, message_id)))
    raise AssertionError("the game did not end")
