"""orbitkb-mcp: the MCP server (stdio) — a thin driving adapter over the domain use cases."""
