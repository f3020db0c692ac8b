"""Server settings and start options: bad input says what is wrong and what is allowed."""

from __future__ import annotations

import pytest

from core.game.errors import InvalidOption, InvalidRules, StaleAction
from core.game.match import FormatKind, StakesKind
from core.service.model.buttons import ButtonId, parse_button
from core.service.model.settings import (
    ServerConfig,
    StartOptions,
    options_from_pairs,
    options_from_words,
)
from core.text.i18n import t


def test_key_value_options_build_a_match() -> None:
    """`preset=sailors rounds=5 stakes=pot:5` gives the sailors' rules, 5 rounds, a pot."""
    options = options_from_pairs({"preset": "sailors", "rounds": "5", "stakes": "pot:5"})
    config = options.config(ServerConfig())
    assert config.format.rounds == 5 and config.format.kind is FormatKind.ROUNDS
    assert config.stakes.kind is StakesKind.POT and config.rules.close.value == "sum-or-dice"


@pytest.mark.parametrize(
    ("pairs", "key"),
    [
        ({"colour": "red"}, "error.option.unknown"),
        ({"timer": "soon"}, "error.option.range"),
        ({"timer": "²"}, "error.option.range"),
        ({"timer": "9" * 5000}, "error.option.range"),
        ({"tiles": "١٢"}, "error.option.range"),
        ({"hints": "maybe"}, "error.config.value"),
        ({"rounds": "0"}, "error.option.rounds"),
        ({"rounds": "51"}, "error.option.rounds"),
        ({"stakes": "pot:0"}, "error.option.stake"),
        ({"preset": ""}, "error.option.empty"),
        ({"rounds": "3", "format": "to-45"}, "error.option.conflict"),
        ({"rounds": "²"}, "error.option.range"),
        ({"stakes": "pot:99999999999999999999999"}, "error.option.range"),
        ({"stakes": "canoga:٣"}, "error.option.range"),
    ],
)
def test_bad_options_are_refused(pairs: dict[str, str], key: str) -> None:
    """Unknown keys, text or Unicode digits or 5,000 digits in numbers, 0 rounds are refused
    with a precise message."""
    with pytest.raises(InvalidOption) as error:
        options_from_pairs(pairs).config(ServerConfig())
    assert error.value.key == key


def test_unknown_preset_and_solo_stakes_are_refused() -> None:
    """An unknown preset, or stakes in a solo game, is refused."""
    with pytest.raises(InvalidRules):
        StartOptions(preset="nope").config(ServerConfig())
    with pytest.raises(InvalidOption):
        StartOptions(stakes="pot:5").config(ServerConfig(), solo=True)


def test_server_defaults_apply() -> None:
    """The server's preset and timer are the defaults of a new game."""
    server = ServerConfig().updated("preset", "hard").updated("timer", "90")
    config = StartOptions().config(server)
    assert not config.rules.one_die and config.timer == 90


@pytest.mark.parametrize(
    ("name", "value"), [("lang", "fr"), ("timer", "5"), ("max_players", "11"), ("nope", "1")]
)
def test_server_settings_are_validated(name: str, value: str) -> None:
    """Languages, timers and table sizes outside what is allowed are refused."""
    with pytest.raises(InvalidOption):
        ServerConfig().updated(name, value)


def test_stored_settings_survive_a_round_trip_and_ignore_junk() -> None:
    """Settings read back as written; a broken stored value falls back to the default."""
    config = ServerConfig(lang="da", fair=True, max_players=10)
    assert ServerConfig.from_fields(config.to_fields()) == config
    assert ServerConfig.from_fields({"timer": "soon", "colour": "red"}) == ServerConfig()


def test_button_ids_round_trip_and_forgeries_are_stale() -> None:
    """Button ids parse back; forged ones count as outdated buttons."""
    button = ButtonId("choose", "ab12cd34", 17, 0b110000000)
    assert parse_button(str(button)) == button and len(str(button)) <= 100
    for forged in ("stb:fly:ab:1:1", "stb:roll:ab:-1:2", "stb:roll:a b:1:2", "roll:ab:1:2"):
        with pytest.raises(StaleAction):
            parse_button(forged)


def test_a_bare_preset_and_preset_option_together_are_refused() -> None:
    """`start sailors preset=kids` names the preset twice: one line says so."""
    with pytest.raises(InvalidOption) as error:
        options_from_words({"preset": "kids"}, ["sailors"])
    assert error.value.key == "error.option.twice"
    assert options_from_words({"rounds": "2"}, ["sailors"]).preset == "sailors"


def test_option_errors_read_as_sentences() -> None:
    """Every option error starts with a capital and names the option the way it was typed."""
    assert t("en", "error.option.rounds", max=50, value=0) == (
        "The number of rounds must be 1 to 50, not 0."
    )
    with pytest.raises(InvalidOption) as error:
        options_from_pairs({"rounds": "3", "format": "to-45"})
    assert t("en", error.value.key, **error.value.params) == (
        "The options rounds and format both set how the match ends. Give only one of them."
    )
