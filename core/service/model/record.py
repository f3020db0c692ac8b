"""A channel's game as stored in Redis: the engine state plus what only the manager needs."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

from core.game.dice import FairDice
from core.game.payments import pot_account
from core.game.settlement import Pot
from core.game.state import GameState
from core.service.model import unreadable, wire
from core.service.model.turns import Log, Turns, dump, dump_log, last_turns, load, load_log


def new_game_id() -> str:
    return secrets.token_hex(4)


@dataclass(frozen=True, slots=True)
class GameRecord:
    state: GameState
    channel: str
    game_id: str
    lang: str = "en"  # the server's language when the game opened
    style: str = "emoji"
    deadline: int = 0
    message: str = ""  # the platform's id of the game message (stored beside, not inside)
    pot: Pot = field(default_factory=lambda: Pot(""))
    fair: str = ""  # FairDice text in provably fair mode ("" = secure dice)
    rolls: tuple[tuple[int, ...], ...] = ()  # every roll of a fair match, for verification
    created: int = 0
    solo: bool = False
    turns: Turns = ()  # each player's last turn, as the score table shows it
    box: int = -1  # the seat whose box the board shows (the last to play, once it is over)
    # Each human player's graded decisions so far (`core.service.features.reviews`), as (id, text).
    reviews: tuple[tuple[str, str], ...] = ()
    challenge: str = ""  # a daily challenge's day, number and server language (challenge.Tag)
    log: Log = ()  # every turn of the match so far, for the history's replay (turns.logged)
    # The seated players (id, balance) whose chips can't cover the most a staked match can
    # cost them, as of the lobby's last change: the lobby warns them (payments.short_of).
    short: tuple[tuple[str, int], ...] = ()
    tour: str = ""  # a tournament table's link, `<tournament>:<round>:<table>` (tournaments)

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def fair_dice(self) -> FairDice | None:
        return FairDice.from_str(self.fair) if self.fair else None

    def evolve(self, **changes: object) -> GameRecord:
        return replace(self, **changes)  # type: ignore[arg-type]

    def to_str(self) -> str:
        # The channel is not written: it is in the record's key. A field at its usual value is
        # left out too (most games have no fair dice, no pot contributions yet, no reviews...):
        # the record is most of a live game's memory.
        data: dict[str, object] = {
            "s": self.state.to_str(), "g": self.game_id, "d": self.deadline, "t": self.created,
        }  # fmt: skip
        optional = {
            "l": self.lang, "y": self.style, "pa": self.pot.account,
            "pc": self.pot.contributions, "f": self.fair,
            "r": ["".join(map(str, roll)) for roll in self.rolls], "solo": self.solo,
            "tu": dump(self.turns), "bx": self.box, "v": dict(self.reviews), "ch": self.challenge,
            "lg": dump_log(self.log), "sh": [list(pair) for pair in self.short],
            "tn": self.tour,
        }  # fmt: skip
        usual = _usual(self.channel)
        data.update((name, value) for name, value in optional.items() if value != usual[name])
        if self.log:  # the last turns are the log's, unless they differ: then kept as they are
            derived = last_turns(self.log, len(self.state.seats)) == self.turns
            if derived:
                data.pop("tu", None)
            else:
                data["tu"] = optional["tu"]
        return wire.dumps(data)

    @classmethod
    def from_stored(cls, record: str, channel: str, message: str) -> GameRecord:
        return cls.from_str(record, channel).evolve(message=message)

    @classmethod
    def from_str(cls, text: str, channel: str) -> GameRecord:
        """The record stored under `channel`'s key; `Unreadable` if it does not parse."""
        try:
            return cls._parsed(text, channel)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise unreadable.game(channel, exc, text) from exc

    @classmethod
    def _parsed(cls, text: str, channel: str) -> GameRecord:
        stored = wire.loads(text)
        data = _usual(channel) | stored  # older records wrote every field
        for name, kind in _TYPES.items():  # a wrong type would only fail later, elsewhere
            if type(data[name]) is not kind:
                raise TypeError(f"{name} is not {kind.__name__}")
        state, log = GameState.from_str(data["s"]), load_log(data["lg"])
        derived = bool(log) and "tu" not in stored  # see to_str
        return cls(
            state=state,
            channel=channel,
            game_id=data["g"],
            lang=data["l"],
            style=data["y"],
            deadline=data["d"],
            pot=Pot(data["pa"], tuple((p, int(a)) for p, a in data["pc"])),
            fair=data["f"],
            rolls=tuple(tuple(int(d) for d in r) for r in data["r"]),
            created=data["t"],
            solo=data["solo"],
            turns=last_turns(log, len(state.seats)) if derived else load(data["tu"]),
            box=data["bx"],
            reviews=tuple(data["v"].items()),
            challenge=data["ch"],
            log=log,
            short=tuple((str(p), int(b)) for p, b in data["sh"]),
            tour=str(data["tn"]),
        )


_TYPES = {"s": str, "g": str, "d": int, "t": int, "l": str, "y": str, "bx": int, "solo": bool}


def _usual(channel: str) -> dict[str, object]:
    """The values a record leaves out: English, emoji, the channel's own pot, nothing else."""
    return {
        "l": "en", "y": "emoji", "pa": pot_account(channel), "pc": (), "f": "", "r": [],
        "solo": False, "tu": [], "bx": -1, "v": {}, "ch": "",
        "lg": "", "sh": [], "tn": "",
    }  # fmt: skip
