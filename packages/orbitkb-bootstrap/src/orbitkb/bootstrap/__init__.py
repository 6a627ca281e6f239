"""orbitkb.bootstrap."""
