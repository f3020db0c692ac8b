"""bot/telemetry.py: an unreadable record is counted and logged once, and what the process
remembers of them stays bounded however many servers it serves."""

from __future__ import annotations

import logging

import pytest

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
