"""Deterministic generator of a large synthetic microservice system (the benchmark corpus)."""
