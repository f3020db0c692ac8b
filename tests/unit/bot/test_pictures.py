"""Which key signs the picture URLs, and when there are none to hand out."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.pictures import derived_key
from bot.pictures import picture_links
from bot.sections import Settings


@pytest.fixture(autouse=True)
def clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    for name in ("SHUTBOX_PUBLIC_URL", "SHUTBOX_IMAGE_SECRET", "SLACK_SIGNING_SECRET"):
        monkeypatch.delenv(name, raising=False)


def test_no_public_address_no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "s3cret")
    assert picture_links(Settings()) is None


def test_the_image_secret_signs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHUTBOX_PUBLIC_URL", "https://bot.example.org")
    monkeypatch.setenv("SHUTBOX_IMAGE_SECRET", "picture key")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "s3cret")
    links = picture_links(Settings())
    assert links is not None and links.key == derived_key("picture key")
    assert links.url("9.1ff..-.").startswith("https://bot.example.org/board/9.1ff..-..png?s=")


def test_else_a_key_derived_from_slacks_signing_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHUTBOX_PUBLIC_URL", "https://bot.example.org/")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "s3cret")
    links = picture_links(Settings())
    assert links is not None and links.key == derived_key("s3cret")


def test_an_address_without_any_secret_gives_no_pictures(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SHUTBOX_PUBLIC_URL", "https://bot.example.org")
    assert picture_links(Settings()) is None
    assert "set SHUTBOX_IMAGE_SECRET" in caplog.text
