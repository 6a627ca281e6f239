"""Blueprints of the accounts API."""
