"""orbitkb.llm_cli."""
