"""schema.prisma: models with their @@map table names, fields, and the datasource provider."""

from __future__ import annotations

import re
from typing import Any

_BLOCK = re.compile(r"^[ \t]*(model|datasource)\s+(\w+)\s*\{(.*?)^[ \t]*\}", re.MULTILINE | re.DOTALL)
_MAP = re.compile(r"@@map\(\s*(?:name:\s*)?\"([^\"]+)\"")
_PROVIDER = re.compile(r"provider\s*=\s*\"([^\"]+)\"")
_ENGINES = {
    "postgresql": "postgres",
    "postgres": "postgres",
    "mysql": "mysql",
    "sqlite": "sqlite",
    "sqlserver": "sqlserver",
    "mongodb": "mongodb",
    "cockroachdb": "cockroachdb",
}


def parse_prisma(text: str) -> dict[str, Any]:
    engine = None
    entities = []
    for match in _BLOCK.finditer(text):
        kind, name, body = match.groups()
        if kind == "datasource":
            provider = _PROVIDER.search(body)
            engine = _ENGINES.get(provider.group(1)) if provider else None
            continue
        mapped = _MAP.search(body)
        fields = []
        for raw in body.splitlines():
            line = raw.split("//", 1)[0].strip()
            if not line or line.startswith("@@"):
                continue
            tokens = line.split()
            if len(tokens) < 2 or not re.match(r"^\w+$", tokens[0]):
                continue
            ftype = tokens[1]
            if (
                "@relation" in line
                or ftype.rstrip("?[]")[:1].isupper()
                and ftype.rstrip("?[]") not in _SCALARS
            ):
                continue  # relation fields are not columns
            fields.append([tokens[0], ftype.rstrip("?"), ftype.endswith("?"), "@id" in tokens[2:]])
        start = text.count("\n", 0, match.start()) + 1
        entities.append(
            {
                "fw": "prisma",
                "cls": name,
                "table": [["lit", mapped.group(1)]] if mapped else [["lit", name]],
                "fields": sorted(fields),
                "line": start,
                "end": text.count("\n", 0, match.end()) + 1,
                "fn": None,
                "decorated": True,
            }
        )
    for entity in entities:
        entity["engine"] = engine
    return {"entities": entities}


_SCALARS = frozenset({"String", "Int", "BigInt", "Float", "Decimal", "Boolean", "DateTime", "Json", "Bytes"})
