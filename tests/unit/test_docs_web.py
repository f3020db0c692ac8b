"""What the pages' docs quote is what the bot says: `web`'s three reasons for no page, word for
word from the English catalog, and the limits of the pages and pictures."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.pictures import RENDER_BURST, RENDER_RATE
from adapters.web.guard import BURST, RATE
from adapters.web.names import MAX_NAME
from core.text.i18n import t

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("page", ["WEB.md", "run/page.md"])
@pytest.mark.parametrize("key", ["web.no_address", "web.no_listener", "web.playground"])
def test_the_docs_quote_webs_reasons_word_for_word(page: str, key: str) -> None:
    assert f'"{t("en", key)}"' in (DOCS / page).read_text(encoding="utf-8")


def test_the_limits_quoted_are_the_codes() -> None:
    text = (DOCS / "WEB.md").read_text(encoding="utf-8")
    assert f"a token bucket of {BURST} requests, refilled at {RATE:g} a second" in text
    assert f"{RENDER_BURST} drawn at once, then {RENDER_RATE:g} a second" in text
    assert f"cut to {MAX_NAME} characters" in text


def test_troubleshooting_quotes_the_no_listener_answer() -> None:
    text = (DOCS / "operate" / "troubleshooting.md").read_text(encoding="utf-8")
    assert f'"{t("en", "web.no_listener")}"' in text
