"""The message catalogs: complete in every language, consistent placeholders, safe lookups."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from core.game import errors
from core.game.errors import InvalidRules, ShutboxError
from core.game.match import FormatKind, StakesKind
from core.game.options import OPTIONS
from core.game.rules import PRESETS, RULE_OPTIONS, CloseRule, Rules, Scoring, build_rules, preset
from core.text import i18n
from core.text.i18n import LANGS, NAMED_LISTS, catalog, normalize_lang, placeholders, t

CORE = Path(__file__).resolve().parents[4] / "core"
LOCALES = CORE / "text" / "locales"
KEY_PREFIXES = (
    "error", "game", "lobby", "notice", "summary", "hint", "ui",
    "board", "economy", "stats", "config", "odds", "help", "audit",
)  # fmt: skip
KEY_LITERAL = re.compile(rf"""["']((?:{"|".join(KEY_PREFIXES)})\.[a-z0-9_.-]*)["']""")


def _error_classes(base: type[ShutboxError] = ShutboxError) -> Iterator[type[ShutboxError]]:
    yield base
    for sub in base.__subclasses__():
        yield from _error_classes(sub)


def test_every_language_has_the_same_keys_as_english() -> None:
    """No catalog misses a key or carries one English lacks."""
    english = set(catalog("en"))
    for lang in LANGS:
        assert set(catalog(lang)) == english, lang


def test_no_text_is_empty() -> None:
    """Every value is a non-blank string."""
    for lang in LANGS:
        blank = [key for key, text in catalog(lang).items() if not text.strip()]
        assert not blank, (lang, blank)


def test_placeholders_match_across_languages() -> None:
    """A translation uses exactly the `{placeholders}` of the English text."""
    english = catalog("en")
    for lang in LANGS:
        for key, text in catalog(lang).items():
            assert placeholders(text) == placeholders(english[key]), (lang, key)


def test_placeholders_are_named() -> None:
    """Only named placeholders: `{}` or `{0}` could not be filled by keyword."""
    for lang in LANGS:
        for key, text in catalog(lang).items():
            for name in placeholders(text):
                assert name.isidentifier(), (lang, key, name)


def test_catalog_files_are_sorted_and_pretty() -> None:
    """Files stay sorted, indented by 2 and unescaped so new keys merge cleanly."""
    for lang in LANGS:
        raw = (LOCALES / f"{lang}.json").read_text(encoding="utf-8")
        data = json.loads(raw)
        assert raw == json.dumps(dict(sorted(data.items())), indent=2, ensure_ascii=False) + "\n"


def test_catalog_is_read_only() -> None:
    """Callers cannot change the shared catalog by accident."""
    table = catalog("en")
    with pytest.raises(TypeError):
        table["ui.roll"] = "changed"  # type: ignore[index]


def test_every_error_class_key_exists() -> None:
    """Each `ShutboxError` subclass names a key present in every catalog."""
    for cls in _error_classes():
        for lang in LANGS:
            assert cls.key in catalog(lang), (cls.__name__, lang)


def test_key_literals_in_core_exist() -> None:
    """Every literal message key under `core/` is in English (f-string stems end in `.`)."""
    keys = {
        key
        for path in CORE.rglob("*.py")
        for key in KEY_LITERAL.findall(path.read_text(encoding="utf-8"))
        if not key.endswith(".")
    }
    assert {"error.no_game", "game.roll", "help.footer"} <= keys
    missing = keys - set(catalog("en"))
    assert not missing, sorted(missing)


INVALID_RULES: list[Callable[[], object]] = [
    lambda: Rules(tiles=8),
    lambda: Rules(dice=4),
    lambda: Rules(dice=3),
    lambda: Rules(tiles=12, dice=3, close=CloseRule.DICE),
    lambda: Rules(last_die=True),
    lambda: Rules.from_str("nonsense"),
    lambda: preset("foo"),
    lambda: build_rules(close="diagonal"),
    lambda: build_rules(scoring="highest"),
]


@pytest.mark.parametrize("make", INVALID_RULES)
@pytest.mark.parametrize("lang", LANGS)
def test_rules_errors_are_translated_with_their_parameters(
    make: Callable[[], object], lang: str
) -> None:
    """Each rules error has a message whose placeholders are exactly the raised parameters."""
    with pytest.raises(InvalidRules) as caught:
        make()
    template = catalog(lang)[caught.value.key]
    assert placeholders(template) - set(NAMED_LISTS) == set(caught.value.params)
    assert "{" not in t(lang, caught.value.key, **caught.value.params)


def test_unknown_preset_message_lists_the_presets() -> None:
    """The reply names the bad value and what is allowed."""
    with pytest.raises(InvalidRules) as caught:
        preset("foo")
    text = t("en", caught.value.key, **caught.value.params)
    assert "“foo”" in text
    assert all(name in text for name in PRESETS)


def test_texts_name_the_presets_and_get_them_as_the_language_lists_alternatives() -> None:
    """`{presets}` is every preset from the option table: `…, ten, or twelve` in English,
    `…, ten eller twelve` in Danish and Norwegian; no catalog types the list out."""
    assert t("en", "error.rules.text", text="x").endswith("missionary, ten, or twelve.")
    assert t("da", "error.rules.text", text="x").endswith("missionary, ten eller twelve.")
    assert "first-shut eller long" in t("nb", "help.footer")
    for name, option in NAMED_LISTS.items():
        assert option in OPTIONS, name
    typed_out = ", ".join(str(name) for name in OPTIONS["preset"].values[1:3])  # hard, sailors
    for lang in LANGS:
        assert not [key for key, text in catalog(lang).items() if typed_out in text], lang


def test_not_your_turn_names_the_player() -> None:
    """The turn error carries the player's name in every language."""
    for lang in LANGS:
        assert "Ann" in t(lang, errors.NotYourTurn.key, player="Ann")


def _rule_groups() -> Iterator[str]:
    yield from (f"rules.preset.{name}" for name in PRESETS)
    yield from (f"rules.close.{rule.value}" for rule in CloseRule)
    yield from (f"rules.scoring.{scoring.value}" for scoring in Scoring)
    yield from (f"rules.{option.name}" for option in RULE_OPTIONS if option.kind is bool)
    yield from ("rules.one_die", "rules.three_dice")
    yield from (f"format.{kind}" for kind in ("rounds", "to-45", "elimination", "first-shut"))
    yield "format.long"
    yield from (f"stakes.{kind}" for kind in ("none", "pot", "canoga"))


@pytest.mark.parametrize("group", list(_rule_groups()))
def test_every_rule_option_has_a_title_and_description(group: str) -> None:
    """Presets, close rules, options, scorings, formats and stakes are all described."""
    for lang in LANGS:
        assert f"{group}.title" in catalog(lang), (lang, group)
        assert f"{group}.description" in catalog(lang), (lang, group)


def test_match_formats_and_stakes_of_the_engine_are_described() -> None:
    """The engine's format and stakes names each have catalog texts."""
    for kind in FormatKind:
        assert f"format.{kind.value}.title" in catalog("en"), kind
    for stakes in StakesKind:
        assert f"stakes.{stakes.value}.title" in catalog("en"), stakes


def test_danish_and_norwegian_are_translated() -> None:
    """The translations are not English copies (a few shared words like `Start` aside)."""
    english = catalog("en")
    for lang in ("da", "nb"):
        same = [key for key, text in catalog(lang).items() if text == english[key]]
        assert len(same) < len(english) // 10, (lang, same)


def test_catalogs_use_the_rule_sources_vocabulary() -> None:
    """Danish speaks of klapper and kassen, Norwegian of brikker and boksen."""
    danish = " ".join(catalog("da").values())
    norwegian = " ".join(catalog("nb").values())
    assert "klapper" in danish
    assert "kassen" in danish
    assert "brikker" in norwegian
    assert "boksen" in norwegian


@pytest.mark.parametrize(
    ("code", "lang"),
    [
        ("en", "en"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("da", "da"),
        ("da-DK", "da"),
        ("DA_dk", "da"),
        ("no", "nb"),
        ("nb", "nb"),
        ("nn", "nb"),
        ("nb-NO", "nb"),
        ("sv-SE", "en"),
        ("de", "en"),
        ("", "en"),
        ("  ", "en"),
        (None, "en"),
    ],
)
def test_normalize_lang(code: str | None, lang: str) -> None:
    """Locale codes map to a catalog language, English when unknown."""
    assert normalize_lang(code) == lang


def test_t_formats_named_placeholders() -> None:
    """Parameters fill the `{names}` of the text."""
    assert t("en", "board.round_of", n=2, total=5) == "Round 2 of 5"
    assert t("da", "board.round_of", n=2, total=5) == "Runde 2 af 5"
    assert t("nb", "board.round_of", n=2, total=5) == "Runde 2 av 5"


def test_t_accepts_locale_codes() -> None:
    """`t` normalizes the language itself (Discord locales go straight in)."""
    assert t("da-DK", "ui.roll") == catalog("da")["ui.roll"]
    assert t("no", "ui.roll") == catalog("nb")["ui.roll"]
    assert t("fr", "ui.roll") == "Roll"


def test_t_unknown_key_returns_the_key() -> None:
    """A key in no catalog shows as itself instead of failing."""
    assert t("da", "no.such.key", x=1) == "no.such.key"


@pytest.fixture
def fresh_templates() -> Iterator[None]:
    """Texts are looked up once per language and key: a test that swaps the catalogs starts
    and ends with none remembered."""
    i18n._template.cache_clear()
    yield
    i18n._template.cache_clear()


@pytest.mark.usefixtures("fresh_templates")
def test_t_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key missing from a translation uses the English text."""
    english = catalog("en")
    partial = {key: text for key, text in catalog("da").items() if key != "ui.hint"}

    def fake_catalog(lang: str) -> Mapping[str, str]:
        return partial if normalize_lang(lang) == "da" else english

    monkeypatch.setattr(i18n, "catalog", fake_catalog)
    assert t("da", "ui.hint") == english["ui.hint"]
    assert t("da", "ui.roll") == partial["ui.roll"]


@pytest.mark.usefixtures("fresh_templates")
def test_t_never_crashes_on_parameter_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Missing, extra or badly typed parameters still give readable text."""
    assert t("en", "board.round_of", n=2) == "Round 2 of {total}"
    assert t("en", "board.round", n=3, unused="x") == "Round 3"
    texts = {"odd": "{n:d} and {", "spec": "{n:d} left"}
    monkeypatch.setattr(i18n, "catalog", lambda lang: texts)
    assert t("en", "odd", n=1) == "{n:d} and {"
    assert t("en", "spec", n="many") == "{n:d} left"


def test_t_keeps_literal_braces() -> None:
    """Doubled braces in a template are literal braces in the output."""
    assert placeholders("{{not}} a {name}") == {"name"}
    assert i18n._fill("{{x}} {name}", {"name": "y"}) == "{x} y"


def test_placeholders() -> None:
    """Field names come out without format specs, attributes or indexes."""
    assert placeholders("plain") == set()
    assert placeholders("{a} {b:>3} {c!r} {d.e} {f[0]} {a}") == {"a", "b", "c", "d", "f"}


def test_decimals_use_the_language_s_mark() -> None:
    """Danish and Norwegian write 7,3 where English writes 7.3."""
    from core.text.i18n import decimal

    assert (decimal("en", 7.26), decimal("da", 7.26), decimal("no", 12.345, 2)) == (
        "7.3",
        "7,3",
        "12,35",
    )
