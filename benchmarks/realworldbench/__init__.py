"""Scoring of orbitkb extraction against the real-repository corpus (benchmarks/realworld/)."""
