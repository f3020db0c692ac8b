"""Message catalogs: one flat JSON file per language in `core/locales/`, looked up by dotted key.

Every user-visible text lives in the catalogs (SPEC section 7). Keys are grouped by area
(`error.*`, `ui.*`, `board.*`, `rules.*`, `format.*`, `stakes.*`); texts use `str.format`
named placeholders such as `{player}`, and every language has the same keys and placeholders.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from string import Formatter
from types import MappingProxyType
from typing import Literal

Lang = Literal["en", "da", "nb"]
LANGS: tuple[Lang, ...] = ("en", "da", "nb")
DEFAULT_LANG: Lang = "en"

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
    text = (resources.files("core") / "locales" / f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in data.items()
    ):
        raise ValueError(f"catalog {lang}.json must be a flat object of strings")
    return MappingProxyType(data)


def t(lang: str, key: str, /, **params: object) -> str:
    """The text for `key` in `lang`, falling back to English and then to the key itself."""
    template = catalog(lang).get(key)
    if template is None:
        template = catalog(DEFAULT_LANG).get(key, key)
    return _fill(template, params)


class _KeepMissing(dict[str, object]):
    """Format parameters that leave an unknown `{name}` in the text instead of failing."""

    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


def _fill(template: str, params: Mapping[str, object]) -> str:
    """Put the parameters into the template; a mismatch shows the raw text rather than crash."""
    try:
        return template.format_map(_KeepMissing(params))
    except (ValueError, TypeError, IndexError, AttributeError, KeyError):
        return template


def placeholders(text: str) -> set[str]:
    """The names of the `{placeholders}` in a template (`{{` and `}}` are literal braces)."""
    names: set[str] = set()
    for _literal, field, _spec, _conversion in Formatter().parse(text):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def decimal(lang: str, value: float, digits: int = 1) -> str:
    """A number with the language's decimal mark: `7.3` in English, `7,3` in Danish."""
    text = f"{value:.{digits}f}"
    return text if normalize_lang(lang) == "en" else text.replace(".", ",")
