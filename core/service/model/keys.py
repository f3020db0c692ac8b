"""Every Redis key the bot writes, named in one place so two features can't collide.

A server's keys are named relative to it: the store puts `Scope.tag` (`stb:{platform:server}`)
in front, so all of a server's keys share one Cluster hash slot and one commit script can touch
them all. A feature names a key through this module only (a test holds that no string key is
written anywhere else in core/service/, and that no two names below can be the same key).
Global keys (outside any server's slot) are whole names.
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple


class Key(NamedTuple):
    """One key (or family of keys: `<...>` is filled in), who writes it, and what it holds."""

    pattern: str
    writer: str
    holds: str


# -- a server's keys (relative to `stb:{platform:server}`) ----------------------------------

BALANCES = "bal"  # account -> chips (players, pots, the mint)
HELD = "held"  # account -> chips a running staked game holds
JOURNAL = "journal"  # the stream of every transfer
CHECKPOINT = "checkpoint"  # the journal check's last verified entry
DEADLINES = "deadlines"  # channel -> its next deadline
DAILY = "daily"  # member -> when they last took the daily chips
CONFIG = "cfg"  # the server's settings
NAMES = "names"  # member -> display name
RATINGS = "rating"  # member -> skill
MATCHES = "matches"  # the server's last matches (history)
AUDIT = "audit"  # the admins' audit log
WEB = "web"  # the server page's slug
SEASON = "season"  # the current season's number and start
SEASON_STATS = "season_stats"  # `user|field` -> the current season's stat
CHALLENGE = "challenge"  # the challenge's secret and its first day
CHALLENGE_STREAKS = "challenge:streak"  # member -> their challenge streak
REMATCH_LEGACY = "rematch"  # channel -> last match (kept by older versions)
TOURNAMENTS = "tours"  # channel -> the id of the tournament open or running there
TOURNAMENTS_DONE = "tours:done"  # id -> the channel, for every tournament that is over
TOURNAMENTS_ENDED = "tours:ended"  # channel -> the id of the last tournament that ended there
PINGS_OFF = "ping:off"  # member -> "1" while they asked not to be called


def game(channel: str) -> str:
    return f"game:{channel}"


def request(request_id: str) -> str:
    return f"req:{request_id}"


def season_request(request_id: str) -> str:
    return f"seasonreq:{request_id}"


def stats(user: str) -> str:
    return f"stats:{user}"


def board(name: str) -> str:
    """A leaderboard (`wins`, `chips`, `best:<rules>`, ...)."""
    return f"lb:{name}"


def review(channel: str) -> str:
    return f"review:{channel}"


def rematch(channel: str) -> str:
    return f"rematch:{channel}"


CHALLENGE_DAY_HEAD = "challenge:"  # what a day's attempts key is named after, before the day


def challenge_day(day: date) -> str:
    """Member -> their attempt at `day`'s challenge."""
    return f"{CHALLENGE_DAY_HEAD}{day.isoformat()}"


def challenge_game(day: date, user: str) -> str:
    """The channel a member's challenge game is kept under (its key is `game:<this>`)."""
    return f"challenge:{day.isoformat()}:{user}"


def challenge_games() -> str:
    """The head of every member's challenge game key (`game:challenge:<day>:<user>`)."""
    return game("challenge:")


def last_result(channel: str) -> str:
    """The request that ended the channel's last game, and its result."""
    return f"last:{channel}"


def rate(bucket: str, user: str) -> str:
    """A member's count in a rate limit's bucket (`cmd`, `game`)."""
    return f"rate:{bucket}:{user}"


def claim(name: str) -> str:
    """A claim that something happens once (`announced`, `posted`)."""
    return f"claim:{name}"


def announced(request_id: str) -> str:
    """The claim's name: a reply's public texts announced once."""
    return f"ann:{request_id}"


def posted(message: str) -> str:
    """The claim's name: a game's message posted once."""
    return f"post:{message}"


def tournament(tournament_id: str) -> str:
    """A tournament as its text form, with the version its next write checks."""
    return f"tour:{tournament_id}"


