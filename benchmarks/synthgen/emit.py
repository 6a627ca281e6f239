"""What an emitter returns for one service, and small text helpers shared by the emitters."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from synthgen.plan import Route, ServicePlan
from synthgen.words import FIELD_NAMES, SENTENCES

CODE_SUFFIXES = (".py", ".js", ".ts", ".java", ".go")


@dataclass
class ExpectedApi:
    method: str
    path: str
    handler: str
    kind: str = "http"


@dataclass
class ServiceOutput:
    files: dict[str, str] = field(default_factory=dict)  # path relative to the service root -> text
    apis: list[ExpectedApi] = field(default_factory=list)

    def add(self, path: str, text: str) -> None:
        self.files[path] = text

    def code_files(self) -> int:
        return sum(1 for p in self.files if p.endswith(CODE_SUFFIXES))


def snake(name: str) -> str:
    return name.replace("-", "_")


def camel(name: str) -> str:
    parts = name.replace("-", "_").split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def pascal(name: str) -> str:
    c = camel(name)
    return c[:1].upper() + c[1:]


def handler_name(route: Route) -> str:
    """snake_case handler base: list_orders, get_order, approve_order."""
    noun = route.plural if route.action == "list" else route.singular.lower()
    return f"{route.action}_{noun}"


def fields_for(rng: random.Random, count: int) -> list[str]:
    return sorted(rng.sample(FIELD_NAMES, count), key=FIELD_NAMES.index)


def prose(rng: random.Random, n: int = 2) -> str:
    return " ".join(rng.sample(SENTENCES, n))


def fill_to_quota(out: ServicePlan, result: ServiceOutput, makers: list, rng: random.Random) -> None:
    """Adds helper, DTO and test files (round robin over ``makers``) until the quota is met."""
    i = 0
    while result.code_files() < out.quota:
        path, text = makers[i % len(makers)](rng, out, i)
        if path not in result.files:
            result.add(path, text)
        i += 1
