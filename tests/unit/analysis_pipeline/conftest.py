"""Stub language analyzers speaking a tiny directive language, and an in-memory cache.

Fixture files carry comment directives (``# @api GET /orders list_orders``) so each test states
the raw facts a real parser would extract and checks what the pipeline makes of them.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.facts import (
    Env,
    Expr,
    LinkedFacts,
    Lit,
    ParseGap,
    Prop,
    RawApi,
    RawCall,
    RawComponent,
    RawEntity,
    RawMessage,
    ServiceContext,
    Unknown,
    expr_from_json,
    expr_to_json,
)
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.model import ServiceFacts
from orbitkb.domain.ports import AnalysisRequest, AnalysisResult

_DIRECTIVE = re.compile(r"(?:#|//)\s*@(\w+)\s*(.*)$")


def parse_expr(text: str) -> Expr:
    """``env:NAME|default+lit:/x+prop:key+unk:hint`` -> Expr."""
    parts = []
    for piece in text.split("+"):
        tag, _, body = piece.partition(":")
        name, sep, default = body.partition("|")
        if tag == "lit":
            parts.append(Lit(body))
        elif tag == "env":
            parts.append(Env(name, default if sep else None))
        elif tag == "prop":
            parts.append(Prop(name, default if sep else None))
        else:
            parts.append(Unknown(body))
    return Expr(tuple(parts))


class StubAnalyzer:
    def __init__(self, stack: str, suffixes: Sequence[str], version: str = "1") -> None:
        self.stack = stack
        self.suffixes = tuple(suffixes)
        self.version = version
        self.parse_calls: list[str] = []
        self.link_calls: list[tuple[ServiceContext, list[str]]] = []

    def parse(self, path: str, text: str) -> dict[str, Any]:
        self.parse_calls.append(path)
        out: dict[str, Any] = {"directives": []}
        for number, line in enumerate(text.splitlines(), 1):
            match = _DIRECTIVE.search(line)
            if not match:
                continue
            name, rest = match.groups()
            if name == "entry":
                out["entrypoint"] = True
            elif name == "error":
                return {"error": rest or "syntax error"}
            elif name == "crash":
                raise RuntimeError("boom")
            else:
                args = shlex.split(rest)
                if name == "call":
                    args[2] = expr_to_json(parse_expr(args[2]))
                if name == "msg":
                    args[2] = expr_to_json(parse_expr(args[2]))
                out["directives"].append([name, number, args])
        return out

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        self.link_calls.append((ctx, sorted(parsed)))
        comps, apis, calls, msgs, ents, impl, gaps = [], [], [], [], [], [], []
        framework = None
        props: dict[str, str] = {}
        for path in sorted(parsed):
            for name, line, args in parsed[path].get("directives", []):
                pos = [
                    a
                    for a in args
                    if not (isinstance(a, str) and "=" in a and not a.startswith(("/", "env:", "lit:")))
                ]
                kw = dict(a.split("=", 1) for a in args if isinstance(a, str) and a not in pos)
                if name == "component":
                    comps.append(RawComponent(pos[0], path, "class", line, line + 1, kw.get("doc")))
                elif name == "api":
                    apis.append(
                        RawApi(
                            pos[0],
                            pos[1],
                            pos[2],
                            path,
                            line,
                            line + 2,
                            kind=kw.get("kind", "http"),
                            component=kw.get("component"),
                            channel=kw.get("channel"),
                            provider=kw.get("provider"),
                            doc=kw.get("doc"),
                        )
                    )
                elif name == "call":
                    calls.append(
                        RawCall(
                            pos[0],
                            path,
                            line,
                            line,
                            pos[1],
                            expr_from_json(pos[2]),
                            method=kw.get("method"),
                            grpc_service=kw.get("grpc"),
                            target_hint=kw.get("hint"),
                            api_handler=kw.get("handler"),
                            component=kw.get("component"),
                        )
                    )
                elif name == "msg":
                    msgs.append(
                        RawMessage(
                            pos[0],
                            expr_from_json(pos[2]),
                            pos[1],
                            path,
                            line,
                            line,
                            api_handler=kw.get("handler"),
                        )
                    )
                elif name == "entity":
                    fields = tuple((f, "str", None, f == "id") for f in kw.get("fields", "").split(",") if f)
                    ents.append(
                        RawEntity(
                            pos[0], pos[1], path, line, line + 3, kw.get("class"), fields, kw.get("engine")
                        )
                    )
                elif name == "grpc_impl":
                    impl.append(pos[0])
                elif name == "framework":
                    framework = pos[0]
                elif name == "gap":
                    gaps.append(ParseGap(path, "unsupported", " ".join(pos)))
                elif name == "prop":
                    props[pos[0]] = pos[1]
        return LinkedFacts(
            tuple(comps),
            tuple(apis),
            tuple(calls),
            tuple(msgs),
            tuple(ents),
            tuple(impl),
            framework,
            tuple(gaps),
            props,
        )


class DictCache:
    def __init__(self) -> None:
        self.data: dict[str, str] = {}
        self.gets = 0
        self.puts = 0

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        self.gets += 1
        return {k: self.data[k] for k in keys if k in self.data}

    def put_many(self, items: Mapping[str, str]) -> None:
        self.puts += 1
        self.data.update(items)


def deployments(image: str, workloads: dict[str, str], container: str | None = "main") -> str:
    """Kubernetes Deployments of one image, one per name, each with the extra container lines given
    (``command``/``args``/``env``, already indented); the container named ``container`` or, when None,
    after its Deployment."""
    return "\n---\n".join(
        f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  template:
    spec:
      containers:
        - name: {container or name}
          image: {image}{extra}"""
        for name, extra in workloads.items()
    )


