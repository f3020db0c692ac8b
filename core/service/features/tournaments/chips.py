"""The tournament's chips, as transfers and holds: a fee held from `join`, paid into the pot
at the start, and the pot paid out as prizes at the end or back as refunds on `cancel`."""

from __future__ import annotations

from core.game.settlement import Transfer
from core.game.tournament.prizes import prizes
from core.game.tournament.standings import standings
from core.game.tournament.values import Status, Tournament
from core.service.features.tournaments.records import pot_account


def fee_holds(tournament: Tournament, players: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Hold each player's fee while they are entered (0 releases it)."""
    fee = tournament.settings.fee if tournament.status is Status.OPEN else 0
    return tuple((player, fee if tournament.entered(player) else 0) for player in players)


def fees_in(tournament: Tournament) -> tuple[Transfer, ...]:
    """At the start: every entry fee into the tournament's pot."""
    fee, pot = tournament.settings.fee, pot_account(tournament.id)
    return tuple(Transfer(p, pot, fee) for p in tournament.players) if fee else ()


def refunds(tournament: Tournament) -> tuple[Transfer, ...]:
    """On `cancel` after the start: every fee back from the pot."""
    fee, pot = tournament.settings.fee, pot_account(tournament.id)
    return tuple(Transfer(pot, p, fee) for p in tournament.players) if fee else ()


def prizes_out(tournament: Tournament) -> tuple[tuple[str, int], ...]:
    """At the end: each prize place's player and what they win, best first."""
    paid = prizes(tournament.pot, tournament.settings.split, len(tournament.entries))
    places = standings(tournament)
    return tuple((line.player, amount) for line, amount in zip(places, paid, strict=False))


def prize_transfers(tournament: Tournament) -> tuple[Transfer, ...]:
    pot = pot_account(tournament.id)
    return tuple(Transfer(pot, p, amount) for p, amount in prizes_out(tournament) if amount)
