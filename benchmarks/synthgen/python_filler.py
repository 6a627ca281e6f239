"""Python filler: helpers, pydantic DTOs, service-layer modules and tests (realistic bulk)."""

from __future__ import annotations

import random

from synthgen.emit import fields_for, prose, snake
from synthgen.plan import ServicePlan
from synthgen.words import NOUNS, VERBS

PY_TYPES = {
    "amount": "float",
    "quantity": "int",
    "total": "float",
    "weight": "float",
    "score": "float",
    "priority": "int",
    "version": "int",
    "active": "bool",
    "created_at": "datetime",
    "updated_at": "datetime",
    "due_date": "datetime",
}


def _functions(rng: random.Random, tag: str, count: int) -> list[str]:
    out = []
    for k in range(count):
        verb = rng.choice(VERBS)
        fields = fields_for(rng, rng.randint(2, 5))
        name = f"{verb}_{tag}_{k}"
        body = [
            f"def {name}(records, *, strict=False):",
            f'    """{verb.capitalize()} {tag} records. {prose(rng)}',
            "",
            "    Returns a new list; the input is never modified.",
            '    """',
            "    result = []",
            "    for record in records or []:",
            "        if record is None:",
            "            continue",
            "        item = dict(record)",
        ]
        for f in fields:
            kind = PY_TYPES.get(f, "str")
            if kind == "str":
                body.append(f'        item["{f}"] = str(item.get("{f}") or "").strip()')
            elif kind in ("int", "float"):
                body += [
                    f'        value = item.get("{f}", 0) or 0',
                    "        if strict and value < 0:",
                    f'            raise ValueError("{f} must not be negative")',
                    f'        item["{f}"] = {kind}(value)',
                ]
            else:
                body.append(f'        item.setdefault("{f}", None)')
        body += [
            "        result.append(item)",
            f'    return sorted(result, key=lambda r: str(r.get("{fields[0]}")))',
            "",
        ]
        out.append("\n".join(body))
    return out


def helper(pkg: str):  # noqa: ANN201 - returns a maker
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1].lower()
        text = [
            f'"""Helpers for {tag} records ({plan.name}). {prose(rng, 1)}"""',
            "",
            "from __future__ import annotations",
            "",
            "import logging",
            "from collections.abc import Iterable",
            "",
            "log = logging.getLogger(__name__)",
            f"DEFAULT_PAGE_SIZE = {rng.choice((20, 50, 100))}",
            "",
            "",
        ]
        text.append("\n\n".join(_functions(rng, tag, rng.randint(5, 9))))
        text += [
            "",
            "def chunked(items: Iterable, size: int = DEFAULT_PAGE_SIZE):",
            "    batch = []",
            "    for item in items:",
            "        batch.append(item)",
            "        if len(batch) == size:",
            "            yield batch",
            "            batch = []",
            "    if batch:",
            "        yield batch",
            "",
        ]
        return f"{pkg}/utils/{tag}_helpers_{i}.py", "\n".join(text)

    return make


def schema(pkg: str):  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        plural, singular = rng.choice(NOUNS)
        text = [
            f'"""Request and response models for {plural}."""',
            "",
            "from datetime import datetime",
            "",
            "from pydantic import BaseModel, Field",
            "",
        ]
        for suffix in ("In", "Out", "Patch", "Summary"):
            text += ["", f"class {singular}{suffix}{i}(BaseModel):", f'    """{prose(rng, 1)}"""', ""]
            for f in fields_for(rng, rng.randint(4, 9)):
                t = PY_TYPES.get(f, "str")
                text.append(f'    {f}: {t} | None = Field(default=None, description="{f.replace("_", " ")}")')
            text.append("")
        return f"{pkg}/schemas/{plural}_{i}.py", "\n".join(text)

    return make


def test():  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1].lower()
        text = [f'"""Tests for the {tag} helpers."""', "", "import pytest", ""]
        for k in range(rng.randint(3, 6)):
            f = fields_for(rng, 1)[0]
            text += [
                "",
                f"def test_{tag}_{f}_{k}():",
                f'    records = [{{"{f}": {k}}}, None, {{"{f}": {k + 1}}}]',
                "    cleaned = [r for r in records if r]",
                "    assert len(cleaned) == 2",
                f'    assert cleaned[0]["{f}"] == {k}',
                "",
            ]
        text += [
            "",
            '@pytest.mark.parametrize("value", [0, 1, 2, 3])',
            f"def test_{tag}_bounds(value):",
            "    assert 0 <= value < 4",
            "",
        ]
        return f"tests/test_{tag}_{i}.py", "\n".join(text)

    return make


def service_module(rng: random.Random, plan: ServicePlan, mod: str, plural: str, singular: str) -> str:
    clients = sorted({c.target for c in plan.calls})[:2]
    text = [f'"""Business rules for {plural}."""', "", "from __future__ import annotations", ""]
    text += [f"from {mod}.clients import {snake(t)}" for t in clients]
    text += [
        "",
        "_STORE: dict[int, dict] = {}",
        "",
        "",
        "def find(item_id):",
        "    return _STORE.get(int(item_id))",
        "",
        "",
        "def list(payload=None):",
        '    return sorted(_STORE.values(), key=lambda r: r["id"])',
        "",
        "",
        "def create(payload):",
        "    item = dict(payload or {})",
        '    item["id"] = len(_STORE) + 1',
        '    _STORE[item["id"]] = item',
        "    return item",
        "",
        "",
        "def update(payload):",
        "    return create(payload)",
        "",
    ]
    text += _functions(rng, singular.lower(), rng.randint(2, 4))
    return "\n".join(text) + "\n"


def resource_schema(rng: random.Random, singular: str) -> str:
    text = [
        f'"""{singular} payloads."""',
        "",
        "from datetime import datetime",
        "",
        "from pydantic import BaseModel",
        "",
    ]
    for suffix in ("In", "Out"):
        text += ["", f"class {singular}{suffix}(BaseModel):"]
        if suffix == "Out":
            text.append("    id: int")
        for f in fields_for(rng, rng.randint(3, 8)):
            text.append(f"    {f}: {PY_TYPES.get(f, 'str')} | None = None")
        text.append("")
    return "\n".join(text)
