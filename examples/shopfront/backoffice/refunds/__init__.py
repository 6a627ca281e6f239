"""The refunds app."""
