"""Reading what the user typed: names, moves, button letters and labels (subcommands are read
by core/service/api/text_commands.py)."""

from __future__ import annotations

import getpass
import re
from dataclasses import replace

from core.game import flow
from core.game.errors import ShutboxError
from core.game.moves import mask_of
from core.game.numbers import shown as shown_text
from core.game.state import GameState, Phase
from core.service.api.commands import Command, Give, Grant
from core.service.api.text_commands import Mention, UsageError
from core.service.features.gifts import Standing
from core.service.model.buttons import parse_button
from core.service.model.views import Button, GameView
from core.text.i18n import LANGS, t

MAX_TILE = 12
FALLBACK_NAME = "Player"


def default_name() -> str:
    """The player's own name by default: the login name, capitalised (`ann` -> `Ann`)."""
    try:
        login = getpass.getuser().strip()
    except (OSError, KeyError):  # no login name in this environment (e.g. a bare container)
        login = ""
    return login[:1].upper() + login[1:] if login else FALLBACK_NAME


def not_found(
    text: str, shown: list[Button], lang: str, state: GameState | None = None,
    view: GameView | None = None,
) -> str:  # fmt: skip
    """Why what was typed pressed nothing, and what to type instead: tiles typed before the
    roll, a tile already shut or missing, a tile twice, or the moves this roll allows; else
    the buttons by letter. The typed text is repeated back short."""
    typed = shown_text(text)
    moves = ", ".join(b.label for b in shown if move_of(b) is not None)
    buttons = "  ".join(f"[{button_key(n)}] {b.label}" for n, b in enumerate(shown))
    if _asks_for_hint(text, shown):
        where = "challenge" if view is not None and view.private else "game"
        return t(lang, f"playground.hints_off.{where}", text=typed, buttons=buttons)
    if not _MOVE.match(text):
        return t(lang, "playground.no_button", text=typed, buttons=buttons)
    if not moves:
        rolling = state is not None and state.phase is Phase.ROLL
        key = "playground.roll_first" if rolling else "playground.no_button"
        return t(lang, key, text=typed, buttons=buttons)
    tiles = [int(tile) for tile in re.findall(r"\d+", text)]
    key, params = _why_not(tiles, state)
    return t(lang, key, text=typed, moves=moves, **params)


def _asks_for_hint(text: str, shown: list[Button]) -> bool:
    """`hint` (in any language) on a turn that offers no Hint button: the game has hints off."""
    word = text.strip().casefold()
    if word not in {"hint", *(t(lang, "ui.hint").casefold() for lang in LANGS)}:
        return False
    verbs = {button.action_id.split(":")[1] for button in shown}
    return "hint" not in verbs and bool(verbs & {"roll", "choose"})


def _why_not(tiles: list[int], state: GameState | None) -> tuple[str, dict[str, object]]:
    """The catalog key (and its tile) that says why these tiles are no move for this roll."""
    if len(set(tiles)) != len(tiles):
        return "playground.tile_twice", {}
    if state is not None:
        for tile in tiles:
            if not 1 <= tile <= state.config.rules.tiles:
                return "playground.no_tile", {"tile": tile}
        for tile in tiles:
            if not flow.opening(state) and not state.board >> (tile - 1) & 1:
                return "playground.tile_shut", {"tile": tile}
    return "playground.not_a_move", {}


def user_id(name: str) -> str:
    """The playground's user id for a display name: `Ann Lee` -> `ann-lee`."""
    return "-".join(name.lower().split())


_BOT_NAME = re.compile(r"^(?:🤖\s*)?bot\s*\d+$", re.IGNORECASE)


def standing_of(name: str) -> Standing:
    """Who chips may go to in the playground: every typed name is a hot-seat player, except
    a bot's seat (`Bot 1`, as the board shows it `🤖 Bot 1`)."""
    name = name.strip()
    return Standing.BOT if _BOT_NAME.match(name) or name.startswith("🤖") else Standing.MEMBER


