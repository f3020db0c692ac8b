"""The `shutbox` command line: odds, simulate and verify, run through `main`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from core.game.dice import FairDice, MatchRecord

SERVER_SEED = "ab" * 32


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def match_record(rolls: int = 6) -> MatchRecord:
    dice = FairDice(SERVER_SEED, "channel:1")
    return dice.record([dice.roll(2) for _ in range(rolls)])


def test_odds_hard_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`odds --hard --json` gives hard mode's chance to shut, as a float and an exact fraction."""
    data = run_json(capsys, "odds", "--hard", "--json")
    assert str(data["p_shut"]).startswith("0.0714316")
    assert data["p_shut_exact"] == "466473281/6530347008"
    assert data["rules"] == "t9.d2.any.hard.sum"


def test_odds_classic_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`odds --json` gives the classic figures and the best first move for every total."""
    data = run_json(capsys, "odds", "--json")
    assert str(data["p_shut"]).startswith("0.0976137")
    assert data["p_shut_exact"] == "956177159/9795520512"
    assert isinstance(data["expected_score"], float) and isinstance(data["expected_count"], float)
    moves = data["best_first_moves"]
    assert isinstance(moves, dict) and list(moves) == [str(total) for total in range(2, 13)]
    assert moves["9"] == "9"


def test_odds_dice_rules_list_each_pair_of_dice(capsys: pytest.CaptureFixture[str]) -> None:
    """Under sailors' rules the first moves are per pair of dice, and 5-5 closes nothing."""
    data = run_json(capsys, "odds", "--preset", "sailors", "--json")
    moves = data["best_first_moves"]
    assert isinstance(moves, dict) and len(moves) == 21
    assert moves["5-5"] is None and moves["3-6"] == "9"


def test_odds_twelve_tiles_skip_the_exact_fraction(capsys: pytest.CaptureFixture[str]) -> None:
    """With 12 tiles the exact fraction is null unless asked for."""
    assert run_json(capsys, "odds", "--tiles", "12", "--json")["p_shut_exact"] is None


def test_odds_table_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json, odds prints the figures and a roll/move table."""
    assert main(["odds"]) == 0
    out = capsys.readouterr().out
    assert "Chance to shut the box" in out and "9.7614%" in out and "9+1" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dice", "3"], "Three dice need the 12-tile box"),
        (["--last-die"], "last-die option only works"),
        (["--preset", "nope"], "Unknown preset"),
        (["--tiles", "11"], "invalid choice: 11"),
    ],
)
def test_bad_rules_options_exit_2_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Rules that make no sense end with exit code 2 and say what is wrong on stderr."""
    assert main(["odds", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and not captured.out


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate --json` reports the measured and predicted figures for a small run."""
    data = run_json(capsys, "simulate", "--games", "200", "--policy", "optimal", "--json")
    for key in ("games", "shut_rate", "mean_score", "games_per_second"):
        assert key in data
    for key in ("expected_shut_rate", "z_score"):
        assert key in data
    assert data["games"] == 200
    shut_rate = data["shut_rate"]
    assert isinstance(shut_rate, float) and 0.0 <= shut_rate <= 1.0


def test_simulate_splits_games_over_workers(capsys: pytest.CaptureFixture[str]) -> None:
    """With two workers all the games are still played, and the run is reproducible."""
    argv = ("simulate", "--games", "101", "--policy", "random", "--workers", "2", "--json")
    first = run_json(capsys, *argv)
    second = run_json(capsys, *argv)
    assert first["games"] == 101 and first["shut_rate"] == second["shut_rate"]


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json, simulate prints a measured/predicted table."""
    assert main(["simulate", "--games", "50", "--policy", "greedy", "--preset", "hard"]) == 0
    out = capsys.readouterr().out
    assert "shut the box" in out and "games/s" in out


def test_simulate_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    """`--games 0` is a bad command line."""
    assert main(["simulate", "--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_verify_ok_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A genuine record read from a file checks out: exit 0."""
    path = tmp_path / "record.json"
    path.write_text(match_record().to_json())
    assert main(["verify", str(path)]) == 0
    assert "all 6 rolls check out" in capsys.readouterr().out


def test_verify_ok_from_text_and_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record may be given as JSON text or on stdin with `-`."""
    text = match_record().to_json()
    assert main(["verify", text]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["verify", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["ok"] is True


def test_verify_tampered_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """A changed roll fails with exit 1, naming the first roll that differs."""
    record = match_record()
    rolls = list(record.rolls)
    rolls[2] = (7 - rolls[2][0], rolls[2][1])
    tampered = MatchRecord(record.commitment, record.server_seed, record.client_seed, tuple(rolls))
    assert main(["verify", tampered.to_json()]) == 1
    assert "roll 3 (nonce 2)" in capsys.readouterr().out


def test_verify_wrong_commitment(capsys: pytest.CaptureFixture[str]) -> None:
    """A seed that does not hash to the commitment fails with exit 1."""
    record = match_record()
    forged = MatchRecord("0" * 64, record.server_seed, record.client_seed, record.rolls)
    assert main(["verify", forged.to_json()]) == 1
    assert "commitment" in capsys.readouterr().out


@pytest.mark.parametrize("source", ["/no/such/record.json", '{"scheme": "other"}'])
def test_verify_unreadable_input(capsys: pytest.CaptureFixture[str], source: str) -> None:
    """A missing file or text that is not a match record ends with exit 2."""
    assert main(["verify", source]) == 2
    assert capsys.readouterr().err.startswith("shutbox: ")


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    """`shutbox` alone lists the commands and exits 2."""
    assert main([]) == 2
    assert "odds" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--games", "0"],
        ["bench", "--games", "²"],
        ["bench", "--in-flight", "9" * 5000],
        ["slack", "--port", "99999"],
        ["discord", "--shard-count", "0"],
    ],
)
def test_numbers_out_of_range_on_the_command_line_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A count or port out of range is refused by the parser, naming the option and range."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "must be a whole number from" in err and "Traceback" not in err


def test_simulate_long_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate --format long` plays long games and reports the closer's measured and
    predicted win rates, three dice on twelve tiles included."""
    argv = ("simulate", "--format", "long", "--games", "60", "--tiles", "12", "--dice", "3")
    data = run_json(capsys, *argv, "--json")
    assert data["format"] == "long" and data["games"] == 60
    assert data["rules"] == "t12.d3.any.1d.sum"
    expected = data["expected_closer_win_rate"]
    assert isinstance(expected, float) and 0.4 < expected < 0.7


def test_simulate_long_text_and_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    """The text table names the closer's wins; rules that can't shut the box are refused."""
    assert main(["simulate", "--format", "long", "--games", "20"]) == 0
    assert "closer wins" in capsys.readouterr().out
    assert main(["simulate", "--format", "long", "--close", "separate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "can shut the box" in err


def test_a_ctrl_c_that_stops_a_command_says_so_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup or restore cut short must not exit 0 as if it had finished."""

    def interrupted(*_: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("bot.commands.odds.run", interrupted)
    assert main(["odds"]) == 130
    assert capsys.readouterr().err == "shutbox: interrupted before it finished\n"
