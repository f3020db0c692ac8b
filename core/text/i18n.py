"""Message catalogs: one flat JSON file per language in `core/text/locales/`, looked up by
dotted key.

Every user-visible text lives in the catalogs (SPEC section 7). Keys are grouped by area
(`error.*`, `ui.*`, `board.*`, `rules.*`, `format.*`, `stakes.*`); texts use `str.format`
named placeholders such as `{player}`, and every language has the same keys and placeholders.

Counts use the ICU plural form, `{n, plural, one {# chip} other {# chips}}`, chosen by the
language's CLDR plural rule; `#` is the count. Every whole number is written in the language's
number format (`1,234,567` in English, `1.234.567` in Danish, `1 234 567` in Norwegian), by Babel.

A text never types out the presets, formats or stakes: it names them (`{presets}`, `{formats}`,
`{stakes_forms}`), and they are filled from the game's option table as the language lists
alternatives (`classic, hard, …, or twelve`; `…, ten eller twelve`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime, time, timedelta
from functools import cache, lru_cache
from importlib import resources
from string import Formatter
from types import MappingProxyType
from typing import Literal

from babel import Locale
from babel.dates import format_date, format_time, format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from core.game.options import OPTIONS

Lang = Literal["en", "da", "nb"]
LANGS: tuple[Lang, ...] = ("en", "da", "nb")
DEFAULT_LANG: Lang = "en"

# The lists a text may name, filled when the caller gives no value: placeholder -> option.
NAMED_LISTS: Mapping[str, str] = MappingProxyType(
    {"presets": "preset", "formats": "format", "stakes_forms": "stakes"}
)

# Discord reports Norwegian as "no"; Nynorsk users get Bokmål, the closest catalog we have.
_LANG_BY_PRIMARY_TAG: dict[str, Lang] = {"en": "en", "da": "da", "nb": "nb", "no": "nb", "nn": "nb"}


@cache
def normalize_lang(code: str | None) -> Lang:
    """The catalog language for a locale code such as `da-DK` or `no`; English when unknown."""
    if not code:
        return DEFAULT_LANG
    primary_tag = code.strip().lower().replace("_", "-").split("-")[0]
    return _LANG_BY_PRIMARY_TAG.get(primary_tag, DEFAULT_LANG)


def catalog(lang: str) -> Mapping[str, str]:
    """The read-only catalog of a language (any locale code, normalized first)."""
    return _load(normalize_lang(lang))


@cache
def _load(lang: Lang) -> Mapping[str, str]:
    """Read one catalog file from the package data, once per process."""
    text = (resources.files("core.text") / "locales" / f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in data.items()
    ):
        raise ValueError(f"catalog {lang}.json must be a flat object of strings")
    return MappingProxyType(data)


def t(lang: str, key: str, /, **params: object) -> str:
    """The text for `key` in `lang`, falling back to English and then to the key itself."""
    lang, template, plural = _template(lang, key)
    if "{" not in template:
        return template
    if plural:
        template = _choose_plurals(template, lang, params)
    return _fill(template, _Params(lang, _localized(lang, params)))


@lru_cache(maxsize=8192)  # a game view takes about eight texts: look each up once
def _template(lang: str, key: str) -> tuple[str, str, bool]:
    """The language a key's text is in, the text, and whether it has plural blocks."""
    template = catalog(lang).get(key)
    if template is None:
        lang, template = DEFAULT_LANG, catalog(DEFAULT_LANG).get(key, key)
    return lang, template, _PLURAL.search(template) is not None


# `{name, plural, one {...} other {...}}`: the branches hold no braces but `{placeholders}`.
_PLURAL = re.compile(r"\{(\w+), plural,((?:\s*[\w=]+\s*\{(?:[^{}]|\{\w+\})*\})+)\s*\}")
_BRANCH = re.compile(r"([\w=]+)\s*\{((?:[^{}]|\{\w+\})*)\}")


def _choose_plurals(template: str, lang: str, params: Mapping[str, object]) -> str:
    """Each plural block as the branch its count needs, `#` standing for the count."""

    def branch(match: re.Match[str]) -> str:
        name = match.group(1)
        branches: dict[str, str] = dict(_BRANCH.findall(match.group(2)))
        count = params.get(name)
        form = plural_form(lang, count) if isinstance(count, int) else "other"
        chosen = branches.get(f"={count}") or branches.get(form) or branches.get("other", "")
        return chosen.replace("#", "{" + name + "}")

    return _PLURAL.sub(branch, template)


def plural_form(lang: str, count: int) -> str:
    """The CLDR plural category of a count: `one` or `other` in our three languages."""
    return str(_locale(normalize_lang(lang)).plural_form(abs(count)))


