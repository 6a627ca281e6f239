"""Database engine and message provider evidence: connection strings, compose images, manifests.

Order of evidence for an entity's engine: what the code itself says, then connection strings and
datasource URLs in the service's configuration, then images of the infrastructure it depends on,
then its dependency manifests. Each tier is filtered to engines that can store the entity's kind;
a tie inside the deciding tier is "unknown" — never a guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from typing import Any

UNKNOWN = "unknown"
#: ``jdbc:tracing:postgresql://``: a driver that wraps another (tracing, logging) names it next
_URL = re.compile(
    r"^\s*(?:jdbc:|r2dbc:)?(?:(?:tracing|otel|p6spy|log4jdbc|opentracing):)?"
    r"([a-z][a-z0-9]*)(?:\+[\w.\-]+)?:(?://|[a-z]+:|@)",
    re.I,
)
#: a setting that names the database kind itself, not a URL (Quarkus's ``quarkus.datasource.db-kind``,
#: ``quarkus.datasource.<name>.db-kind``)
_KIND_KEY = re.compile(r"(?:^|\.)db-kind$")


@cache
def tables() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("engines.json").read_text("utf-8")
    )
    return data


def _dep_key(dep: str) -> str:
    return re.sub(r"/v\d+$", "", dep.strip())


def engines_from_deps(deps: Iterable[str]) -> set[str]:
    """Engines of the declared drivers. An embedded database next to server drivers is the one a
    framework starts when no URL is configured (the callers' earlier tiers hold configured URLs)."""
    table = tables()["entity_dependencies"]
    found = {table[k] for k in (_dep_key(d) for d in deps) if k in table}
    embedded = found & set(tables()["embedded_engines"])
    return embedded if embedded and found - embedded else found


def providers_from_deps(deps: Iterable[str]) -> set[str]:
    table = tables()["message_dependencies"]
    return {table[k] for k in (_dep_key(d) for d in deps) if k in table}


def engine_from_url(value: str) -> str | None:
    match = _URL.match(value)
    return tables()["url_schemes"].get(match.group(1).lower()) if match else None


def engine_from_setting(key: str, value: str) -> str | None:
    """The engine a configuration setting selects: a connection URL, or a database kind named by a
    ``db-kind`` key (``postgresql``, ``mariadb``, ``mssql``)."""
    if _KIND_KEY.search(key):
        kind = value.strip().lower()
        known = set(tables()["url_schemes"].values())
        engine = tables()["url_schemes"].get(kind) or tables()["engine_aliases"].get(kind) or kind
        return engine if engine in known else None
    return engine_from_url(value)


def provider_from_url(value: str) -> str | None:
    match = re.match(r"^\s*([a-z][a-z0-9+]*)://", value, re.I)
    return tables()["broker_schemes"].get(match.group(1).lower().split("+")[0]) if match else None


def normalize_engine(name: str | None) -> str | None:
    if not name:
        return None
    key = name.strip().lower()
    engine: str = tables()["engine_aliases"].get(key, key)
    return engine


def normalize_provider(name: str | None) -> str:
    if not name:
        return UNKNOWN
    key = name.strip().lower()
    provider: str = tables()["provider_aliases"].get(key, key)
    return provider


def pick_engine(kind: str, tiers: Iterable[Iterable[str]]) -> str:
    """The single engine of the first tier that has engines able to store ``kind``."""
    allowed = tables()["entity_kinds"].get(kind)
    for tier in tiers:
        found = {e for e in tier if allowed is None or e in allowed}
        if len(found) == 1:
            return next(iter(found))
        if len(found) > 1:
            return UNKNOWN
    return UNKNOWN


def alternatives(engine: str, kind: str, profiled: Iterable[Sequence[str]]) -> list[str]:
    """The other engines that profiles select where ``engine`` is one choice of a property (the
    datasource URL of each profile), in the property's order, when they can store ``kind``."""
    allowed = tables()["entity_kinds"].get(kind)
    out: list[str] = []
    for choices in profiled:
        if engine in choices:
            out += [e for e in choices if e != engine and e not in out and (allowed is None or e in allowed)]
    return out


def framework_from_deps(linked: str | None, deps: Iterable[str]) -> str | None:
    """A more specific framework named by the manifest (a Spring Cloud Gateway on Spring Boot)."""
    if linked and linked not in tables()["generic_frameworks"]:
        return linked
    table = tables()["framework_dependencies"]
    found = sorted({table[k] for k in (_dep_key(d) for d in deps) if k in table})
    return found[0] if len(found) == 1 else linked
