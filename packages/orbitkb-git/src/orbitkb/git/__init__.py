"""orbitkb.git."""
