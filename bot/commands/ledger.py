"""`shutbox ledger verify`: replay each server's chip journal and compare it with the balances."""

from __future__ import annotations

import argparse
import asyncio
import json

from bot.commands import SERVER_FORM, Subparsers
from bot.settings import load_settings
from core.service.model.commit import Scope
from core.store.ledger import WRONG_TYPE
from core.store.redis_store import LedgerReport
from core.store.restore import RESTORING_KEY

MISMATCH = 1


def register(subparsers: Subparsers) -> None:
    """Add `ledger verify` to the command line."""
    parser = subparsers.add_parser("ledger", help="check the chip ledgers", description=__doc__)
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    verify = actions.add_parser("verify", help="replay the journal against the balances")
    verify.add_argument("--server", help=f"only this server, as {SERVER_FORM}")
    verify.add_argument("--json", action="store_true", help="print the reports as JSON")
    verify.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(verify(args.server, as_json=args.json))


async def verify(server: str | None, *, as_json: bool) -> int:
    from bot.runtime import open_runtime

    settings = load_settings()
    async with open_runtime(settings.redis.url, settings.core.data_dir) as runtime:
        if started := str(await runtime.redis.get(RESTORING_KEY) or ""):
            print(f"A restore of {started} did not finish: this Redis holds part of it. Run "
                  f"`shutbox restore {started} --replace` again.")  # fmt: skip
            return MISMATCH
        scopes = [_scope(server)] if server else await runtime.store.servers()
        reports = {f"{s.platform}:{s.server}": await runtime.store.verify_ledger(s) for s in scopes}
    for name, report in reports.items():
        if as_json:
            print(json.dumps({"server": name, "ok": report.ok, "entries": report.entries,
                              "accounts": report.accounts, "total": report.total,
                              "mismatches": report.mismatches,
                              "checkpoint_entries": report.folded,
                              "checkpoint_total": report.checkpoint_total,
                              "unreadable": report.unreadable,
                              "journal_gives": report.journal_gives}))  # fmt: skip
        else:
            print(_describe(name, report))
    if not reports and not as_json:
        print("No chip ledgers yet.")
    return 0 if all(r.ok for r in reports.values()) else MISMATCH


def _scope(text: str) -> Scope:
    platform, _, server = text.partition(":")
    return Scope(platform, server)


def _describe(name: str, report: LedgerReport) -> str:
    if report.ok and report.folded:
        return (f"{name}: OK — from a checkpoint of {report.folded} entries, {report.entries} "
                "journal entries replay to the stored balances.")  # fmt: skip
    if report.ok:
        return f"{name}: OK — {report.entries} journal entries replay to the stored balances."
    wrong = [f"{a}: journal {j}, stored {s}" for a, (j, s) in report.mismatches.items()]
    wrong += [_unreadable(record, value, report) for record, value in report.unreadable.items()]
    if report.total and not any(r.startswith("bal ") for r in report.unreadable):
        wrong.append(f"the balances sum to {report.total}, not 0")
    if report.checkpoint_total and not any(r.startswith("checkpoint ") for r in report.unreadable):
        wrong.append(f"the checkpoint's balances sum to {report.checkpoint_total}, not 0")
    label = "MISMATCH" if len(wrong) > len(report.unreadable) else "UNREADABLE"
    return f"{name}: {label} — {'; '.join(wrong)}"


def _unreadable(record: str, value: str, report: LedgerReport) -> str:
    if value == WRONG_TYPE:
        return f"{record} is a key of another type than the bot keeps there"
    if record.startswith("journal "):
        return f"{record.replace('journal', 'journal entry', 1)} is not a chip movement ({value})"
    account = record.removeprefix("bal ")
    if record.startswith("bal ") and account in report.journal_gives:
        return (f"{record} holds {value!r}, not a whole number (the journal gives "
                f"{report.journal_gives[account]})")  # fmt: skip
    return f"{record} holds {value!r}, not a whole number"
