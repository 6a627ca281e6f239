"""Rails ``config/database.yml``: the ``adapter`` names the engine without a URL. It is read as a
URL-shaped configuration value (``postgresql://``) so the engine tiers treat it like a
DATABASE_URL; the ``test`` environment's adapter is not the service's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from orbitkb.analysis.config.model import ConfigValue

#: ActiveRecord adapter -> URL scheme of engines.json.
ADAPTERS = {"postgresql": "postgresql", "postgis": "postgresql", "mysql2": "mysql", "trilogy": "mysql",
            "mysql": "mysql", "sqlite3": "sqlite", "sqlserver": "sqlserver", "oracle_enhanced": "oracle",
            "cockroachdb": "cockroachdb"}  # fmt: skip
KEY = "DATABASE_ADAPTER"
_TOP = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
_ADAPTER = re.compile(r"""^\s+adapter:\s*["']?([\w-]+)""")


def database_yml_values(paths: Iterable[str], texts: Mapping[str, str]) -> list[ConfigValue]:
    out = []
    for path in paths:
        if not (path == "config/database.yml" or path.endswith("/config/database.yml")):
            continue
        section = ""
        for number, line in enumerate(texts.get(path, "").splitlines(), 1):
            if top := _TOP.match(line):
                section = top.group(1)
            elif (found := _ADAPTER.match(line)) and section != "test" and found.group(1) in ADAPTERS:
                out.append(ConfigValue(KEY, ADAPTERS[found.group(1)] + "://", path, number, "code"))
                break
    return out
