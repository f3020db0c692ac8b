"""Slack delivers every request three times: twice at once, then again with X-Slack-Retry-Num.

Whatever arrives, each step of a staked match changes the game once, the game message is posted
once, every summary and grant is announced once, and antes, pots, grants and stats apply once.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from core.service.model.commit import MINT, Scope
from core.store.redis_store import RedisStore
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack
from tests.e2e.slack.test_match import first_move, to_act

SCOPE = Scope("slack", TEAM)
PLAYERS = ("UANN", "UBOB", "UCID")
MAX_CLICKS = 300


async def thrice(slack: Driver, body: str) -> None:
    """Two copies at the same moment, then Slack's own retry."""
    first = await asyncio.gather(slack.post(body), slack.post(body))
    retry = await slack.post(body, retry=1)
    assert [status for status, _ in (*first, retry)] == [200, 200, 200]


async def game_version(store: RedisStore) -> int:
    stored = await store.load(SCOPE, CHANNEL)
    return 0 if stored is None else stored.version


async def one_step(store: RedisStore, fake: FakeSlack, send: Callable[[], Awaitable[None]]) -> None:
    """Send a step three times: the stored game moves exactly one version."""
    before = await game_version(store)
    await send()
    await settle(fake)
    after = await game_version(store)
    assert after in (before + 1, 0), (before, after)  # 0: the step ended the match


async def settle(fake: FakeSlack, quiet: float = 0.3) -> None:
    """Until the fake has seen no call for `quiet` seconds (the app works after its ack)."""
    while True:
        calls = len(fake.calls) + len(fake.responses)
        await asyncio.sleep(quiet)
        if calls == len(fake.calls) + len(fake.responses):
            return


async def test_every_request_three_times_plays_one_match(
    slack: Driver, fake: FakeSlack, store: RedisStore, redis: Redis
) -> None:
    await thrice(slack, slack.command_body("UANN", "grant <@UCID> 50", key="grant",
                                           trigger="t-grant"))  # fmt: skip
    await thrice(slack, slack.command_body("UBOB", "daily", key="daily", trigger="t-daily"))
    await one_step(store, fake, lambda: thrice(slack, slack.command_body(
        "UANN", "start stakes=pot:5 rounds=2", key="start", trigger="t-start")))  # fmt: skip
    [game] = fake.game_messages(CHANNEL)

    def click(user: str, action: str, n: int) -> Callable[[], Awaitable[None]]:
        body = slack.click_body(user, game, action, key=f"k{n}", action_ts=f"1700005000.{n:06d}")
        return lambda: thrice(slack, body)

    await one_step(store, fake, click("UBOB", game.button("Join"), 1))
    await one_step(store, fake, lambda: thrice(slack, slack.command_body(
        "UCID", "join", key="join", trigger="t-join")))  # fmt: skip
    await one_step(store, fake, click("UANN", game.button("Start"), 2))
    for n in range(3, MAX_CLICKS):
        if not game.playing:
            break
        await one_step(store, fake, click(to_act(game), first_move(game), n))
    assert not game.playing and "🏆" in game.body

    assert fake.game_messages(CHANNEL) == [game]
    # A turn call is posted once per turn (each player has a turn in each of the 2 rounds);
    # every other public text once.
    called = Counter(m.text for m in fake.public if m.text.startswith("🎲 <@"))
    assert called and all(count <= 2 for count in called.values()), called
    posted = Counter(m.text for m in fake.public if not m.text.startswith("🎲 <@"))
    assert posted and all(count == 1 for count in posted.values()), posted
    assert sum("Round 1" in text for text in posted) == 1
    assert sum("Round 2" in text for text in posted) == 1
    await assert_chips_applied_once(store)


async def assert_chips_applied_once(store: RedisStore) -> None:
    users = list(PLAYERS)
    balances = await store.balances(SCOPE, [*users, MINT, f"pot:{CHANNEL}"])
    assert sum(balances.values()) == 0 and balances.get(f"pot:{CHANNEL}", 0) == 0
    journal = [entry async for entry in store.journal(SCOPE)]
    grants = [amount for _, target, amount, meta in journal if meta["why"] == "grant"]
    dailies = [target for _, target, _, meta in journal if meta["why"] == "daily"]
    assert grants == [50] and dailies == ["UBOB"]
    # The commit that began the match took one ante from each player, not one per delivery.
    into_pot = [(source, meta["id"].split("-")[0]) for source, target, _, meta in journal
                if target == f"pot:{CHANNEL}"]  # fmt: skip
    first_commit = into_pot[0][1]
    assert sorted(source for source, commit in into_pot if commit == first_commit) == list(PLAYERS)
    for user in users:
        stats = await store.hash(SCOPE, f"stats:{user}")
        assert stats.get("games") == "1", (user, stats)
    assert (await store.verify_ledger(SCOPE)).ok
