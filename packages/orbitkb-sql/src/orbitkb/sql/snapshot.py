"""The snapshot: its fingerprint and the whole System Knowledge Model read in one transaction.

Every transaction that writes facts or search documents also writes a fresh random token in
``schema_meta`` (key ``snapshot_token``), so the fingerprint is one indexed read, changes on every
index, update, enrichment or removal from any process, and after a restore (which writes a new
token). A database never written since this scheme began reads as ``initial``.
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.system_model import SystemModel
from orbitkb.sql import (
    apis,
    calls,
    components,
    entities,
    messages,
    repositories,
    resources,
    services,
    technologies,
)
from orbitkb.sql.tables import schema_meta

TOKEN_KEY = "snapshot_token"
INITIAL = "initial"


def touch(conn: Connection) -> None:
    """Mark the snapshot as changed (call inside the transaction that changed it)."""
    token = uuid.uuid4().hex
    updated = conn.execute(sa.update(schema_meta).where(schema_meta.c.key == TOKEN_KEY).values(value=token))
    if updated.rowcount == 0:
        conn.execute(sa.insert(schema_meta).values(key=TOKEN_KEY, value=token))


def fingerprint(conn: Connection) -> str:
    value = conn.execute(sa.select(schema_meta.c.value).where(schema_meta.c.key == TOKEN_KEY)).scalar()
    return str(value) if value else INITIAL


def load(conn: Connection) -> SystemModel:
    """Every fact, in the orders the store documents, at one fingerprint."""
    return SystemModel(
        fingerprint(conn),
        tuple(repositories.list_all(conn)),
        tuple(services.list_services(conn)),
        tuple(components.list_components(conn)),
        tuple(apis.list_apis(conn)),
        tuple(calls.list_calls(conn)),
        tuple(messages.list_messages(conn)),
        tuple(entities.list_entities(conn)),
        tuple(technologies.list_technologies(conn)),
        tuple(resources.list_resources(conn)),
    )
