"""The game manager against a real Redis: atomic clicks, races, timers, restarts (SPEC 3-5)."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from bot.redis_server import EmbeddedRedis
from core.service.api.commands import AddBot, Begin, Click, Grant, Join, Solo, Start
from core.service.features.gifts import Standing
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager


async def _lobby(table: Table, *players: str, **options: object) -> None:
    host, *others = players
    table.last = await table.manager.handle(table.ctx(host), Start(StartOptions(**options)))  # type: ignore[arg-type]
    for player in others:
        await table.manager.handle(table.ctx(player), Join())
    table.last = await table.manager.handle(table.ctx(host), Begin())


async def test_the_same_click_twice_from_two_managers_is_applied_once(store: RedisStore) -> None:
    """One click delivered twice, concurrently, to two bot processes is applied once."""
    first, second = Table(manager(store)), Table(manager(store))
    await _lobby(first, "Ann", "Bob")
    button = first.button("Roll")
    ctx = first.ctx("Ann", request="same-click")
    replies = await asyncio.gather(
        first.manager.handle(ctx, Click(button)), second.manager.handle(ctx, Click(button))
    )
    assert replies[0] == replies[1]
    record = await manager(store).current(ctx)
    assert record is not None and record.version == first.last.game.version + 1  # type: ignore[union-attr]


async def test_two_different_clicks_on_one_version_one_wins(store: RedisStore) -> None:
    """Two different clicks on the same message: one applies, the other is told it is stale."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob")
    table.last = await table.press("Ann", "Roll")
    moves = [
        b.action_id
        for row in table.last.game.rows
        for b in row
        if "+" in b.label or b.label.isdigit()
    ]  # type: ignore[union-attr]
    other = Table(manager(store))
    replies = await asyncio.gather(
        table.manager.handle(table.ctx("Ann"), Click(moves[0])),
        other.manager.handle(other.ctx("Ann"), Click(moves[1])),
    )
    stale = [r for r in replies if r.private is not None]
    assert len(stale) == 1 and "earlier moment" in stale[0].private  # type: ignore[operator]
    winner = next(r for r in replies if r.private is None)
    # the loser's outdated message is brought up to the winner's version
    assert stale[0].game is not None and winner.game is not None
    assert stale[0].game.version == winner.game.version


async def test_a_new_manager_resumes_every_running_game(store: RedisStore) -> None:
    """A restarted bot (empty cache) picks up every running game where it stood."""
    tables = [Table(manager(store), channel=f"c{i}") for i in range(3)]
    for table in tables:
        await _lobby(table, "Ann", "Bob")
        table.last = await table.press("Ann", "Roll")
    fresh = manager(store)
    for table in tables:
        table.manager = fresh
        reply = await table.play_out()
        assert reply.game is not None and reply.game.over


async def test_wrong_player_and_stale_message_change_nothing(store: RedisStore) -> None:
    """A click by someone else, or on an old message, gets a private reply and changes nothing."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob")
    old = table.button("Roll")
    wrong = await table.manager.handle(table.ctx("Bob"), Click(old))
    assert wrong.game is None and wrong.private is not None and "Ann" in wrong.private
    rolled = await table.press("Ann", "Roll")
    again = await table.manager.handle(table.ctx("Ann"), Click(old))
    assert again.private is not None and "earlier moment" in again.private
    # the outdated message is refreshed to the game as it stands, and nothing moved
    assert again.game is not None and rolled.game is not None
    assert again.game.version == rolled.game.version
    assert again.game.rows == rolled.game.rows


async def test_forged_button_ids_are_refused(store: RedisStore) -> None:
    """A forged or broken button id gets a private reply."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob")
    for forged in ("", "stb:roll", "stb:roll:zz:1:2", "stb:choose:abcd:x:1", "x" * 500):
        reply = await table.manager.handle(table.ctx("Ann"), Click(forged))
        assert reply.private and reply.game is None


async def test_pot_match_conserves_chips_and_the_ledger_verifies(store: RedisStore) -> None:
    """A staked match only moves chips between players and pot; the journal replays to balances."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob", "Cid", stakes="pot:5", format="rounds:3")
    await table.play_out()
    balances = await store.balances(SCOPE, ["ann", "bob", "cid", "pot:c1"])
    assert sum(balances.get(p, 0) for p in ("ann", "bob", "cid")) == 300
    assert balances.get("pot:c1", 0) == 0
    report = await store.verify_ledger(SCOPE)
    assert report.ok and report.entries >= 3 * 3  # three start grants, then antes and payouts
    reasons = [meta["why"] async for _, _, _, meta in store.journal(SCOPE)]
    assert reasons.count("game") >= 6


async def test_a_turn_deadline_auto_plays_and_a_late_click_loses(store: RedisStore) -> None:
    """When a deadline passes the sweep auto-plays the turn; the late click is then stale."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await _lobby(table, "Ann", "Bob", timer=30)
    late = table.button("Roll")
    clock.now += 31
    swept = await table.manager.sweep("test")
    assert len(swept) == 1
    reply = await table.manager.handle(table.ctx("Ann"), Click(late))
    assert reply.private is not None
    assert await table.to_act() == "Bob"


