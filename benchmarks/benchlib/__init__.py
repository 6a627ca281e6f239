"""Shared pieces of the benchmark scripts: corpus caching, timing proxies, recall, tables."""
