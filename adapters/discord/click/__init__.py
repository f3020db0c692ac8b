"""A game click answered from its JSON, in either mode (see surface.py)."""
