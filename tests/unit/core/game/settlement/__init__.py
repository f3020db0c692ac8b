"""Chip settlement (SPEC section 4): examples that read like the spec, then properties."""
