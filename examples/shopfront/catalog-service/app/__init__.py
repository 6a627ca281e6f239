"""shopfront catalog service."""
