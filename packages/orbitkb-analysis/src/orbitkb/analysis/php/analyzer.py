"""The PHP ``LanguageAnalyzer``: tree-sitter parse per file, then one link per service resolving
``config()`` keys through the service's config files, Symfony container parameters and wiring,
Laravel route-file prefixes, queue jobs, and the engine of Eloquent/Doctrine/PDO tables."""

from __future__ import annotations

import re
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
from orbitkb.analysis.php import tables
from orbitkb.analysis.php.extract import extract
from orbitkb.analysis.treesitter import OutlineLinker, TreeSitterAnalyzer, outlines, parse_gaps

_CONFIG_FILE = re.compile(r"(?:^|/)config/([\w\-]+)\.php$")


#: ``Queues::ORDERS`` / ``\\App\\Queues::ORDERS``: a class constant written in another file.
_CLASS_CONST = re.compile(r"\\?([\w\\]+)::([A-Za-z_]\w*)")


class PhpAnalyzer(TreeSitterAnalyzer):
    stack = "php"
    version = "php-8"
    suffixes = (".php",)
    grammar = ("tree_sitter_php", "language_php")
    skipped_endings = ("Test.php", "_ide_helper.php", ".blade.php")
    skip_reason = "test, generated, template or binary file"

    def read(self, path: str, text: str) -> dict[str, Any]:
        return extract(self.root(text))

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        return _Linker(outlines(parsed, "classes")).facts(parse_gaps(parsed))


