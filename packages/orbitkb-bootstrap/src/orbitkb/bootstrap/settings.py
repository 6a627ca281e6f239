"""Settings, resolved flags > environment > defaults."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

from orbitkb.domain.errors import InvalidInput
from orbitkb.llm_cli.backends import CHOICES  # the adapter's table only: no subprocess, no CLI
from orbitkb.postgres.urls import is_postgres_url  # the schemes only: no SQLAlchemy, no driver

#: What ``--backend`` accepts: the LLM adapter's backends (named once, in its table) plus auto and
#: offline. The CLI and the MCP server list these.
BACKENDS = CHOICES
DEFAULT_DB = "~/.orbitkb/orbitkb.db"


@frozen
class Settings:
    db_path: str = DEFAULT_DB
    backend: str = "auto"
    model: str | None = None
    claude_bare: bool = False
    codex_api_key: bool = False
    embedder: str = "auto"  # auto | off | a fastembed model name
    jobs: int = 4
    tools: str = "full"  # core | full (MCP tool set)
    llm_timeout: float = 300.0  # seconds one LLM CLI call may take
    read_only: bool = False  # a command that only reads: the database is opened without writing

    @classmethod
    def resolve(cls, flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        flags = {k: v for k, v in (flags or {}).items() if v is not None}
        s = cls(
            db_path=env.get("ORBITKB_DB") or DEFAULT_DB,
            backend=(env.get("ORBITKB_BACKEND") or "auto").strip().lower(),
            model=env.get("ORBITKB_MODEL") or None,
            embedder=(env.get("ORBITKB_EMBEDDER") or "auto").strip(),
            llm_timeout=_seconds(env.get("ORBITKB_LLM_TIMEOUT") or "300", "ORBITKB_LLM_TIMEOUT"),
        )
        known = {k: v for k, v in flags.items() if k in cls.__attrs_attrs__.__dict__ or hasattr(s, k)}
        s = evolve(s, **{k: v for k, v in known.items() if k in {a.name for a in cls.__attrs_attrs__}})
        if s.backend not in BACKENDS:
            raise InvalidInput(f"unknown backend {s.backend!r}", hint="choose one of: " + ", ".join(BACKENDS))
        if s.tools not in ("core", "full"):
            raise InvalidInput(f"unknown tool set {s.tools!r}", hint="choose core or full")
        if not isinstance(s.jobs, int) or not 1 <= s.jobs <= 64:
            raise InvalidInput(f"--jobs must be between 1 and 64, got {s.jobs!r}")
        if isinstance(s.llm_timeout, bool) or not isinstance(s.llm_timeout, int | float) \
                or not 0 < s.llm_timeout <= 86_400:
            raise InvalidInput(f"the LLM timeout must be between 0 and 86400 seconds, got {s.llm_timeout!r}")
        return s

    @property
    def db_is_url(self) -> bool:
        """True when the database is a PostgreSQL server (a ``postgresql://`` URL), not a file."""
        return is_postgres_url(self.db_path)

    @property
    def db_file(self) -> str:
        """The SQLite file (``~`` expanded), or the PostgreSQL URL as given — never print it: it
        may hold a password; print ``db_label``."""
        if self.db_path == ":memory:" or self.db_is_url:
            return self.db_path
        return str(Path(self.db_path).expanduser())

    @property
    def db_label(self) -> str:
        """The database for messages: the file, or ``postgresql://host[:port]/database`` with no
        user or password."""
        return redact_url(self.db_path) if self.db_is_url else self.db_file


def redact_url(url: str) -> str:
    """``scheme://host[:port]/database`` of a database URL: user, password and query dropped."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"{parts.scheme}://{parts.hostname or ''}{port}{parts.path}"


def _seconds(text: str, source: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InvalidInput(f"{source} is not a number of seconds: {text!r}", hint="e.g. 600") from None
