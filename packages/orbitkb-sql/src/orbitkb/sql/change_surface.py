"""Change-surface runs (newest first), their feedback (oldest first) and verifications (newest first)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import RunNotFound
from orbitkb.domain.runs import ChangeSurfaceRun, Feedback, Verification
from orbitkb.sql import codec
from orbitkb.sql.tables import change_surface_runs as runs_t
from orbitkb.sql.tables import feedback as feedback_t
from orbitkb.sql.tables import verifications as verifications_t

RUN_JSON = ("hint_services", "findings")
VERIFICATION_JSON = (
    "predicted",
    "actual",
    "true_positives",
    "false_positives",
    "false_negatives",
    "unowned_files",
)


def add_run(conn: Connection, run: ChangeSurfaceRun) -> int:
    result = conn.execute(sa.insert(runs_t).values(codec.to_row(run, RUN_JSON, drop=("id",))))
    return codec.new_id(result)


def get_run(conn: Connection, run_id: int) -> ChangeSurfaceRun | None:
    statement = codec.select_for(runs_t, ChangeSurfaceRun).where(runs_t.c.id == run_id)
    found = codec.fetch(conn, statement, ChangeSurfaceRun, RUN_JSON)
    return found[0] if found else None


def list_runs(conn: Connection, limit: int = 100) -> list[ChangeSurfaceRun]:
    statement = codec.select_for(runs_t, ChangeSurfaceRun).order_by(runs_t.c.id.desc()).limit(max(limit, 0))
    return codec.fetch(conn, statement, ChangeSurfaceRun, RUN_JSON)


def _require_run(conn: Connection, run_id: int) -> None:
    if conn.execute(sa.select(runs_t.c.id).where(runs_t.c.id == run_id)).first() is None:
        raise RunNotFound(f"change-surface run {run_id} does not exist")


def add_feedback(conn: Connection, feedback: Feedback) -> None:
    _require_run(conn, feedback.run_id)
    # one verdict per (run, service): recording it again replaces it, so repeats never pile up
    conn.execute(sa.delete(feedback_t).where(feedback_t.c.run_id == feedback.run_id,
                                             feedback_t.c.service == feedback.service))
    conn.execute(sa.insert(feedback_t).values(codec.to_row(feedback, ())))


#: every feedback and every verification, built once: every change surface reads them
ALL_FEEDBACK: sa.Select[Any] = codec.select_for(feedback_t, Feedback).order_by(feedback_t.c.rowid_)
ALL_VERIFICATIONS: sa.Select[Any] = codec.select_for(verifications_t, Verification).order_by(verifications_t.c.id.desc())


def list_feedback(conn: Connection, service: str | None = None) -> list[Feedback]:
    statement = ALL_FEEDBACK
    if service is not None:
        statement = statement.where(feedback_t.c.service == service)
    return codec.fetch(conn, statement, Feedback, ())


def add_verification(conn: Connection, verification: Verification) -> int:
    _require_run(conn, verification.run_id)
    row = codec.to_row(verification, VERIFICATION_JSON, drop=("id",))
    return codec.new_id(conn.execute(sa.insert(verifications_t).values(row)))


def list_verifications(conn: Connection, run_id: int | None = None) -> list[Verification]:
    statement = ALL_VERIFICATIONS
    if run_id is not None:
        statement = statement.where(verifications_t.c.run_id == run_id)
    return codec.fetch(conn, statement, Verification, VERIFICATION_JSON)
