"""What one `/shutbox` subcommand is: its name, its command value, its handler, its words in the
typed grammar, its typed options where a platform has them (Discord), and how it answers.

The subcommands themselves are the entries of one table (`SUBCOMMANDS` in
core/service/pipeline/subcommands.py), like the rule options' `RULE_OPTIONS`: the handler
table, the typed grammar, Discord's registered commands, every help listing and the tests'
lists are read from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol

from core.game.option import Option, Value
from core.service.api.text_commands import Parser, plain
from core.service.features.gifts import Recipient
from core.service.model.context import Context
from core.service.model.services import C, Command, Handler, Route, S_contra
from core.service.model.views import Reply

Build = Callable[[Mapping[str, Any]], C]


@dataclass(frozen=True, slots=True)
class Param:
    """One typed option of a subcommand, as a platform with typed options (Discord) asks for
    it: a yes/no, a whole number (within `bounds`), a word (one of `values`, when given), or a
    member (`Recipient`: who the platform's member picker chose, with what it knows of them).
    Its name, description and the labels of its values are catalog texts."""

    name: str
    kind: type[bool] | type[int] | type[str] | type[Recipient]
    required: bool = False
    bounds: tuple[int, int] | None = None
    values: tuple[Value, ...] = ()

    @classmethod
    def of(cls, option: Option, name: str = "") -> Param:
        """A game or settings option as a typed option."""
        bounds = option.range if option.kind is int and not option.values else None
        return cls(name or option.name, option.kind, bounds=bounds, values=option.values)


@dataclass(frozen=True, slots=True)
class Subcommand(Generic[S_contra, C]):
    """One entry of the subcommand table, for the command class `C` its handler answers
    (mypy checks the handler and `build` against it where the entry is made).

    `build` makes the command from the typed options given (a missing one is absent, never
    None); without it the command takes none. `public` answers in the channel (else privately);
    `guild` belongs to a server, so a direct message is told so.
    """

    name: str
    command: type[C]
    handler: Handler[S_contra, C]
    words: Parser | None = None  # the typed grammar; None: the subcommand takes no words
    params: tuple[Param, ...] = ()
    build: Build[C] | None = None
    public: bool = False
    guild: bool = False

    @property
    def parser(self) -> Parser:
        return self.words or plain(self.command)

    @property
    def help_key(self) -> str:
        """Its line in every help listing: the words it takes and what it does."""
        return f"help.command.{self.name}"

    async def run(self, services: S_contra, ctx: Context, command: Command) -> Reply:
        """Its handler, given only a command of its own class."""
        return await Route(self.command, self.handler).run(services, ctx, command)

    def from_params(self, given: Mapping[str, Any]) -> Command:
        """The command from typed options (`name` -> value), leaving out those not given."""
        values = {name: value for name, value in given.items() if value is not None}
        return self.command() if self.build is None else self.build(values)


class Entry(Protocol[S_contra]):
    """An entry of the subcommand table as the surfaces and the handler table read it,
    whatever command it answers (each `Subcommand` was checked against its own)."""

    @property
    def name(self) -> str: ...

    @property
    def command(self) -> type[Command]: ...

    @property
    def params(self) -> tuple[Param, ...]: ...

    @property
    def public(self) -> bool: ...

    @property
    def guild(self) -> bool: ...

    @property
    def parser(self) -> Parser: ...

    @property
    def help_key(self) -> str: ...

    def from_params(self, given: Mapping[str, Any]) -> Command: ...

    async def run(self, services: S_contra, ctx: Context, command: Command) -> Reply: ...
