"""orbitkb.mcp."""
