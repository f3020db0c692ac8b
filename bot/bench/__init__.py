"""`shutbox bench`: concurrent games through the manager against the configured Redis
(games.py), what it measures besides clicks (servers.py: idle sweeps over many servers, the
journal's size) and the ceilings a click is measured against (baseline.py)."""
