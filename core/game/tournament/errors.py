"""What a member or an admin can get wrong about a tournament; each names its catalog text."""

from __future__ import annotations

from core.game.errors import InvalidOption, ShutboxError


class InvalidTournament(InvalidOption):
    """A setting of `tournament create` that can't be used."""

    key = "error.tournament.setting"


class TournamentClosed(ShutboxError):
    """Joining, leaving or starting a tournament that is past that point."""

    key = "error.tournament.closed"


class AlreadyEntered(ShutboxError):
    """A member joins a tournament they are already entered in."""

    key = "error.tournament.entered"


class NotEntered(ShutboxError):
    """A member leaves a tournament they never joined."""

    key = "error.tournament.not_entered"


class TooFewEntries(ShutboxError):
    """Starting a tournament with fewer than two players."""

    key = "error.tournament.too_few"


class TournamentFull(ShutboxError):
    """A tournament already holds as many players as one can."""

    key = "error.tournament.full"
