"""Every message in every language, rendered with the counts 0, 1, 2 and 1234567: nouns agree
with their numbers (CLDR plural rules, via Babel) and numbers carry the language's separators."""

from __future__ import annotations

import re

import pytest

from core.text.i18n import (
    LANGS,
    catalog,
    decimal,
    join_list,
    percent,
    placeholders,
    relative_time,
    t,
)

SAMPLES = (0, 1, 2, 1234567)
WRITTEN = {"en": "1,234,567", "da": "1.234.567", "nb": "1\xa0234\xa0567"}
# (singular, plural) of every counted noun the catalogs use.
NOUNS = {
    "en": [("chip", "chips"), ("player", "players"), ("second", "seconds"), ("tile", "tiles"),
           ("turn", "turns"), ("time", "times"), ("die", "dice")],
    "da": [("jeton", "jetoner"), ("spiller", "spillere"), ("sekund", "sekunder"),
           ("klap", "klapper"), ("tur", "ture"), ("gang", "gange"), ("terning", "terninger")],
    "nb": [("sjetong", "sjetonger"), ("spiller", "spillere"), ("sekund", "sekunder"),
           ("brikke", "brikker"), ("tur", "turer"), ("gang", "ganger"), ("terning", "terninger")],
}  # fmt: skip


def _rendered(lang: str, key: str, value: int) -> str:
    template = catalog(lang)[key]
    return t(lang, key, **dict.fromkeys(placeholders(template), value))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("value", SAMPLES)
def test_every_message_renders_with_every_sample_count(lang: str, value: int) -> None:
    """No placeholder or plural syntax is left over, whatever the count."""
    for key in catalog(lang):
        text = _rendered(lang, key, value)
        assert ", plural," not in text, (lang, key, text)
        assert not re.search(r"\{\w+\}", text), (lang, key, text)


@pytest.mark.parametrize("lang", LANGS)
def test_large_numbers_are_written_with_the_language_s_separators(lang: str) -> None:
    """1234567 is never shown raw: 1,234,567 / 1.234.567 / 1 234 567."""
    for key, template in catalog(lang).items():
        if not placeholders(template):
            continue
        text = _rendered(lang, key, 1234567)
        assert "1234567" not in text, (lang, key, text)
        assert WRITTEN[lang] in text, (lang, key, text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("value", SAMPLES)
def test_counted_nouns_agree_with_their_number(lang: str, value: int) -> None:
    """`1 chip`, `2 chips`, `0 chips`; `1 jeton`, `2 jetoner`; never `1 chips` or `1 gange`."""
    shown = WRITTEN[lang] if value == 1234567 else str(value)
    for key in catalog(lang):
        text = _rendered(lang, key, value)
        for singular, plural in NOUNS[lang]:
            wrong = plural if value == 1 else singular
            assert not re.search(rf"(?<![\d.,]){re.escape(shown)} {wrong}\b", text), (
                lang, key, text,
            )  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_every_counted_noun_after_a_placeholder_is_in_a_plural_block(lang: str) -> None:
    """A count written `{n} chips` outside a plural block would read `1 chips`: none is left."""
    nouns = "|".join(re.escape(word) for pair in NOUNS[lang] for word in pair)
    pattern = re.compile(rf"\{{\w+\}} (?:{nouns})\b")
    for key, template in catalog(lang).items():
        outside = re.sub(r"\{\w+, plural,.*?\}\}", "", template)
        assert not pattern.search(outside), (lang, key, template)


def test_decimals_and_percentages_follow_the_language() -> None:
    """Averages and chances: a point in English, a comma in Danish and Norwegian."""
    assert [decimal(lang, 1234.56, 1) for lang in LANGS] == ["1,234.6", "1.234,6", "1\xa0234,6"]
    assert [percent(lang, 0.097614, 2) for lang in LANGS] == ["9.76%", "9,76\xa0%", "9,76\xa0%"]


def test_relative_times_use_the_language_s_words() -> None:
    """A deadline reads `in 59 seconds`, `om 59 sekunder`; ten minutes likewise."""
    assert [relative_time(lang, 59) for lang in LANGS] == [
        "in 59 seconds", "om 59 sekunder", "om 59 sekunder",
    ]  # fmt: skip
    assert relative_time("da", 600) == "om 10 minutter"


def test_lists_use_the_language_s_conjunction() -> None:
    """Winners and tiles are listed with `and`, `og`."""
    assert [join_list(lang, ["Ann", "Bob"]) for lang in LANGS] == [
        "Ann and Bob", "Ann og Bob", "Ann og Bob",
    ]  # fmt: skip
