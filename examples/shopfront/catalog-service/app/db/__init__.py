"""Persistence: SQLAlchemy models and the async session factory."""
