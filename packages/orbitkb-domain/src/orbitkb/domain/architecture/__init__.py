"""Architecture intelligence: the service graph, relationships, paths, smells and their trend —
all deterministic, computed from the stored facts, no LLM."""
