"""The read-only texts: `/shutbox rules`, `/shutbox odds`, `/shutbox help`."""

from __future__ import annotations

from collections.abc import Callable

from core.game.ai.odds import compute_odds
from core.game.errors import InvalidRules
from core.game.match import FormatKind, StakesKind
from core.game.options import OPTIONS
from core.game.rules import PRESETS, preset
from core.text.i18n import decimal, percent, t
from core.text.render import preset_heading, rules_text


def rules_reply(name: str | None, lang: str) -> str:
    """`rules [preset|format|stakes]`: a preset's rules in full, or what a format or stakes
    mean; anything else is refused with the three lists."""
    topic = (name or "classic").strip().lower()
    if topic in PRESETS:
        return rules_text(topic, lang)
    if topic.rstrip("s") in TOPIC_WORDS:  # the help's own placeholder, typed as it reads
        return TOPIC_WORDS[topic.rstrip("s")](lang)
    kind = topic.partition(":")[0]
    if kind in {fmt.value for fmt in FormatKind}:
        return _explained(lang, f"format.{kind}", topic)
    if kind in {stakes.value for stakes in StakesKind}:
        return _explained(lang, f"stakes.{kind}", topic)
    raise InvalidRules("error.rules.topic", value=name)


def _every_preset(lang: str) -> str:
    return "\n".join(f"**{preset_heading(name, lang)}**: "
                     + t(lang, f"rules.preset.{name}.description") for name in PRESETS)  # fmt: skip


def _every_format(lang: str) -> str:
    return _every_form(lang, "format")


def _every_stakes(lang: str) -> str:
    return _every_form(lang, "stakes")


def _every_form(lang: str, option: str) -> str:
    """Each value of the option explained, headed by the form typed (`pot:A`, `rounds:N`)."""
    forms = OPTIONS[option].listed()
    kinds = (form.partition(":")[0].partition("[")[0] for form in forms)
    return "\n\n".join(_explained(lang, f"{option}.{kind}", form)
                       for kind, form in zip(kinds, forms, strict=True))  # fmt: skip


TOPIC_WORDS: dict[str, Callable[[str], str]] = {
    "preset": _every_preset, "format": _every_format, "stake": _every_stakes,
}  # fmt: skip


def _explained(lang: str, group: str, typed: str) -> str:
    """`**Up to 45** (to-45)` over its description (the typed name only when it differs)."""
    title = t(lang, group + ".title")
    heading = f"**{title}**" if title.casefold() == typed else f"**{title}** ({typed})"
    return f"{heading}\n{t(lang, group + '.description')}"


def odds_text(name: str | None, lang: str) -> str:
    """The optimal-play odds of a preset and its best first moves, from the same computation as
    the command line's `shutbox odds` (aiming for the preset's own scoring)."""
    key = (name or "classic").strip().lower()
    odds = compute_odds(preset(key))
    lines = [
        t(lang, "odds.title", preset=preset_heading(key, lang)),
        t(lang, "odds.shut", chance=percent(lang, odds.p_shut, 2)),
        t(lang, "odds.sum", expected=decimal(lang, odds.expected_score, 2)),
        t(lang, "odds.count", expected=decimal(lang, odds.expected_count, 2)),
        t(lang, f"odds.first_moves.{odds.objective.value}"),
    ]
    lines += [
        t(lang, "odds.no_move", roll=roll)
        if move is None
        else t(lang, "odds.move", roll=roll, move=move)
        for roll, move in odds.best_first_moves.items()
    ]
    return "\n".join(lines)
