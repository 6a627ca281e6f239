"""The support app."""