class Names(dict[str, str]):
    """The playground's players: each id with the name it was first typed as.

    Typed commands write a member as their plain name (`grant Ann Lee 50`): all the words the
    command leaves for it (the `Mentions` of core/service/api/text_commands.py). Written as a
    chat mention (`@Ann`), it names a player this table knows, as a mention on Discord or
    Slack names a member; a mention of nobody is refused, never made into a new player.
    """

    one_word = False

    def remember(self, name: str) -> str:
        """The id of the player called `name` (`@Ann` is Ann), kept under that name if new."""
        name = name.strip()
        name = name[1:].strip() or name if name.startswith("@") else name
        uid = user_id(name)
        self.setdefault(uid, name)
        return uid

    def read(self, text: str) -> Mention:
        if text.startswith("@"):
            return self._mentioned(text)
        uid = self.remember(text)
        return Mention(uid, self[uid])

    def _mentioned(self, text: str) -> Mention:
        uid = user_id(text[1:])
        if uid not in self:
            players = ", ".join(sorted(self.values(), key=str.casefold))
            raise UsageError("playground.no_player", value=shown_text(text), players=players)
        return Mention(uid, self[uid])


def translate(lang: str, error: ShutboxError) -> str:
    """An error's text. `t(lang, key, **params)` cannot take the `key` placeholder that the
    option and setting errors use, so that one is filled in here."""
    params = dict(error.params)
    named = params.pop("key", None)
    text = t(lang, error.key, **params)
    return text if named is None else text.replace("{key}", str(named))


_MOVE = re.compile(r"^\s*\d{1,2}(?:\s*[+, ]\s*\d{1,2})*\s*$")


def button_key(index: int) -> str:
    """The letter a button is typed as: `a` for the first (a message has at most 25)."""
    return chr(ord("a") + index)


def typed_move(text: str) -> int | None:
    """Tiles typed as a move, in any order (`6+1`, `1+6`, `1 6`), as a mask; else None."""
    if not _MOVE.match(text):
        return None
    tiles = [int(tile) for tile in re.findall(r"\d+", text)]
    if len(set(tiles)) != len(tiles) or not all(1 <= tile <= MAX_TILE for tile in tiles):
        return None
    return mask_of(tiles)


def move_of(button: Button) -> int | None:
    """The tiles a move button closes (or opens), None for any other button."""
    found = parse_button(button.action_id)
    return found.arg if found.verb == "choose" else None


def find_button(shown: list[Button], text: str) -> Button | None:
    """A move typed as its tiles, else a button by its letter, else by its label (exactly, or
    by a unique beginning). Numbers always mean tiles, so `9` never presses a ninth button."""
    move = typed_move(text)
    if move is not None:
        return next((button for button in shown if move_of(button) == move), None)
    key = text.strip().casefold()
    if len(key) == 1 and "a" <= key <= button_key(len(shown) - 1):
        return shown[ord(key) - ord("a")]
    wanted = "".join(text.casefold().split())
    labels = ["".join(b.label.casefold().split()) for b in shown]
    exact = [b for b, label in zip(shown, labels, strict=True) if label == wanted]
    begun = [b for b, label in zip(shown, labels, strict=True) if label.startswith(wanted)]
    if exact:
        return exact[0]
    if len(begun) == 1:
        return begun[0]
    return _by_english_word(shown, key)


# The help's English words press their button whatever the table's language (`hint` as `Tip`).
ENGLISH_WORDS = {"roll": "roll", "hint": "hint", "rematch": "rematch", "review": "review",
                 "more": "page"}  # fmt: skip


def _by_english_word(shown: list[Button], word: str) -> Button | None:
    verb = ENGLISH_WORDS.get(word)
    found = [b for b in shown if verb is not None and parse_button(b.action_id).verb == verb]
    return found[0] if len(found) == 1 else None


def verified(command: Command) -> Command:
    """A gift's or grant's recipient as the playground knows them (`standing_of`)."""
    if isinstance(command, Give):
        recipient = command.recipient
        return replace(command, recipient=replace(recipient, standing=standing_of(recipient.name)))
    if isinstance(command, Grant):
        return replace(command, standing=standing_of(command.name))
    return command