class _Linker(OutlineLinker):
    def __init__(self, files: Mapping[str, dict[str, Any]]) -> None:
        self.files = files
        self.config: dict[str, Any] = {}
        self.params: dict[str, Any] = {}
        self.wiring: dict[str, Any] = {}
        self.classes: dict[str, tuple[str, dict[str, Any]]] = {}
        for path, data in files.items():
            match = _CONFIG_FILE.search(path)
            if match:
                for key, value in data["config"].items():
                    self.config.setdefault(f"{match.group(1)}.{key}", value)
            for key, value in data["params"].items():
                self.params.setdefault(key, value)
            for key, value in data["wiring"].items():
                self.wiring.setdefault(key.rsplit("\\", 1)[-1], value)
            for cls in data["classes"]:
                self.classes.setdefault(cls["name"], (path, cls))

    # ----------------------------------------------------------------- values

    def expr(self, value: list[list[Any]], cls: str | None = None, depth: int = 0) -> Expr:
        parts: list[Part] = []
        for part in value:
            parts.extend(self._part(part, cls, depth))
        return Expr(tuple(parts))

    def _part(self, part: list[Any], cls: str | None, depth: int) -> list[Part]:
        tag = part[0]
        if tag == "lit":
            return [Lit(part[1])]
        if tag == "env":
            return [Env(part[1], part[2])]
        if depth < 8 and tag == "config":
            if part[1] in self.config:
                return list(self.expr(self.config[part[1]], None, depth + 1).parts)
            return [Lit(part[2])] if part[2] is not None else [Unknown(f"config({part[1]})")]
        if depth < 8 and tag == "param" and part[1] in self.params:
            return list(self.expr(self.params[part[1]], None, depth + 1).parts)
        if depth < 8 and tag == "this" and cls in self.classes:
            found = self.classes[cls][1]
            if part[1] in found["props"]:
                return list(self.expr(found["props"][part[1]], cls, depth + 1).parts)
            idx = found["ctor_props"].get(part[1])
            args = self.wiring.get(cls)
            if idx is not None and args and idx < len(args):
                return list(self.expr(args[idx], None, depth + 1).parts)
        if depth < 8 and tag == "unknown" and (m := _CLASS_CONST.fullmatch(str(part[1]))):
            owner = self.classes.get(m.group(1).rsplit("\\", 1)[-1])  # RabbitQueues::ORDER of another file
            value = owner[1].get("consts", {}).get(m.group(2)) if owner else None
            if value:
                return list(self.expr(value, None, depth + 1).parts)
        return [Unknown(str(part[1]) if len(part) > 1 else "")]

    def config_literal(self, key: str) -> str | None:
        value = self.config.get(key)
        if not value:
            return None
        expr = self.expr(value)
        lit = expr.literal()
        if lit is None and len(expr.parts) == 1 and isinstance(expr.parts[0], Env):
            return expr.parts[0].default
        return lit

    # ----------------------------------------------------------------- facts

    def components(self) -> list[RawComponent]:
        out = {RawComponent(c["name"], p, "class", c["line"], c["end"]) for p, d in self.files.items() for c in d["classes"]}
        return sorted(out, key=lambda c: (c.file, c.start_line, c.name))

    def apis(self) -> list[RawApi]:
        out: set[RawApi] = set()
        for path, data in self.files.items():
            prefix = next((v for k, v in tables.ROUTE_FILE_PREFIXES.items() if path == k or path.endswith("/" + k)), "")
            for r in data["routes"]:
                full = r["path"]
                if r["framework"] == "laravel" and prefix:
                    full = prefix + (full if full != "/" else "")
                out.add(RawApi(r["method"], full, r["handler"], path, r["line"], r["end"], component=r["cls"],
                               framework=r["framework"]))  # fmt: skip
        return sorted(out, key=lambda a: (a.path, a.method, a.file, a.start_line, a.handler))

    def calls(self, handlers: set[str]) -> list[RawCall]:
        out: set[RawCall] = set()
        for path, data in self.files.items():
            for c in data["calls"]:
                out.add(RawCall("http", path, c["line"], c["end"], c["client"], self.expr(c["url"], c["cls"]),
                                c["method"], api_handler=c["fn"] if c["fn"] in handlers else None,
                                component=c["cls"]))  # fmt: skip
        return sorted(out, key=lambda c: (c.file, c.line, c.client))

    def _queue(self) -> tuple[str, list[list[Any]]]:
        """(provider, default queue) of the service's queue connection (config/queue.php)."""
        default = self.config_literal("queue.default") or ""
        driver = self.config_literal(f"queue.connections.{default}.driver") or default
        queue = self.config.get(f"queue.connections.{default}.queue") or [["lit", "default"]]
        return tables.QUEUE_DRIVERS.get(driver, "unknown"), queue

    def _is_job(self, cls: dict[str, Any]) -> bool:
        return "ShouldQueue" in cls["implements"]

    def messages(self, handlers: set[str]) -> list[RawMessage]:
        out: set[RawMessage] = set()
        provider, default_queue = self._queue()
        for path, data in self.files.items():
            for m in data["messages"]:
                out.add(RawMessage(m["direction"], self.expr(m["channel"], m["cls"]), m["provider"], path, m["line"],
                                   m["end"], m["client"], m["fn"] if m["fn"] in handlers else None, m["cls"]))  # fmt: skip
            for cls in data["classes"]:
                if self._is_job(cls) and cls["handles"]:
                    queue = cls["props"].get("queue") or default_queue
                    out.add(RawMessage("consumes", self.expr(queue), provider, path, cls["line"], cls["end"], "laravel-queue",
                                       None, cls["name"]))  # fmt: skip
            out.update(self._wrapped(path, data, handlers))
            for d in data["dispatches"]:
                found = self.classes.get(d["job"])
                if found is None or not self._is_job(found[1]):
                    continue
                queue = d["queue"] or found[1]["props"].get("queue") or default_queue
                out.add(RawMessage("publishes", self.expr(queue, d["cls"]), provider, path, d["line"], d["end"],
                                   "laravel-queue", d["fn"] if d["fn"] in handlers else None, d["cls"]))  # fmt: skip
        return sorted(out, key=lambda m: (m.file, m.line, m.direction))

    def _wrapped(self, path: str, data: dict[str, Any], handlers: set[str]) -> list[RawMessage]:
        """Calls of the service's messaging wrappers (``$rabbit->publish('orders', ...)``, a method that
        hands its parameter to ``basic_publish``): one message at each call, naming the argument's channel."""
        wrappers: dict[str, list[dict[str, Any]]] = {}
        for other in self.files.values():
            for w in other.get("msg_wrappers", ()):
                if "field" not in w:
                    wrappers.setdefault(w["method"], []).append(w)
        out = self._set_then_sent(path, data, handlers)
        for call in data.get("member_calls", ()) if wrappers else ():
            for w in wrappers.get(call["name"], ()):
                if call.get("recv_cls") not in (None, w["cls"]):
                    continue  # called on an object of another class: a method of the same name
                value = call["named"].get(w["name"])
                if value is None and w["index"] < len(call["args"]):
                    value = call["args"][w["index"]]
                if value and any(part[0] != "unknown" for part in value):  # a caller's own variable: unknown
                    out.append(RawMessage(w["direction"], self.expr(value, call["cls"]), w["provider"], path, call["line"],
                                          call["end"], w["client"], call["fn"] if call["fn"] in handlers else None,
                                          call["cls"]))  # fmt: skip
        return out

    def _set_then_sent(self, path: str, data: dict[str, Any], handlers: set[str]) -> list[RawMessage]:
        """A wrapper whose channel is a property its setter was given (``$rabbit->setQueue(Queues::ORDERS);
        $rabbit->publish($body)``, where ``publish`` sends on ``$this->queue``): one message at each send,
        naming what the same variable's setter last received in that function."""
        fields: dict[str, list[dict[str, Any]]] = {}  # method -> wrappers sending on a property
        setters: dict[str, list[tuple[str, str, int]]] = {}  # method -> (class, property, parameter index)
        for other in self.files.values():
            for w in other.get("msg_wrappers", ()):
                if "field" in w:
                    fields.setdefault(w["method"], []).append(w)
            for cls in other["classes"]:
                for method, (prop, index) in (cls.get("setters") or {}).items():
                    setters.setdefault(method, []).append((cls["name"], prop, index))
        if not fields:
            return []
        out = []
        held: dict[tuple[str | None, str], dict[tuple[str, str], Any]] = {}  # (fn, variable) -> (class, property) -> value
        for call in sorted(data.get("member_seq", ()), key=lambda c: c["line"]):
            key = (call["fn"], call["recv"])
            for cls, prop, index in setters.get(call["name"], ()):
                if index == 0 and call["arg"]:
                    held.setdefault(key, {})[(cls, prop)] = call["arg"]
            for w in fields.get(call["name"], ()):
                value = held.get(key, {}).get((w["cls"], w["field"]))
                channel = self.expr(value, call["cls"]) if value else None
                if channel is not None and any(not isinstance(p, Unknown) for p in channel.parts):
                    out.append(RawMessage(w["direction"], channel, w["provider"], path, call["line"],
                                          call["end"], w["client"], call["fn"] if call["fn"] in handlers else None,
                                          call["cls"]))  # fmt: skip
        return out

    def _eloquent(self, cls: dict[str, Any], depth: int = 0) -> bool:
        if cls["extends"] in tables.ELOQUENT_BASES:
            return True
        parent = self.classes.get(cls["extends"] or "")
        return bool(parent and depth < 6 and parent[1] is not cls and self._eloquent(parent[1], depth + 1))

    def _engine(self, dsn: list[str], eloquent: bool) -> str | None:
        default = self.config_literal("database.default")
        driver = self.config_literal(f"database.connections.{default}.driver") if default else None
        engine = tables.DRIVERS.get(driver or default or "")
        chosen = self.expr(self.config.get("database.default") or []).parts
        if len(chosen) == 1 and isinstance(chosen[0], Env):
            # ``env('DB_CONNECTION', 'sqlite')``: the deployment names the connection, the default is a
            # fallback; the build resolves it (connection names are the drivers' in Laravel's config)
            return f"${{{chosen[0].name}:{engine}}}" if engine else f"${{{chosen[0].name}}}"
        if engine:
            return engine
        found = sorted(set(dsn))
        if len(found) == 1:
            return found[0]
        if "database.default" not in self.config and eloquent:
            # no config/database.php: the framework's own (Laravel's, Lumen's) picks the connection
            # by the environment, which the build resolves from compose, k8s or a .env file
            return f"${{{tables.CONNECTION_ENV}}}"
        return None

    def entities(self) -> list[RawEntity]:
        out: set[RawEntity] = set()
        models = any(self._eloquent(c) for d in self.files.values() for c in d["classes"])
        engine = self._engine([e for d in self.files.values() for e in d["dsn"]], models)
        for path, data in self.files.items():
            for cls in data["classes"]:
                if cls["entity"] is not None:
                    name = cls["entity"]["table"] or snake(cls["name"])
                    fields = tuple((f[0], f[1], f[2], f[3]) for f in cls["fields"])
                    out.add(RawEntity(name, "sql_table", path, cls["line"], cls["end"], cls["name"], fields,
                                      engine, "doctrine"))  # fmt: skip
                elif self._eloquent(cls) and cls["name"] not in tables.ELOQUENT_BASES:
                    table = _literal(cls["props"].get("table")) or table_name(cls["name"])
                    conn = _literal(cls["props"].get("connection"))
                    hint = tables.DRIVERS.get(conn or "") or engine
                    kind = "document_collection" if hint == "mongodb" else "sql_table"
                    out.add(RawEntity(table, kind, path, cls["line"], cls["end"], cls["name"], engine_hint=hint,
                                      framework="eloquent"))  # fmt: skip
        mapped = {e.name.lower() for e in out}  # a table a model maps is that model's, not a second one
        for path, data in self.files.items():
            for sql in data["sql"]:
                for table in sql["tables"]:
                    if table.lower() not in mapped:
                        out.add(RawEntity(table, "sql_table", path, sql["line"], sql["end"], None,
                                          engine_hint=engine, framework="pdo"))  # fmt: skip
        return sorted(out, key=lambda e: (e.name, e.file, e.start_line))


def _literal(value: list[list[Any]] | None) -> str | None:
    if value and all(p[0] == "lit" for p in value):
        return "".join(p[1] for p in value)
    return None
