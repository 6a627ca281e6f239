"""SQLAlchemy Core tables of the current schema (the latest migration's result).

Column names equal the attribute names of the domain classes, so rows map to objects
generically (see ``codec``). Nested values (evidence, shapes, fields, ...) are JSON text; enums
are stored as their string values; vectors are float32 BLOBs. The search index (FTS5) is not
here: it is SQLite-specific and lives in ``search``.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()
#: Text that sorts by code point on every database (SQLite's default; PostgreSQL's "C" collation),
#: so both stores list in the same documented orders whatever the server's locale. The generic
#: type with a collation renders ``TEXT COLLATE "C"`` there, as the dialect's own type would,
#: without importing the PostgreSQL dialect (and asyncio with it) into every SQLite command.
TEXT = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def _text(name: str, nullable: bool = True) -> sa.Column[str]:
    return sa.Column(name, TEXT, nullable=nullable)


def _fk(name: str, target: str) -> sa.Column[str]:
    return sa.Column(name, TEXT, sa.ForeignKey(target, ondelete="CASCADE"), nullable=False)


schema_meta = sa.Table("schema_meta", metadata, sa.Column("key", TEXT, primary_key=True), _text("value"))

repositories = sa.Table(
    "repositories",
    metadata,
    sa.Column("name", TEXT, primary_key=True),
    _text("root_path", False),
    _text("vcs", False),
    _text("indexed_commit"),
    _text("indexed_at"),
    _text("roots", False),
)

services = sa.Table(
    "services",
    metadata,
    sa.Column("id", TEXT, primary_key=True),
    _fk("repository", "repositories.name"),
    _text("name", False),
    _text("root_dir", False),
    _text("stack", False),
    _text("framework"),
    _text("aliases", False),
    _text("short_desc"),
    _text("long_desc"),
    _text("desc_provenance", False),
    _text("evidence", False),
    _text("readme"),  # added by migration 2
    sa.Index("ix_services_repository", "repository", "name"),
)

components = sa.Table(
    "components",
    metadata,
    sa.Column("id", TEXT, primary_key=True),
    _fk("service_id", "services.id"),
    _text("name", False),
    _text("file_path", False),
    _text("kind", False),
    sa.Column("start_line", sa.Integer, nullable=False),
    sa.Column("end_line", sa.Integer, nullable=False),
    _text("doc"),
    _text("summary"),
    _text("summary_provenance", False),
    sa.Index("ix_components_service", "service_id"),
)

apis = sa.Table(
    "apis",
    metadata,
    sa.Column("id", TEXT, primary_key=True),
    _fk("service_id", "services.id"),
    _text("method", False),
    _text("path", False),
    _text("handler", False),
    _text("file", False),
    sa.Column("start_line", sa.Integer, nullable=False),
    sa.Column("end_line", sa.Integer, nullable=False),
    _text("kind", False),
    _text("component_id"),
    _text("channel"),
    _text("doc"),
    _text("summary"),
    _text("description"),
    _text("summary_provenance", False),
    _text("request_shape", False),
    _text("response_shape", False),
    _text("validations", False),
    _text("evidence", False),
    sa.Index("ix_apis_service", "service_id"),
)

calls = sa.Table(
    "calls",
    metadata,
    sa.Column("id", TEXT, primary_key=True),
    _fk("from_service_id", "services.id"),
    _text("call_kind", False),
    _text("target", False),
    _text("target_kind", False),
    _text("resource_type", False),
    # Not a foreign key: a call may point into another repository, re-indexed independently.
    _text("to_service_id"),
    _text("from_api_id"),
    _text("from_component_id"),
    _text("method"),
    _text("path"),
    _text("to_api_id"),
    _text("reason"),
    _text("data_needed", False),
    _text("purpose_kind", False),
    sa.Column("confidence", sa.Float, nullable=False),
    _text("evidence", False),
    _text("provenance", False),
    _text("from_api_ids", False),
    sa.Index("ix_calls_from", "from_service_id"),
    sa.Index("ix_calls_to", "to_service_id"),
    sa.Index("ix_calls_target", "target"),
)

messages = sa.Table(
    "messages",
    metadata,
    sa.Column("id", TEXT, primary_key=True),
    _fk("service_id", "services.id"),
    _text("direction", False),
    _text("channel", False),
    _text("provider", False),
    _text("api_id"),
    _text("component_id"),
    _text("description"),
    _text("evidence", False),
    _text("provenance", False),
    _text("api_ids", False),
    sa.Index("ix_messages_service", "service_id"),
    sa.Index("ix_messages_channel", "channel"),
)

entities = sa.Table(
    "entities",
    metadata,
    sa.Column("id", TEXT, primary_key=True),
    _fk("service_id", "services.id"),
    _text("name", False),
    _text("kind", False),
    _text("engine", False),
    _text("class_name"),
    _text("fields", False),
    _text("description"),
    _text("evidence", False),
    _text("provenance", False),
    sa.Index("ix_entities_service", "service_id"),
)

technologies = sa.Table(
    "technologies",
    metadata,
    sa.Column("id", TEXT, primary_key=True),
    _fk("service_id", "services.id"),
    _text("kind", False),
    _text("name", False),
    _text("version"),
    _text("evidence", False),
    sa.Index("ix_technologies_service", "service_id"),
    sa.Index("ix_technologies_name", "name"),
)

resources = sa.Table(
    "resources",
    metadata,
    sa.Column("rowid_", sa.Integer, primary_key=True, autoincrement=True),
    _fk("repository", "repositories.name"),
    _text("name", False),
    _text("kind", False),
    _text("engine", False),
    _text("image"),
    _text("evidence", False),
    sa.Index("ix_resources_repository", "repository"),
)

gaps = sa.Table(
    "gaps",
    metadata,
    sa.Column("rowid_", sa.Integer, primary_key=True, autoincrement=True),
    _fk("repository", "repositories.name"),
    _text("path", False),
    _text("kind", False),
    _text("reason", False),
    sa.Index("ix_gaps_repository", "repository"),
)

indexed_files = sa.Table(
    "indexed_files",
    metadata,
    sa.Column(
        "repository", TEXT, sa.ForeignKey("repositories.name", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("path", TEXT, primary_key=True),
    _text("sha256", False),
    sa.Column("size", sa.Integer, nullable=False),
    _text("service_id"),
    _text("language"),
)

analysis_cache = sa.Table(  # value: zlib-compressed UTF-8 (migration 5)
    "analysis_cache", metadata, sa.Column("key", TEXT, primary_key=True),
    sa.Column("value", sa.LargeBinary, nullable=False),
)

index_runs = sa.Table(
    "index_runs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    _text("repository", False),  # not a foreign key: the history outlives a repository's facts
    _text("started_at", False),
    _text("finished_at"),
    _text("status", False),
    _text("backend", False),
    _text("commit"),
    sa.Column("files_total", sa.Integer, nullable=False),
    sa.Column("files_changed", sa.Integer, nullable=False),
    sa.Column("files_parsed", sa.Integer, nullable=False),
    sa.Column("services", sa.Integer, nullable=False),
    sa.Column("llm_calls", sa.Integer, nullable=False),
    sa.Column("input_tokens", sa.Integer),
    sa.Column("output_tokens", sa.Integer),
    sa.Column("cost_usd", sa.Float),
    _text("notes"),
    sa.Index("ix_index_runs_repository", "repository"),
)

service_index_costs = sa.Table(  # added by migration 6 (SQLite) / 2 (PostgreSQL)
    "service_index_costs",
    metadata,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("index_runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("service_id", TEXT, primary_key=True),  # not a foreign key: the history outlives the facts
    _text("repository", False),
    _text("service", False),
    sa.Column("llm_calls", sa.Integer, nullable=False),
    sa.Column("input_tokens", sa.Integer),
    sa.Column("output_tokens", sa.Integer),
    sa.Column("cost_usd", sa.Float),
    sa.Index("ix_service_index_costs_service", "service_id"),
    sa.Index("ix_service_index_costs_repository", "repository"),
)

change_surface_runs = sa.Table(
    "change_surface_runs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    _text("task", False),
    _text("created_at", False),
    _text("backend", False),
    _text("hint_services", False),
    _text("findings", False),
    sa.Column("input_tokens", sa.Integer),
    sa.Column("output_tokens", sa.Integer),
    sa.Column("cost_usd", sa.Float),
)

feedback = sa.Table(
    "feedback",
    metadata,
    sa.Column("rowid_", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "run_id", sa.Integer, sa.ForeignKey("change_surface_runs.id", ondelete="CASCADE"), nullable=False
    ),
    _text("service", False),
    _text("outcome", False),
    _text("created_at", False),
    sa.Index("ix_feedback_service", "service"),
)

verifications = sa.Table(
    "verifications",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "run_id", sa.Integer, sa.ForeignKey("change_surface_runs.id", ondelete="CASCADE"), nullable=False
    ),
    _text("repository", False),
    _text("since_commit", False),
    _text("created_at", False),
    _text("predicted", False),
    _text("actual", False),
    _text("true_positives", False),
    _text("false_positives", False),
    _text("false_negatives", False),
    _text("unowned_files", False),
    sa.Column("precision", sa.Float),
    sa.Column("recall", sa.Float),
    sa.Index("ix_verifications_run", "run_id"),
)

architecture_runs = sa.Table(
    "architecture_runs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    _text("created_at", False),
    _text("findings", False),
)

# ---- added by migration 2

llm_cache = sa.Table(
    "llm_cache", metadata, sa.Column("key", TEXT, primary_key=True), _text("value", False)
)

embeddings = sa.Table(
    "embeddings",
    metadata,
    sa.Column("model_id", TEXT, primary_key=True),
    sa.Column("owner_kind", TEXT, primary_key=True),
    sa.Column("owner_id", TEXT, primary_key=True),
    sa.Column("field", TEXT, primary_key=True),
    _text("content_hash", False),
    sa.Column("dim", sa.Integer, nullable=False),
    sa.Column("vector", sa.LargeBinary, nullable=False),  # float32, little-endian
    sa.Index("ix_embeddings_owner", "owner_id"),
)
