"""The Ruby ``LanguageAnalyzer``: tree-sitter parse per file, then one link per service composing
Grape mounts, constants across files, job queues and ActiveRecord table names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.facts import (
    Env,
    Expr,
    LinkedFacts,
    Lit,
    Part,
    RawApi,
    RawCall,
    RawComponent,
    RawEntity,
    RawMessage,
    ServiceContext,
    Unknown,
)  # fmt: skip
from orbitkb.analysis.inflect import snake, table_name
from orbitkb.analysis.ruby import tables
from orbitkb.analysis.ruby.extract import extract
from orbitkb.analysis.ruby.rails import join
from orbitkb.analysis.treesitter import OutlineLinker, TreeSitterAnalyzer, outlines, parse_gaps


class RubyAnalyzer(TreeSitterAnalyzer):
    stack = "ruby"
    version = "ruby-6"
    suffixes = (".rb",)
    grammar = ("tree_sitter_ruby", "language")
    skipped_endings = ("_spec.rb", "_test.rb")
    skip_reason = "test or binary file"

    def read(self, path: str, text: str) -> dict[str, Any]:
        return extract(self.root(text))

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        return _Linker(outlines(parsed, "classes")).facts(parse_gaps(parsed))


class _Linker(OutlineLinker):
    def __init__(self, files: Mapping[str, dict[str, Any]]) -> None:
        self.files = files
        self.consts: dict[str, Any] = {}
        self.classes: dict[str, tuple[str, dict[str, Any]]] = {}
        for path, data in files.items():
            for name, value in data["consts"].items():
                self.consts.setdefault(name, value)
            for cls in data["classes"]:
                self.classes.setdefault(cls["name"], (path, cls))
                self.classes.setdefault(cls["short"], (path, cls))

    # ----------------------------------------------------------------- values

    def expr(self, value: list[list[Any]], depth: int = 0) -> Expr:
        parts: list[Part] = []
        for part in value:
            tag = part[0]
            if tag == "lit":
                parts.append(Lit(part[1]))
            elif tag == "env":
                parts.append(Env(part[1], part[2]))
            elif tag == "const" and part[1] in self.consts and depth < 8:
                parts.extend(self.expr(self.consts[part[1]], depth + 1).parts)
            elif tag == "base" and part[1] in self.classes and self.classes[part[1]][1]["base"] and depth < 8:
                parts.extend(self.expr(self.classes[part[1]][1]["base"], depth + 1).parts)
            else:
                parts.append(Unknown(str(part[1]) if len(part) > 1 else ""))
        return Expr(tuple(parts))

    # ----------------------------------------------------------------- facts

    def components(self) -> list[RawComponent]:
        out = {
            RawComponent(cls["name"], path, "class", cls["line"], cls["end"])
            for path, data in self.files.items()
            for cls in data["classes"]
            if cls["kind"] == "class"
        }
        return sorted(out, key=lambda c: (c.file, c.start_line, c.name))

    def _mount_prefix(self, cls_name: str, depth: int = 0) -> str:
        """The prefixes of the Grape APIs that mount this one, outermost first."""
        if depth > 8:
            return ""
        short = cls_name.rsplit("::", 1)[-1]
        for data in self.files.values():
            for cls in data["classes"]:
                if any(m == cls_name or m.rsplit("::", 1)[-1] == short for m in cls["mounts"]):
                    return join(self._mount_prefix(cls["name"], depth + 1), cls["prefix"])
        return ""

    def apis(self) -> list[RawApi]:
        out: set[RawApi] = set()
        api_only = any(d.get("api_only") for d in self.files.values())
        for path, data in self.files.items():
            for r in data["routes"]:
                if api_only and r.get("form"):
                    continue
                full = r["path"]
                if r["framework"] == "grape" and r["cls"] in self.classes:
                    cls = self.classes[r["cls"]][1]
                    full = join(join(self._mount_prefix(cls["name"]), cls["prefix"]), r["path"])
                in_file = r["cls"] if r["cls"] and self.classes.get(r["cls"], ("",))[0] == path else None
                out.add(RawApi(r["method"], full, r["handler"], path, r["line"], r["end"], component=in_file,
                               framework=r["framework"]))  # fmt: skip
        return sorted(out, key=lambda a: (a.path, a.method, a.file, a.start_line, a.handler))

    def calls(self, handlers: set[str]) -> list[RawCall]:
        out: set[RawCall] = set()
        for path, data in self.files.items():
            for c in data["calls"]:
                if c.get("via") and not self._includes(c["via"], "HTTParty"):
                    continue
                out.add(RawCall("http", path, c["line"], c["end"], c["client"], self.expr(c["url"]), c["method"],
                                api_handler=c["fn"] if c["fn"] in handlers else None, component=c["cls"]))  # fmt: skip
        return sorted(out, key=lambda c: (c.file, c.line, c.client))

    def _includes(self, name: str, module: str) -> bool:
        found = self.classes.get(name) or self.classes.get(name.rsplit("::", 1)[-1])
        return bool(found and module in found[1]["includes"])

    def _job(self, cls: dict[str, Any]) -> tuple[list[list[Any]], str] | None:
        """(queue, provider) of a background job class."""
        for module, provider in tables.JOB_MODULES.items():
            if module in cls["includes"]:
                return cls["queue"] or [["lit", "default"]], provider
        if cls["super"] in tables.CONSUMER_BASES and cls["queue"]:
            return cls["queue"], tables.CONSUMER_BASES[cls["super"]]
        if cls["super"] in ("ApplicationJob", "ActiveJob::Base") and cls["queue"]:
            return cls["queue"], "unknown"
        return None

    def messages(self, handlers: set[str]) -> list[RawMessage]:
        out: set[RawMessage] = set()
        for path, data in self.files.items():
            for m in data["messages"]:
                out.add(RawMessage(m["direction"], self.expr(m["channel"]), m["provider"], path, m["line"], m["end"],
                                   m["client"], m["fn"] if m["fn"] in handlers else None, m["cls"]))  # fmt: skip
            for cls in data["classes"]:
                job = self._job(cls)
                if job is not None:
                    out.add(RawMessage("consumes", self.expr(job[0]), job[1], path, cls["line"], cls["end"],
                                       "job", None, cls["name"]))  # fmt: skip
            for e in data["enqueues"]:
                found = self.classes.get(e["job"]) or self.classes.get(e["job"].rsplit("::", 1)[-1])
                job = self._job(found[1]) if found else None
                if job is None:
                    continue
                out.add(RawMessage("publishes", self.expr(e["queue"] or job[0]), job[1], path, e["line"], e["end"],
                                   "job", e["fn"] if e["fn"] in handlers else None, e["cls"]))  # fmt: skip
        return sorted(out, key=lambda m: (m.file, m.line, m.direction))

    def _model(self, cls: dict[str, Any], depth: int = 0) -> tuple[str, str | None] | None:
        for module, found in tables.MODEL_MODULES.items():
            if module in cls["includes"]:
                return found
        sup = cls["super"]
        if sup == "Sequel::Model":
            return "sql_table", None
        if sup in tables.MODEL_BASES:
            return tables.MODEL_BASES[sup]
        parent = self.classes.get(sup or "") or self.classes.get((sup or "").rsplit("::", 1)[-1])
        if parent is not None and depth < 6 and parent[1] is not cls and parent[1]["abstract"]:
            return self._model(parent[1], depth + 1)
        return None

    def _searchable(self, cls: dict[str, Any], depth: int = 0) -> bool:
        """Includes a search-index mixin itself or through a concern it includes."""
        for name in cls["includes"]:
            if name in tables.SEARCH_MODULES:
                return True
            found = self.classes.get(name) or self.classes.get(name.rsplit("::", 1)[-1])
            if found is not None and depth < 4 and found[1] is not cls and self._searchable(found[1], depth + 1):
                return True
        return False

    def _search_index(self, cls: dict[str, Any]) -> str | None:
        """The Elasticsearch index a class keeps: a Chewy index class (``UsersIndex`` -> ``users``) or a
        model indexed by elasticsearch-model / Searchkick (``index_name`` when given, else its table)."""
        if cls["kind"] != "class":
            return None
        if cls["super"] in tables.SEARCH_BASES:
            return snake(cls["short"].removesuffix("Index")) or None
        if cls.get("search_index") is None and not self._searchable(cls):
            return None
        return cls.get("search_index") or cls["table"] or table_name(cls["short"])

    def entities(self) -> list[RawEntity]:
        out: set[RawEntity] = set()
        for path, data in self.files.items():
            for cls in data["classes"]:
                if cls["abstract"] or cls["name"] == "ApplicationRecord" or cls["kind"] != "class":
                    continue
                model = self._model(cls)
                if model is None:
                    continue
                name = cls["table"] or table_name(cls["short"])
                framework = "mongoid" if model[1] == "mongodb" else "sequel" if cls["super"] == "Sequel::Model" else "activerecord"
                out.add(RawEntity(name, model[0], path, cls["line"], cls["end"], cls["name"], engine_hint=model[1],
                                  framework=framework))  # fmt: skip
            for cls in data["classes"]:
                index = self._search_index(cls)
                if index is not None:
                    out.add(RawEntity(index, "search_index", path, cls["line"], cls["end"], cls["name"],
                                      engine_hint="elasticsearch", framework="elasticsearch-ruby"))  # fmt: skip
        spaces: dict[str, RawEntity] = {}
        for path, data in sorted(self.files.items()):
            for rec in data.get("keys", ()):
                space = _key_space(rec["key"])
                spaces.setdefault(space, RawEntity(space, "key_value", path, rec["line"], rec["end"],
                                                   engine_hint="redis", framework="redis-rb"))  # fmt: skip
        return sorted(out | set(spaces.values()), key=lambda e: (e.name, e.file))


def _key_space(parts: list[list[Any]]) -> str:
    """A Redis key's space: ``"cart:#{id}"`` -> ``cart``; a literal key as written; ``*`` when the key
    is computed at runtime."""
    lead: list[str] = []
    for part in parts:
        if part[0] != "lit":
            return "".join(lead).rstrip(":._-/|#") or "*"
        lead.append(str(part[1]))
    return "".join(lead) or "*"
