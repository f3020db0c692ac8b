"""The local playground: Shut the Box in the terminal, hot-seat players and bots (SPEC 8).

`bot.playground.open_playground(redis_url, data_dir, name)` gives a `Playground`;
`await playground.run(stdin, stdout)` plays interactively, `await playground.send(line)`
drives it from tests.
"""

from adapters.console.playground import CHANNEL, PICTURE_NOTE, SCOPE, Playground

__all__ = ["CHANNEL", "PICTURE_NOTE", "SCOPE", "Playground"]
