"""The image style through the manager: which games get a picture, what it shows, and what
`config style=image` says where this process cannot show one."""

from __future__ import annotations

from core.service.api.commands import Configure, Solo, Start
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from core.text.drawn import DrawnBoard
from core.text.render import render_board
from tests.integration.manager_helpers import SCOPE, Table, manager


def picture_table(store: RedisStore, *, pictures: bool) -> Table:
    table = Table(manager(store))
    if pictures:
        table.manager.pictures.add(SCOPE.platform)
    return table


async def test_a_game_shows_the_picture_of_its_box(store: RedisStore) -> None:
    """Image is the default: every view of a running game carries the board's picture, which
    shows the same box and roll as the text board beside it (its alternative text)."""
    table = picture_table(store, pictures=True)
    table.last = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions()))
    for _ in range(6):
        game = table.last.game
        assert game is not None
        record = await table.manager.current(table.ctx("Ann"))
        if record is None:
            break
        drawn = DrawnBoard.from_token(game.picture)
        state = record.state
        assert (drawn.tiles, drawn.open_mask) == (state.config.rules.tiles, state.board)
        assert game.alt == render_board(state.config.rules, state.board, "text")
        assert f"`{game.alt}`" in game.body  # the text board stays in the message
        assert drawn.player == ("Ann" if not state.over else "")
        await table.press("Ann")


async def test_the_picture_shows_the_roll_and_the_pot(store: RedisStore) -> None:
    """A lobby has no picture; once begun, the pot is drawn, and the dice while one chooses."""
    table = picture_table(store, pictures=True)
    table.last = await table.manager.handle(table.ctx("Ann"), Start(StartOptions(stakes="pot:5")))
    assert table.last.game is not None and table.last.game.picture == ""
    await table.press("Bob", "Join")
    await table.press("Ann", "Start")
    record = await table.manager.current(table.ctx("Ann"))
    assert record is not None and table.last.game is not None
    drawn = DrawnBoard.from_token(table.last.game.picture)
    assert drawn.pot == record.pot.total == 10
    player = await table.to_act()
    assert player is not None and drawn.player == player
    if not drawn.dice:  # the first turn may begin with a roll to press
        await table.press(player)
        assert table.last.game is not None
        drawn = DrawnBoard.from_token(table.last.game.picture)
    record = await table.manager.current(table.ctx("Ann"))
    assert record is not None
    assert drawn.dice == record.state.dice and len(drawn.dice) in {1, 2}


async def test_without_pictures_the_default_is_emoji(store: RedisStore) -> None:
    """A process that cannot show pictures on this platform shows new games in emoji."""
    table = picture_table(store, pictures=False)
    reply = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions()))
    assert reply.game is not None and reply.game.picture == ""
    assert "1️⃣" in reply.game.body


async def test_text_and_emoji_styles_have_no_picture(store: RedisStore) -> None:
    """`config style=text` is obeyed even where pictures can be shown."""
    table = picture_table(store, pictures=True)
    await table.manager.handle(table.ctx("Ann", admin=True), Configure({"style": "text"}))
    reply = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions()))
    assert reply.game is not None and reply.game.picture == ""
    assert "| 1 | 2 |" in reply.game.body


async def test_config_style_image_says_why_it_cannot_be_shown(store: RedisStore) -> None:
    """Saved (it applies once the bot has a public address), with the reason on its own line."""
    table = picture_table(store, pictures=False)
    reply = await table.manager.handle(table.ctx("Ann", admin=True), Configure({"style": "image"}))
    assert reply.private is not None
    saved, reason = reply.private.split("\n")
    assert saved.startswith("Saved. Settings: lang=en, style=image,")
    assert reason == (
        "Pictures of the board need the bot's public web address (SHUTBOX_PUBLIC_URL), which "
        "this bot has not been given: new games here show the board as emoji until it is set."
    )


async def test_config_style_image_where_it_can_be_shown_says_nothing_more(
    store: RedisStore,
) -> None:
    table = picture_table(store, pictures=True)
    reply = await table.manager.handle(table.ctx("Ann", admin=True), Configure({"style": "image"}))
    assert reply.private is not None and "\n" not in reply.private
