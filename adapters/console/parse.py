"""Reading what the user typed: names, `key=value` options, button numbers and labels."""

from __future__ import annotations

from core.errors import ShutboxError
from core.i18n import t
from core.manager.settings import ServerConfig, StartOptions, options_from_pairs
from core.views import Button


class UsageError(Exception):
    """A command typed the wrong way; the message shows the right way."""


def user_id(name: str) -> str:
    """The playground's user id for a display name: `Ann Lee` -> `ann-lee`."""
    return "-".join(name.lower().split())


def translate(lang: str, error: ShutboxError) -> str:
    """An error's text. `t(lang, key, **params)` cannot take the `key` placeholder that the
    option and setting errors use, so that one is filled in here."""
    params = dict(error.params)
    named = params.pop("key", None)
    text = t(lang, error.key, **params)
    return text if named is None else text.replace("{key}", str(named))


def split_pairs(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """`key=value` words as a dict, and the words without `=`."""
    pairs = dict(word.split("=", 1) for word in args if "=" in word)
    return pairs, [word for word in args if "=" not in word]


def start_options(args: list[str]) -> StartOptions:
    """`start` options as in Slack (`preset=sailors rounds=5`); one bare word names the preset."""
    pairs, bare = split_pairs(args)
    if len(bare) > 1 or (bare and "preset" in pairs):
        raise UsageError(
            f"Options are key=value (e.g. `rounds=3 stakes=pot:5`), not “{bare[-1]}”. "
            "Type `help` for the keys."
        )
    if bare:
        pairs["preset"] = bare[0]
    return options_from_pairs(pairs)


def find_button(shown: list[Button], text: str) -> Button | None:
    """Button `n` by its number, else by its label (exactly, or by a unique beginning)."""
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(shown):
        return shown[int(text) - 1]
    wanted = "".join(text.casefold().split())
    labels = ["".join(b.label.casefold().split()) for b in shown]
    exact = [b for b, label in zip(shown, labels, strict=True) if label == wanted]
    begun = [b for b, label in zip(shown, labels, strict=True) if label.startswith(wanted)]
    if exact:
        return exact[0]
    return begun[0] if len(begun) == 1 else None


def check_settings(pairs: dict[str, str]) -> None:
    """Refuse a bad `config` change before the manager sees it (see `translate`)."""
    config = ServerConfig()
    for key, value in pairs.items():
        config = config.updated(key, value)