def make_stubs() -> list[StubAnalyzer]:
    return [
        StubAnalyzer("python", [".py"]),
        StubAnalyzer("node-ts", [".ts", ".js"]),
        StubAnalyzer("jvm-spring", [".java", ".kt"]),
        StubAnalyzer("go", [".go"]),
    ]


class Run:
    """One analysis of an in-memory tree, with helpers to look facts up by service name."""

    def __init__(self, result: AnalysisResult) -> None:
        self.result = result

    def service(self, name: str) -> ServiceFacts:
        for facts in self.result.services:
            if facts.service.name == name:
                return facts
        raise AssertionError(f"no service {name!r}; have {self.names()}")

    def names(self) -> list[str]:
        return [f.service.name for f in self.result.services]

    def gaps(self, kind: str | None = None) -> list[tuple[str, str]]:
        return [(g.path, g.kind) for g in self.result.gaps if kind is None or g.kind == kind]


@pytest.fixture
def analyze():
    def run(
        files: Mapping[str, str | bytes],
        repository: str = "shop",
        forced=None,
        stubs=None,
        cache=None,
        commit: str | None = "c0ffee",
        **kwargs: Any,
    ) -> Run:
        analyzer = StaticCodeAnalyzer(
            analyzers=stubs if stubs is not None else make_stubs(), workers=0, **kwargs
        )
        tree = MemorySourceTree(files, commit=commit)
        return Run(
            analyzer.analyze(
                tree, AnalysisRequest(repository, forced), cache if cache is not None else DictCache()
            )
        )

    return run


@pytest.fixture
def stubs() -> list[StubAnalyzer]:
    return make_stubs()


@pytest.fixture
def cache() -> DictCache:
    return DictCache()


@pytest.fixture
def analyze_tree():
    """Analyze any SourceTree (for trees MemorySourceTree cannot express)."""

    def run(tree: Any, repository: str = "shop", stubs=None, cache=None) -> Run:
        analyzer = StaticCodeAnalyzer(analyzers=stubs if stubs is not None else make_stubs(), workers=0)
        return Run(
            analyzer.analyze(tree, AnalysisRequest(repository), cache if cache is not None else DictCache())
        )

    return run