@lru_cache(maxsize=8192)  # Babel takes ~35 µs a number; a game view shows about six
def number(lang: str, value: int) -> str:
    """A whole number in the language's format, with its thousands separator."""
    return str(format_decimal(value, locale=_locale(normalize_lang(lang))))


def _localized(lang: str, params: Mapping[str, object]) -> dict[str, object]:
    """Whole numbers written the language's way; everything else as given."""
    return {
        name: number(lang, value) if isinstance(value, int) and not isinstance(value, bool)
        else value
        for name, value in params.items()
    }  # fmt: skip


@cache
def _locale(lang: Lang) -> Locale:
    return Locale.parse(lang)


class _Params(dict[str, object]):
    """Format parameters that fill a named list (`{presets}`) the caller left out, and leave
    any other unknown `{name}` in the text instead of failing."""

    def __init__(self, lang: str, params: Mapping[str, object]) -> None:
        super().__init__(params)
        self.lang = lang

    def __missing__(self, name: str) -> str:
        option = NAMED_LISTS.get(name)
        if option is None:
            return "{" + name + "}"
        return join_list(self.lang, list(OPTIONS[option].listed()), style="or")


def _fill(template: str, params: Mapping[str, object]) -> str:
    """Put the parameters into the template; a mismatch shows the raw text rather than crash."""
    try:
        return template.format_map(params)
    except (ValueError, TypeError, IndexError, AttributeError, KeyError):
        return template


def placeholders(text: str) -> set[str]:
    """The names of the `{placeholders}` in a template (`{{` and `}}` are literal braces)."""
    names = set(_plural_names(text))
    for _literal, field, _spec, _conversion in Formatter().parse(_choose_plurals(text, "en", {})):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def _plural_names(text: str) -> list[str]:
    return [match.group(1) for match in _PLURAL.finditer(text)]


def join_list(lang: str, items: list[str], style: Literal["standard", "or"] = "standard") -> str:
    """Items the way the language lists them: `2, 4 og 6` in Danish, `2, 4, and 6` in English;
    alternatives with `style="or"`: `2, 4 eller 6`, `2, 4, or 6`."""
    if not items:
        return ""
    return str(format_list(items, style=style, locale=_locale(normalize_lang(lang))))


def decimal(lang: str, value: float, digits: int = 1) -> str:
    """A number with the language's decimal mark and grouping: `7.3` in English, `7,3` in Danish."""
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    value = round(value, digits)  # by the float's exact value, as Python's own format rounds
    return str(format_decimal(value, format=pattern, locale=_locale(normalize_lang(lang))))


def percent(lang: str, value: float, digits: int = 1) -> str:
    """A share as a percentage the language's way: `9.8%` in English, `9,8 %` in Danish."""
    locale = _locale(normalize_lang(lang))
    pattern = locale.percent_formats[None].pattern  # "#,##0%" in English, "#,##0 %" in Danish
    if digits:
        pattern = pattern.replace("#,##0", "#,##0." + "0" * digits)
    value = round(value, digits + 2)
    return str(format_percent(value, format=pattern, locale=locale))


def day(lang: str, timestamp: float) -> str:
    """A calendar day (UTC) in the language's long format: `December 1, 2026`."""
    when = datetime.fromtimestamp(timestamp, UTC).date()
    return str(format_date(when, format="long", locale=_locale(normalize_lang(lang))))


def clock_time(lang: str, hour: int, minute: int) -> str:
    """A time of day in the language's short format: `12:00 AM`, `00.00`, `00:00`."""
    locale = _locale(normalize_lang(lang))
    return str(format_time(time(hour, minute), format="short", locale=locale))


def relative_time(lang: str, seconds: float) -> str:
    """A moment from now in the language's words: `in 59 seconds`, `om 59 sekunder`; from an
    hour on, hours and minutes (`in 23 hours and 35 minutes`), never rounded to a whole day."""
    hours, minutes = divmod(round(seconds / 60), 60)
    if not hours:
        return str(
            format_timedelta(timedelta(seconds=seconds), add_direction=True, threshold=1.5,
                             locale=_locale(normalize_lang(lang)))
        )  # fmt: skip
    parts = [t(lang, "time.hours", n=hours)]
    if minutes:
        parts.append(t(lang, "time.minutes", n=minutes))
    return t(lang, "time.in", duration=join_list(lang, parts))


def _load_locale_data() -> None:
    """Read each language's CLDR data once, at import: the first click must not wait for it."""
    for lang in LANGS:
        number(lang, 1234)
        join_list(lang, ["1", "2", "3"])
        join_list(lang, ["1", "2", "3"], style="or")
        relative_time(lang, 60)
        percent(lang, 0.5)


_load_locale_data()
