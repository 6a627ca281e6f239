"""Configuration a service's code requires: checked once the service's configuration is known.

A linker cannot see compose, Kubernetes or .env files, so it reports a value that must be set
(a NestJS RMQ client's ``queue`` read from ConfigService) as a ``ParseGap`` of kind
``config_ref`` carrying the value's expression. The pipeline resolves it against the service's
configuration: nothing is reported when it resolves, a ``config_error`` gap naming the key when
an environment variable or property without a default is set nowhere.

(A dedicated ``LinkedFacts.config_refs`` field would be cleaner; the gap kind keeps the
facts contract unchanged.)
"""

from __future__ import annotations

import json

from orbitkb.analysis.config.service_config import ServiceConfig
from orbitkb.analysis.facts import Env, Expr, ParseGap, Prop, expr_from_json, expr_to_json
from orbitkb.domain.model import Gap

KIND = "config_ref"


def config_ref(file: str, line: int, what: str, value: Expr) -> ParseGap:
    """A value the code needs at ``file:line``, described as ``what`` (e.g. "queue of client X")."""
    reason = json.dumps({"what": what, "line": line, "value": expr_to_json(value)}, sort_keys=True)
    return ParseGap(file, KIND, reason)


def check(repository: str, ref: ParseGap, config: ServiceConfig) -> Gap | None:
    """A ``config_error`` gap when a key ``ref`` needs is defined nowhere, else None."""
    try:
        data = json.loads(ref.reason)
        value = expr_from_json(data["value"])
        what, line = str(data["what"]), int(data["line"])
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    missing = []
    for part in value.parts if value is not None else ():
        if isinstance(part, Env) and part.default is None and not config.env_candidates(part.name):
            missing.append(part.name)
        elif isinstance(part, Prop) and part.default is None and not config.prop_candidates(part.key):
            missing.append(part.key)
    if not missing:
        return None
    keys = ", ".join(sorted(set(missing)))
    return Gap(
        repository,
        ref.file,
        "config_error",
        f"{what} (line {line}) reads {keys}, which no configuration of the service defines"
        " (compose, Kubernetes, helm, .env, properties): it resolves to nothing",
    )
