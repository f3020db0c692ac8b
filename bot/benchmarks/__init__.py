"""The benchmarks `shutbox bench` runs (bot/commands/bench.py): the click benchmark
(clicks.py), the baselines it is measured against (baseline.py) and the many-servers run
(servers.py). They print numbers; nothing in the product imports them."""
