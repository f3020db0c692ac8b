"""The servers' own pages (`/shutbox web on`), served beside the probes (bot/health.py)."""
