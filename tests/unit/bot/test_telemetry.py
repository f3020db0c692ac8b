"""bot/telemetry.py: every handled command counted and timed under its own action and outcome;
an unreadable record is counted and logged once, and what the process remembers of them stays
bounded however many servers it serves."""

from __future__ import annotations

import logging

import pytest

from bot.instrument import ActionRecord, Outcome
from bot.telemetry import UNREADABLE_REMEMBERED, Telemetry
from core.service.model import unreadable
from core.service.model.commit import Scope

# A bot on this many servers, each with one damaged balance, met in turn.
SERVERS = 100_000


def counted(telemetry: Telemetry) -> float:
    found = telemetry.registry.get_sample_value("shutbox_unreadable_records_total",
                                                {"kind": "balance"})  # fmt: skip
    return found or 0.0


def meet(telemetry: Telemetry, servers: range) -> None:
    for server in servers:
        telemetry.unreadable(Scope("discord", str(server)), unreadable.balance("u1", "x"))


@pytest.fixture(autouse=True)
def quiet(caplog: pytest.LogCaptureFixture) -> None:
    """One warning per record met is the point, but 100,000 of them need not be kept here."""
    caplog.set_level(logging.ERROR, "shutbox")


def test_a_record_met_again_is_counted_once() -> None:
    telemetry = Telemetry()
    meet(telemetry, range(3))
    meet(telemetry, range(3))
    assert counted(telemetry) == 3 and telemetry.unreadable_remembered == 3


def test_the_records_remembered_stay_bounded_on_100_000_servers() -> None:
    telemetry = Telemetry()
    meet(telemetry, range(SERVERS))
    assert telemetry.unreadable_remembered == UNREADABLE_REMEMBERED < SERVERS
    assert counted(telemetry) == SERVERS


def test_the_most_recently_met_are_the_ones_remembered() -> None:
    """Past the bound the oldest is forgotten (met again, it is counted again); the latest are
    still known, so a sweep meeting them every minute does not count them every minute."""
    telemetry = Telemetry(unreadable_remembered=100)
    meet(telemetry, range(150))
    meet(telemetry, range(50, 150))
    assert counted(telemetry) == 150
    meet(telemetry, range(1))
    assert counted(telemetry) == 151 and telemetry.unreadable_remembered == 100


def action(name: str, outcome: Outcome) -> ActionRecord:
    return ActionRecord(name, outcome, 0.002, Scope("discord", "42"), "c1", "u7", "r1")


def test_each_action_and_outcome_is_counted_and_timed_on_its_own() -> None:
    telemetry = Telemetry()
    records = [action("click.roll", Outcome.OK)] * 3 + [action("click.roll", Outcome.REFUSED)]
    for record in [*records, action("solo", Outcome.OK)]:
        telemetry.observe(record)

    def sample(name: str, act: str, outcome: str) -> float | None:
        labels = {"action": act, "outcome": outcome}
        return telemetry.registry.get_sample_value(name, labels)

    assert sample("shutbox_actions_total", "click.roll", "ok") == 3
    assert sample("shutbox_actions_total", "click.roll", "refused") == 1
    assert sample("shutbox_actions_total", "solo", "ok") == 1
    assert sample("shutbox_action_seconds_count", "click.roll", "ok") == 3
    assert sample("shutbox_action_seconds_sum", "solo", "ok") == pytest.approx(0.002)
