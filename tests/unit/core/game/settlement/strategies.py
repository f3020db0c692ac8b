"""The tables the properties draw: players, balances and stakes."""

from __future__ import annotations

from hypothesis import strategies as st

PLAYER_IDS = [f"u{n}" for n in range(6)]

players_st = st.lists(st.sampled_from(PLAYER_IDS), min_size=1, max_size=6, unique=True)
balance_st = st.integers(min_value=0, max_value=300)
stake_st = st.integers(min_value=1, max_value=40)
