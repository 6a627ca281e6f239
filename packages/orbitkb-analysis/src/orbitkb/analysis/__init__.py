"""orbitkb.analysis."""
