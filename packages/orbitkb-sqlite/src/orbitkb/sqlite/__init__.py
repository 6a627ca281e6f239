"""orbitkb.sqlite."""
