"""The playground's own texts (English: the terminal is a developer's and newcomer's tool).

The `start` keys and the leaderboards are read from the option table and the board list.
"""

from __future__ import annotations

from core.game.options import OPTIONS
from core.service.economy import BOARD_NAMES

START_KEYS = ", ".join(option.typed for option in OPTIONS.values())

NEWCOMER_COMMANDS = ("start", "bot", "go")  # what the welcome tells a newcomer to type

WELCOME = f"""\
**Shut the Box — local playground.** You are seated as {{name}}.
To play a game against a bot, type "{NEWCOMER_COMMANDS[0]}", then "{NEWCOMER_COMMANDS[1]}", \
then "{NEWCOMER_COMMANDS[2]}".
Then press the buttons by their letter ("a" rolls), and type a move as its tiles to close them: \
"7", "6+1" or "1+6". Lowest score wins.
Several players at one keyboard: "as Ann" seats Ann, and during a game each button or move is \
played for the player whose turn it is. Type "help" for every command, "quit" to leave."""

COMMANDS_HELP = f"""\
**Playground commands** (type them without /shutbox):
`start [key=value ...]` open a game; keys: {START_KEYS}
  (e.g. `start preset=sailors rounds=3 stakes=pot:5`, or `start sailors`)
`solo [key=value ...]` play alone at once · `join` · `leave` · `bot` (add a bot) · \
`go` (the host's Start) · `cancel` · `stop`
`a`, `b`, ... press a button by its letter; `8+1` (or `1+8`, `1 8`) makes that move; a label \
(`roll`, `hint`) presses that button
`as <name>` seat another player; typed right before a button, that player presses it
`challenge` (today's daily challenge, on a private screen) · `balance` · `daily` · \
`leaderboard [{"|".join(BOARD_NAMES)}] [preset=P] [season=N] [page=N]` \
· `stats [name]` · `rank [name]` · `grant <name> <n>` · \
`give <name> <n>` (your own chips) · `review` (your last match against perfect play) · `season` \
· `season end [reset_chips=yes]` (archive the boards and ratings, start the next season) · \
`web [on|off|rotate]` (the server's page; needs SHUTBOX_PUBLIC_URL)
`show` the game message again · `rules [preset]` · `odds [preset]` · `config [key=value ...]` \
· `help` · `quit`"""

OPTIONS_ARE_PAIRS = (
    "Options are key=value (e.g. `rounds=3 stakes=pot:5`), not “{value}”. Type `help` for the keys."
)
# How each subcommand is typed, shown when its words do not fit.
USAGE = {
    "start": OPTIONS_ARE_PAIRS,
    "solo": OPTIONS_ARE_PAIRS,
    "leaderboard": "Usage: `leaderboard [board] [preset=P] [season=N] [page=N]`.",
    "season": "Usage: `season`, or `season end [reset_chips=yes]`.",
    "web": "Usage: `web`, or `web on`, `web off`, `web rotate`.",
    "rules": "Usage: `rules [preset]`.",
    "odds": "Usage: `odds [preset]`.",
    "config": "Settings are key=value (e.g. `config style=text`): “{value}”?",
    "grant": "Usage: `grant <name> <chips>`, e.g. `grant Bob 50` (-50 takes).",
    "give": "Usage: `give <name> <chips>`, e.g. `give Bob 20`.",
}
NO_OPTIONS = "`{command}` takes no options, so nothing was done with “{value}”."


def usage(command: str, value: object) -> str:
    """The line that shows how `command` is typed; `value` is the word that did not fit."""
    return USAGE.get(command, NO_OPTIONS).format(command=command, value=value)
