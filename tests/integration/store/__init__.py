"""The Redis store keeps games, chips and stats as SPEC sections 4, 5 and 8 say, atomically."""
