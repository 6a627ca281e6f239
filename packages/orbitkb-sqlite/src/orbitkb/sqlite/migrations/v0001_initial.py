"""Migration 1: the initial schema (repositories, facts, search index, runs, analysis cache).

Frozen: this is the schema as version 1 shipped it. Never edit it; evolve the schema with a new
migration module, so a database written by any released version upgrades the same way.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.sqlite import search

VERSION = 1
DESCRIPTION = "initial schema"


def _t(name: str) -> sa.Column[str]:
    return sa.Column(name, sa.Text)


def _r(name: str) -> sa.Column[str]:
    return sa.Column(name, sa.Text, nullable=False)


def _i(name: str, nullable: bool = False) -> sa.Column[int]:
    return sa.Column(name, sa.Integer, nullable=nullable)


def _pk(name: str = "id") -> sa.Column[str]:
    return sa.Column(name, sa.Text, primary_key=True)


def _serial(name: str = "id") -> sa.Column[int]:
    return sa.Column(name, sa.Integer, primary_key=True, autoincrement=True)


def _fk(name: str, target: str, kind: type[sa.types.TypeEngine[Any]] = sa.Text) -> sa.Column[Any]:
    return sa.Column(name, kind, sa.ForeignKey(target, ondelete="CASCADE"), nullable=False)


def _schema() -> sa.MetaData:
    md = sa.MetaData()
    sa.Table("schema_meta", md, _pk("key"), _t("value"))
    sa.Table(
        "repositories", md, _pk("name"), _r("root_path"), _r("vcs"), _t("indexed_commit"),
        _t("indexed_at"), _r("roots"),
    )  # fmt: skip
    sa.Table(
        "services", md, _pk(), _fk("repository", "repositories.name"), _r("name"), _r("root_dir"),
        _r("stack"), _t("framework"), _r("aliases"), _t("short_desc"), _t("long_desc"),
        _r("desc_provenance"), _r("evidence"), sa.Index("ix_services_repository", "repository", "name"),
    )  # fmt: skip
    sa.Table(
        "components", md, _pk(), _fk("service_id", "services.id"), _r("name"), _r("file_path"),
        _r("kind"), _i("start_line"), _i("end_line"), _t("doc"), _t("summary"),
        _r("summary_provenance"), sa.Index("ix_components_service", "service_id"),
    )  # fmt: skip
    sa.Table(
        "apis", md, _pk(), _fk("service_id", "services.id"), _r("method"), _r("path"), _r("handler"),
        _r("file"), _i("start_line"), _i("end_line"), _r("kind"), _t("component_id"), _t("channel"),
        _t("doc"), _t("summary"), _t("description"), _r("summary_provenance"), _r("request_shape"),
        _r("response_shape"), _r("validations"), _r("evidence"), sa.Index("ix_apis_service", "service_id"),
    )  # fmt: skip
    sa.Table(
        "calls", md, _pk(), _fk("from_service_id", "services.id"), _r("call_kind"), _r("target"),
        _r("target_kind"), _r("resource_type"), _t("to_service_id"), _t("from_api_id"),
        _t("from_component_id"), _t("method"), _t("path"), _t("to_api_id"), _t("reason"),
        _r("data_needed"), _r("purpose_kind"), sa.Column("confidence", sa.Float, nullable=False),
        _r("evidence"), _r("provenance"), sa.Index("ix_calls_from", "from_service_id"),
        sa.Index("ix_calls_to", "to_service_id"), sa.Index("ix_calls_target", "target"),
    )  # fmt: skip
    sa.Table(
        "messages", md, _pk(), _fk("service_id", "services.id"), _r("direction"), _r("channel"),
        _r("provider"), _t("api_id"), _t("component_id"), _t("description"), _r("evidence"),
        _r("provenance"), sa.Index("ix_messages_service", "service_id"),
        sa.Index("ix_messages_channel", "channel"),
    )  # fmt: skip
    sa.Table(
        "entities", md, _pk(), _fk("service_id", "services.id"), _r("name"), _r("kind"), _r("engine"),
        _t("class_name"), _r("fields"), _t("description"), _r("evidence"), _r("provenance"),
        sa.Index("ix_entities_service", "service_id"),
    )  # fmt: skip
    sa.Table(
        "resources", md, _serial("rowid_"), _fk("repository", "repositories.name"), _r("name"),
        _r("kind"), _r("engine"), _t("image"), _r("evidence"),
        sa.Index("ix_resources_repository", "repository"),
    )  # fmt: skip
    sa.Table(
        "gaps", md, _serial("rowid_"), _fk("repository", "repositories.name"), _r("path"), _r("kind"),
        _r("reason"), sa.Index("ix_gaps_repository", "repository"),
    )  # fmt: skip
    sa.Table(
        "indexed_files", md,
        sa.Column("repository", sa.Text, sa.ForeignKey("repositories.name", ondelete="CASCADE"), primary_key=True),
        sa.Column("path", sa.Text, primary_key=True), _r("sha256"), _i("size"), _t("service_id"),
        _t("language"),
    )  # fmt: skip
    sa.Table("analysis_cache", md, _pk("key"), _r("value"))
    sa.Table(
        "index_runs", md, _serial(), _r("repository"), _r("started_at"), _t("finished_at"), _r("status"),
        _r("backend"), _t("commit"), _i("files_total"), _i("files_changed"), _i("files_parsed"),
        _i("services"), _i("llm_calls"), _i("input_tokens", True), _i("output_tokens", True),
        sa.Column("cost_usd", sa.Float), _t("notes"), sa.Index("ix_index_runs_repository", "repository"),
    )  # fmt: skip
    sa.Table(
        "change_surface_runs", md, _serial(), _r("task"), _r("created_at"), _r("backend"),
        _r("hint_services"), _r("findings"), _i("input_tokens", True), _i("output_tokens", True),
        sa.Column("cost_usd", sa.Float),
    )  # fmt: skip
    sa.Table(
        "feedback", md, _serial("rowid_"), _fk("run_id", "change_surface_runs.id", sa.Integer),
        _r("service"), _r("outcome"), _r("created_at"), sa.Index("ix_feedback_service", "service"),
    )  # fmt: skip
    sa.Table(
        "verifications", md, _serial(), _fk("run_id", "change_surface_runs.id", sa.Integer),
        _r("repository"), _r("since_commit"), _r("created_at"), _r("predicted"), _r("actual"),
        _r("true_positives"), _r("false_positives"), _r("false_negatives"), _r("unowned_files"),
        sa.Column("precision", sa.Float), sa.Column("recall", sa.Float),
        sa.Index("ix_verifications_run", "run_id"),
    )  # fmt: skip
    sa.Table("architecture_runs", md, _serial(), _r("created_at"), _r("findings"))
    return md


def upgrade(conn: Connection) -> None:
    _schema().create_all(conn)
    search.create_index(conn)
