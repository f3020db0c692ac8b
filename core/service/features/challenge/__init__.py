"""The daily challenge (SPEC 9): its days, seeds, results and streaks (day.py), what its game
writes and says at its end (commit.py), how the server's commands read it (board.py), and
its texts (texts.py)."""
