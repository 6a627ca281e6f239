"""The sales app."""
