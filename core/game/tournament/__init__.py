"""Tournaments, the pure part: settings, entries, rounds of tables, pairings from a committed
seed, standings with their tiebreaks, and the prize split (SPEC 12)."""