def tournament_results(tournament_id: str) -> str:
    """`<round>:<table>` -> a table's result the tournament may not have counted yet."""
    return f"{tournament(tournament_id)}:results"


def tournament_games(tournament_id: str) -> str:
    """`<round>:<table>` -> the table's match id (the page's replays)."""
    return f"{tournament(tournament_id)}:games"


def archived(season: int, name: str) -> str:
    return f"season:{season}:{name}"


# -- global keys (whole names, outside any server's slot) ----------------------------------

DUE = "stb:{due}"  # server -> a time at or before its earliest deadline
DUE_EPOCH = "stb:{due}:epoch"  # server -> how often a commit brought its deadline forward
TOURNAMENT_STARTS = "stb:{tstarts}"  # `platform:server:id` -> a tournament's UTC start time
SERVERS = "stb:servers"  # every server the bot has seen
WEB_SLUG = "stb:web:"  # `stb:web:<slug>` -> the server whose page it is

KEYS: tuple[Key, ...] = (
    Key(BALANCES, "the commit script", "account -> chips"),
    Key(HELD, "the commit script", "account -> chips a running staked game holds"),
    Key(JOURNAL, "the commit script", "every transfer (a stream)"),
    Key(CHECKPOINT, "shutbox ledger", "the journal check's last verified entry"),
    Key(DEADLINES, "the commit script", "channel -> its next deadline"),
    Key(DAILY, "daily", "member -> their last daily"),
    Key(CONFIG, "config", "the server's settings"),
    Key(NAMES, "stats, economy, gifts", "member -> display name"),
    Key(RATINGS, "ratings", "member -> skill"),
    Key(MATCHES, "history", "the last matches"),
    Key(AUDIT, "audit", "the admins' audit log"),
    Key(WEB, "web", "the page's slug"),
    Key(SEASON, "seasons", "the current season"),
    Key(SEASON_STATS, "stats", "`user|field` -> this season's stat"),
    Key(CHALLENGE, "challenge", "the secret and the first day"),
    Key(CHALLENGE_STREAKS, "challenge", "member -> streak"),
    Key(REMATCH_LEGACY, "older versions", "channel -> last match"),
    Key(TOURNAMENTS, "tournaments", "channel -> its open or running tournament"),
    Key(TOURNAMENTS_DONE, "tournaments", "id -> channel of every finished tournament"),
    Key(TOURNAMENTS_ENDED, "tournaments", "channel -> the last tournament that ended there"),
    Key(PINGS_OFF, "ping", "member -> opted out of turn calls"),
    Key(game("<channel>"), "the commit script", "the channel's game"),
    Key(request("<request>"), "the commit script", "a request's result"),
    Key(season_request("<request>"), "seasons", "a season end's result"),
    Key(stats("<user>"), "stats, reviews", "a member's stats"),
    Key(board("<board>"), "stats, reviews, ratings, the commit script", "a leaderboard"),
    Key(review("<channel>"), "reviews", "member -> their last review here"),
    Key(rematch("<channel>"), "rematch", "the channel's last match"),
    Key("challenge:<YYYY-MM-DD>", "challenge", "member -> their attempt"),
    Key(last_result("<channel>"), "the commit script", "the last game's end"),
    Key(rate("<bucket>", "<user>"), "rate limits", "a member's count"),
    Key(claim(announced("<request>")), "delivery", "announced once"),
    Key(claim(posted("<message>")), "delivery", "posted once"),
    Key("season:<season>:<name>", "seasons", "an ended season"),
    Key(tournament("<id>"), "tournaments", "a tournament"),
    Key(tournament_results("<id>"), "tournament tables", "results not yet counted"),
    Key(tournament_games("<id>"), "tournament tables", "each table's match id"),
    Key(DUE, "the store", "server -> its earliest deadline"),
    Key(DUE_EPOCH, "the store", "server -> deadline epoch"),
    Key(TOURNAMENT_STARTS, "tournaments", "server and id -> its start time"),
    Key(SERVERS, "the store", "every server seen"),
    Key(WEB_SLUG + "<slug>", "web", "slug -> server"),
)
