"""Whoever applies a step, and however often it is delivered, its summaries are announced once."""

from __future__ import annotations

import asyncio

from core.service.api.commands import Click
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_manager import _lobby


async def test_two_sweepers_on_one_deadline_announce_it_once(store: RedisStore) -> None:
    """Two processes sweep the same passed deadline at once: one applies and shows it, and its
    round summary is posted once; the other has nothing to show."""
    clock = Clock()
    first, second = Table(manager(store, clock=clock)), Table(manager(store, clock=clock))
    await _lobby(first, "Ann", timer=30)  # a solo round: the timeout ends the match
    clock.now += 31

    swept = await asyncio.gather(first.manager.sweep("test"), second.manager.sweep("test"))

    shown = [(scope, reply) for replies in swept for scope, reply in replies]
    assert len(shown) == 1
    scope, reply = shown[0]
    assert reply.public, "the timeout ended the round: it has a summary"
    posted = await asyncio.gather(
        first.manager.publishable(scope, reply), second.manager.publishable(scope, reply)
    )
    assert sorted(map(len, posted)) == [0, len(reply.public)]


async def test_a_repeated_delivery_announces_nothing_the_first_did(store: RedisStore) -> None:
    """The same click delivered twice: both show the game as it stands, one posts the summary."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob", format="rounds:1")
    replies = []
    while (player := await table.to_act()) is not None:
        request = f"click-{len(replies)}"
        button = table.button()
        once = await table.manager.handle(table.ctx(player, request=request), Click(button))
        again = await table.manager.handle(table.ctx(player, request=request), Click(button))
        assert again.replayed and again.game is not None and once.game is not None
        assert again.game.version == once.game.version
        replies.append((once, again))
        table.last = once
    ended = [(once, again) for once, again in replies if once.public]
    assert ended, "the match ended with a summary"
    for once, again in ended:
        texts = [await table.manager.publishable(SCOPE, r) for r in (once, again)]
        assert texts == [once.public, ()]


async def test_a_match_whose_end_was_never_shown_is_shown_by_the_next_click(
    store: RedisStore,
) -> None:
    """The bot ended the match, then died before editing the message or posting the summary:
    a click on the message as it still stands shows the final board and posts the summary."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob", format="rounds:1")
    while True:
        player = await table.to_act()
        assert player is not None
        shown = table.last  # what the channel still shows if this click's answer is lost
        ending = await table.manager.handle(table.ctx(player), Click(table.button()))
        if ending.game is not None and ending.game.over:
            break
        table.last = ending
    assert ending.public

    table.last = shown
    reply = await table.manager.handle(table.ctx("Bob"), Click(table.button()))

    assert reply.private == "That game is over."
    assert reply.game is not None and reply.game.over and reply.game == ending.game
    assert await table.manager.publishable(SCOPE, reply) == ending.public
    assert await table.manager.publishable(SCOPE, ending) == ()  # announced once, by the click
