"""Clients of other shopfront services."""
