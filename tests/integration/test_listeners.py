"""The listeners tell `/shutbox web` the truth: a page needs the public URL and a public
listener to serve it on."""

from __future__ import annotations

import pytest

from bot.listeners import serving_listeners
from bot.runtime import Runtime
from bot.sections import Settings
from tests.integration.test_health import runtime

__all__ = ["runtime"]

URL = "https://shutbox.example/"


@pytest.fixture(autouse=True)
def quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHUTBOX_HEALTH_PORT", "0")
    monkeypatch.setenv("SHUTBOX_PUBLIC_HOST", "127.0.0.1")
    monkeypatch.delenv("SHUTBOX_PUBLIC_URL", raising=False)


async def test_without_a_public_url_web_names_the_missing_address(runtime: Runtime) -> None:
    async with serving_listeners(Settings(), runtime):
        assert (runtime.manager.public_url, runtime.manager.no_pages) == ("", "web.no_address")


async def test_with_the_public_listener_off_web_says_so(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHUTBOX_PUBLIC_URL", URL)
    monkeypatch.setenv("SHUTBOX_PUBLIC_PORT", "0")
    async with serving_listeners(Settings(), runtime):
        assert (runtime.manager.public_url, runtime.manager.no_pages) == ("", "web.no_listener")


async def test_with_both_the_pages_are_linked(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch, unused_tcp_port: int
) -> None:
    monkeypatch.setenv("SHUTBOX_PUBLIC_URL", URL)
    monkeypatch.setenv("SHUTBOX_PUBLIC_PORT", str(unused_tcp_port))
    async with serving_listeners(Settings(), runtime):
        assert runtime.manager.public_url == URL