async def test_a_lobby_that_never_starts_closes_after_ten_minutes(store: RedisStore) -> None:
    """An unstarted lobby closes by itself after 10 minutes."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    clock.now += 599
    assert await table.manager.sweep() == []
    clock.now += 2
    [(_, reply)] = await table.manager.sweep()
    assert reply.game is not None and reply.game.over
    assert await table.manager.current(table.ctx("Ann")) is None


async def test_redis_unreachable_then_back(tmp_path: object) -> None:
    """With Redis gone a click gets a clear error, changes nothing, and works once Redis is back."""
    async with EmbeddedRedis(tmp_path) as server:  # type: ignore[arg-type]
        client = aioredis.from_url(server.url, decode_responses=True)
        table = Table(manager(RedisStore(client)))
        await _lobby(table, "Ann", "Bob")
        await server.stop()
        table.manager.resolve_pauses = (0.01, 0.01)
        reply = await table.press("Ann", "Roll")
        # Redis was gone before the click: the connection was refused, so the commit never
        # left the bot and "nothing was changed" is known without a lookup (a reply lost
        # after sending is tests/integration/test_lost_replies.py's)
        assert reply.private is not None and "Nothing was changed" in reply.private
        assert reply.game is None and not table.manager.unresolved
        await server.start()
        assert await table.manager.sweep() == []  # nothing to catch up
        fresh = manager(RedisStore(client))
        record = await fresh.current(table.ctx("Ann"))
        assert record is not None and record.version == table.last.game.version  # type: ignore[union-attr]
        reply = await table.press("Ann", "Roll")
        assert reply.private is None and reply.game is not None
        await client.aclose()


async def test_second_start_points_to_the_running_game(store: RedisStore) -> None:
    """A second start in the same channel points to the running game."""
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    reply = await table.manager.handle(table.ctx("Bob"), Start(StartOptions()))
    assert reply.private is not None and "Ann" in reply.private


async def test_joining_a_staked_game_needs_the_ante(store: RedisStore) -> None:
    """Only a player with chips for the ante may open or join a staked game."""
    table = Table(manager(store))
    too_dear = await table.manager.handle(table.ctx("Ann"), Start(StartOptions(stakes="pot:150")))
    assert too_dear.private is not None and "100" in too_dear.private
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions(stakes="pot:60")))
    await table.manager.handle(
        table.ctx("Admin", admin=True), Grant("bob", "Bob", -50, standing=Standing.MEMBER)
    )
    refused = await table.manager.handle(table.ctx("Bob"), Join())
    assert refused.private is not None and "50" in refused.private
    record = await table.manager.current(table.ctx("Ann"))
    assert record is not None and [s.id for s in record.state.seats] == ["ann"]


async def test_a_provably_fair_match_publishes_a_record_that_verifies(store: RedisStore) -> None:
    """A fair match shows its commitment, then reveals a record whose every roll checks out."""
    from core.game.dice import MatchRecord, SecureDice, verify_record

    table = Table(manager(store, dice=SecureDice()))
    lobby = await table.manager.handle(
        table.ctx("Ann"), Start(StartOptions(fair=True, format="rounds:2"))
    )
    assert lobby.game is not None and "commitment" in lobby.game.body
    await table.manager.handle(table.ctx("Ann"), AddBot())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    final = await table.play_out()
    published = next(text for text in final.public if "shutbox verify" in text)
    record = MatchRecord.from_json(published.rsplit("`", 2)[-2])
    assert len(record.rolls) >= 2 and verify_record(record).ok
    assert record.server_seed in (final.game.body if final.game else "")


async def test_a_fair_solo_game_shows_its_commitment_before_the_first_roll(
    store: RedisStore,
) -> None:
    """Solo has no lobby: its first message, before any die is rolled, carries the commitment,
    which the seed revealed at the end matches."""
    from core.game.dice import SecureDice, commitment

    table = Table(manager(store, dice=SecureDice()))
    table.last = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions(fair=True)))
    record = await table.manager.current(table.ctx("Ann"))
    assert record is not None and record.fair_dice is not None and not record.state.dice
    shown = record.fair_dice.commitment
    assert table.last.game is not None and f"commitment `{shown}`" in table.last.game.body
    final = await table.play_out()
    seed = record.fair_dice.server_seed
    assert final.game is not None and seed in final.game.body and commitment(seed) == shown


async def test_a_repeated_delivery_is_marked_replayed(store: RedisStore) -> None:
    """The second delivery of a click gets the first result, marked so summaries aren't reposted."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob")
    ctx, button = table.ctx("Ann", request="again"), table.button("Roll")
    first = await table.manager.handle(ctx, Click(button))
    second = await manager(store).handle(ctx, Click(button))
    assert first == second and not first.replayed and second.replayed


async def test_the_game_message_id_survives_clicks_planned_before_it_was_kept(
    store: RedisStore,
) -> None:
    """A click planned from a record read before the message id was kept does not lose it."""
    first, second = Table(manager(store)), Table(manager(store))
    await first.manager.handle(first.ctx("Ann"), Start(StartOptions()))
    await second.manager.current(second.ctx("Ann"))  # process two caches the lobby
    await first.manager.attach_message(first.ctx("Ann"), "message-1")
    joined = await second.manager.handle(second.ctx("Bob"), Join())
    assert joined.game is not None and joined.game.message == "message-1"
    fresh = await manager(store).current(first.ctx("Ann"))
    assert fresh is not None and fresh.message == "message-1"
