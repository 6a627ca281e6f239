"""orbitkb.sql: what the SQLite and PostgreSQL stores share — tables, codec, per-aggregate SQL.

``SqlKnowledgeStore`` (``orbitkb.sql.store``) is the store body; a concrete store gives it an
engine, a full-text search module and its migrations.
"""
