"""The commit's wire format: the script's KEYS and ARGV, and what its JSON answer means.

`core/store/lua/commit.lua` reads exactly this: KEYS 1 req, 2 game, 3-8 the server's shared keys,
9 last, 10 held (the chips running staked games hold, per player), then the stats keys, then
the member's rate-limit counter when a click's count rides along; ARGV the commit as JSON, the
record and the result beside it.
"""

from __future__ import annotations

import math
from typing import Any

from core.service.model import keys as named
from core.service.model import wire
from core.service.model.commit import MINT, Commit, CommitResult, Scope, Status, StoreOp
from core.service.model.rate_limits import TooFast, take_pending_hit

SHARED_KEYS = (
    named.BALANCES,
    named.JOURNAL,
    named.DEADLINES,
    named.DAILY,
    named.board("chips"),
    named.CHECKPOINT,
)  # KEYS 3-8
JOURNAL_KEEP = 10_000  # journal entries kept in the stream; older ones live in the checkpoint
JOURNAL_FOLD = 500  # entries one commit folds into the checkpoint once the journal is full
VOID_PREFIX = "~void:"  # a request key's value for attempts declared not applied
# After a commit's reply was lost: its result if the request applied, else the attempt is made
# void, atomically, so a copy of it still on its way can never apply afterwards.
RESOLVE_LUA = (
    "local stored = redis.call('GET', KEYS[1]) "
    "if stored and string.sub(stored, 1, 6) ~= '~void:' then return stored end "
    "local voided = stored and (stored .. ',' .. ARGV[1]) or ('~void:' .. ARGV[1]) "
    "redis.call('SET', KEYS[1], voided, 'EX', ARGV[2]) return false"
)


def server_member(scope: Scope) -> str:
    """How sets of servers name one: `platform:server`."""
    return f"{scope.platform}:{scope.server}"


def scope_of(member: str) -> Scope:
    return Scope(*member.split(":", 1))


def server_key(scope: Scope, name: str) -> str:
    return f"{scope.tag}:{name}"


def commit_keys(commit: Commit) -> list[str]:
    """The script's fixed KEYS; an unused one still names a key of the slot, for Cluster."""
    per_commit = [named.request(commit.request_id or ""), named.game(commit.channel or "")]
    last = named.last_result(commit.channel or "")
    names = (*per_commit, *SHARED_KEYS, last, named.HELD)
    return [server_key(commit.scope, name) for name in names]


def pending_hit(scope: Scope, keys: list[str]) -> list[int] | None:
    """The running click's rate-limit count, to ride in this commit (core/service/rate_limit.py):
    its counter appended to `keys`; the script's `rate` field (key index, limit, window ms)."""
    hit = take_pending_hit(scope)
    if hit is None:
        return None
    keys.append(server_key(scope, named.rate("cmd", hit.user)))  # as core/store/admin_store.py
    return [len(keys), hit.limit.count, max(int(hit.limit.seconds * 1000), 1)]


def refuse_if_too_fast(data: dict[str, Any]) -> None:
    """The script counted the click past its limit and applied nothing."""
    if data["s"] == "too_fast":
        raise TooFast("error.rate_limit", max(1, math.ceil(int(data["ra"]) / 1000)))


def new_server(commit: Commit) -> str | None:
    """`platform:server` when this commit may be the server's first game or first chips."""
    creates_game = commit.channel is not None and commit.expected_version is None
    if commit.ensure_accounts or (creates_game and commit.record is not None):
        return server_member(commit.scope)
    return None


def stat_op(op: StoreOp, key_index: int) -> list[Any]:
    value: int | str = str(op.value) if op.kind in ("hset", "heq", "lcap") else int(op.value)
    return [str(op.kind), key_index, op.field, value]


def arguments(
    commit: Commit, stat_keys: list[str], request_ttl: int, journal: tuple[int, int],
    rate: list[int] | None = None,
) -> list[str]:  # fmt: skip
    """The script's ARGV: the commit as JSON, then the record and the result as they are.

    The two big texts travel beside the JSON, not inside it: escaping them into it and
    decoding them out again in Lua cost more than the rest of the commit.
    """
    small = payload(commit, stat_keys, request_ttl, journal, rate)
    return [small, commit.record or "", commit.result]


def payload(
    commit: Commit, stat_keys: list[str], request_ttl: int, journal: tuple[int, int],
    rate: list[int] | None = None,
) -> str:  # fmt: skip
    """The commit's small fields as JSON; a field left out means "not given"."""
    first_stat_key = 5 + len(SHARED_KEYS)  # after req, game, shared, last and held; 1-based
    index = {key: first_stat_key + position for position, key in enumerate(stat_keys)}
    body: dict[str, Any] = {
        "mint": MINT,
        "req": commit.request_id is not None,
        "ttl": request_ttl,
        "game": commit.channel is not None,
        "ch": commit.channel or "",
        "v": str(commit.version),
        "start": commit.start_balance,
        "ensure": list(commit.ensure_accounts),
        "expect": [[account, amount] for account, amount in commit.expected_balances],
        "tr": [[t.source, t.target, t.amount] for t in commit.transfers],
        "why": commit.journal.reason,
        "jch": commit.journal.channel,
        "stats": [stat_op(op, index[f"{commit.scope.tag}:{op.key}"]) for op in commit.ops],
        "report": list(commit.report_accounts),
        "att": commit.attempt,
        "jk": journal[0],
        "jf": journal[1],
    }
    optional = {
        "ev": None if commit.expected_version is None else str(commit.expected_version),
        "hr": commit.record is not None or None,
        "dl": commit.deadline,
        "stk": list(commit.stakers) or None,
        "hold": [[account, amount] for account, amount in commit.holds] or None,
        "hk": commit.hold_key,
        "keep": commit.keep,
        "daily": commit.daily and [commit.daily.user, commit.daily.now, commit.daily.cooldown],
        "rate": rate,
    }
    body.update({name: value for name, value in optional.items() if value is not None})
    return wire.dumps(body)


def split_stored(stored: str) -> tuple[str, str]:
    """A request key's value: the attempt that applied it, and its result."""
    attempt, _, result = stored.partition("\n")
    return attempt, result


def decode_result(data: dict[str, Any]) -> CommitResult:
    version = data.get("v")
    attempt, result = split_stored(data.get("res", "")) if "res" in data else ("", "")
    return CommitResult(
        status=Status(data["s"]),
        version=None if version is None else int(version),
        record=data.get("r"),
        message=data.get("m") or "",
        result=result,
        applied_by=attempt,
        balances={account: int(amount) for account, amount in data.get("b", {}).items()},
        retry_after=int(data.get("ra", 0)),
        held=int(data.get("hold", 0)),
        held_by_tournament=data.get("ht") == "1",
        damaged=tuple(str(record) for record in data.get("d", ())),
    )
