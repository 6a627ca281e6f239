"""Helpers shared by the shopfront Python services."""

__version__ = "0.6.0"
