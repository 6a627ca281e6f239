"""orbitkb.cli."""
