"""`/shutbox tournament`: a server's tournament kept as one record beside its pot account.

The record (`tour:<id>`: `v` its version, `r` its text form, core/game/tournament/text_form.py)
changes only in a commit that checks the version it was read at (`HEQ`), so two processes
recording the last two tables of a round serialise, and the round advances once. Entry fees
are held while entered, move to the tournament's pot account (`pot:tour:<id>`) at the start,
and leave it as prizes or refunds, each a transfer in the server's journal.
"""
