"""One PHP file into JSON-able records: classes (Symfony route prefixes, Doctrine/Eloquent
models), routes (Laravel, Symfony attributes and annotations, Slim/Lumen), HTTP calls (Guzzle,
Laravel ``Http``, curl), messaging (php-amqplib, Laravel queues, Redis), SQL text, config arrays
and Symfony container wiring. Cross-file work is left to ``link``."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.php import annotations as php_annotations
from orbitkb.analysis.php import tables
from orbitkb.analysis.php.routes import CALL_TYPES, RouteRecorder, chain_of
from orbitkb.analysis.php.syntax import (
    Value,
    array_items,
    attributes,
    call_args,
    call_name,
    call_object,
    doc_comment,
    facade,
    fold,
    literal,
    named_args,
    positional,
    short,
    string,
    strings,
)  # fmt: skip
from orbitkb.analysis.resolution.storenames import tables_in
from orbitkb.analysis.treesitter import end_line, line, text, walk

_DSN = re.compile(r"^(mysql|pgsql|sqlite|sqlsrv|mariadb|oci):", re.I)
#: (facade, method) whose first argument names a table the code reads or writes (migrations are left
#: out: a framework skeleton creates cache, jobs and session tables no code of the service names)
_LARAVEL_TABLES = frozenset({("db", "table")})
_TABLE_NAME = re.compile(r"[A-Za-z_][\w.]*")
_AMQP_METHODS = frozenset({"basic_publish", "basic_consume"})
_MEMBER_CALLS = frozenset({"member_call_expression", "nullsafe_member_call_expression"})
#: Route methods that also register when chained after ``Route::middleware(...)`` / ``Route::prefix(...)``.
_LARAVEL_CHAINED = frozenset({"group", "get", "post", "put", "patch", "delete", "options", "any", "match", "resource",
                              "apiResource", "resources", "apiResources"})  # fmt: skip

class PhpFile(RouteRecorder):
    def __init__(self) -> None:
        self.out: dict[str, Any] = {
            "ns": "", "classes": [], "routes": [], "calls": [], "messages": [], "dispatches": [], "config": {},
            "params": {}, "wiring": {}, "sql": [], "dsn": [], "msg_wrappers": [], "member_calls": [], "member_seq": [],
        }  # fmt: skip

    def run(self, root: Any) -> dict[str, Any]:
        for child in root.named_children:
            if child.type == "return_statement" and child.named_children:
                self._config(child.named_children[0], "")
        self._visit(root, {"cls": None, "fn": None, "scope": {}, "prefix": "", "controller": None})
        return self.out

    # ----------------------------------------------------------------- traversal

    def _visit(self, node: Any, ctx: dict[str, Any]) -> None:
        t = node.type
        if t == "namespace_definition":
            name = node.child_by_field_name("name")
            self.out["ns"] = text(name) if name is not None else ""
        elif t == "class_declaration":
            self._class(node, ctx)
            return
        elif t == "method_declaration" and ctx["cls"] is not None:
            self._method(node, ctx)
            return
        elif t == "assignment_expression":
            self._assign(node, ctx)
        elif t in ("string", "encapsed_string"):
            lit = string(node)
            if lit and _DSN.match(lit):
                self.out["dsn"].append(tables.DRIVERS[_DSN.match(lit).group(1).lower()])  # type: ignore[union-attr]
        if t in CALL_TYPES and self._call(node, ctx):
            return
        for child in node.named_children:
            self._visit(child, ctx)

    def _class(self, node: Any, ctx: dict[str, Any]) -> None:
        name = text(node.child_by_field_name("name"))
        base = next((c for c in node.named_children if c.type == "base_clause"), None)
        ifaces = next((c for c in node.named_children if c.type == "class_interface_clause"), None)
        doc = doc_comment(node)
        attrs = attributes(node)
        cls: dict[str, Any] = {
            "name": name, "fq": f"{self.out['ns']}\\{name}".lstrip("\\"), "line": line(node), "end": end_line(node),
            "extends": short(text(base.named_children[0])) if base is not None and base.named_children else None,
            "implements": [short(text(c)) for c in ifaces.named_children] if ifaces is not None else [],
            "prefix": php_annotations.class_route_prefix(attrs, doc), "props": {}, "ctor": [], "ctor_props": {},
            "entity": php_annotations.doctrine_entity(attrs, doc), "fields": [], "handles": False, "setters": {}, "consts": {},
        }  # fmt: skip
        self.out["classes"].append(cls)
        body = node.child_by_field_name("body")
        if body is None:
            return
        scope: dict[str, Value] = {}
        self._class_prepass(body, cls, scope)
        for child in body.named_children:
            self._visit(child, {**ctx, "cls": cls, "fn": None, "scope": scope})

    def _class_prepass(self, body: Any, cls: dict[str, Any], scope: dict[str, Value]) -> None:
        """Property defaults, constructor parameters bound to properties, and clients kept in properties."""
        scope["@class"] = [[cls["name"]]]
        for member in body.named_children:
            if member.type == "const_declaration":
                for el in (c for c in member.named_children if c.type == "const_element"):
                    kids = el.named_children
                    if len(kids) >= 2:
                        scope["self::" + text(kids[0])] = fold(kids[-1], scope)
                        cls["consts"][text(kids[0])] = scope["self::" + text(kids[0])]  # Queues::ORDERS elsewhere
            if member.type == "property_declaration":
                field = php_annotations.doctrine_field(member)
                if field is not None:
                    cls["fields"].append(field)
                for el in (c for c in member.named_children if c.type == "property_element"):
                    kids = el.named_children
                    if len(kids) >= 2:
                        prop = text(kids[0]).lstrip("$")
                        cls["props"][prop] = fold(kids[-1])
            if member.type == "method_declaration" and text(member.child_by_field_name("name")) == "__construct":
                params = member.child_by_field_name("parameters")
                names = [text(p.child_by_field_name("name")) for p in (params.named_children if params else [])
                         if p.child_by_field_name("name") is not None]  # fmt: skip
                cls["ctor"] = names
                for p in params.named_children if params else []:  # promoted constructor properties
                    if p.type == "property_promotion_parameter" and p.child_by_field_name("name") is not None:
                        n = text(p.child_by_field_name("name"))
                        cls["ctor_props"][n.lstrip("$")] = names.index(n)
            if member.type != "method_declaration":
                continue
            if text(member.child_by_field_name("name")) == "handle":  # a job that only dispatches has an empty one
                body = member.child_by_field_name("body")
                cls["handles"] = body is not None and any(c.type != "comment" for c in body.named_children)
            ctor = text(member.child_by_field_name("name")) == "__construct"
            params = member.child_by_field_name("parameters")
            own = [text(p.child_by_field_name("name")) for p in (params.named_children if params else [])
                   if p.child_by_field_name("name") is not None]  # fmt: skip
            for node in walk(member):
                if node.type != "assignment_expression":
                    continue
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if left is None or right is None or not text(left).startswith("$this->"):
                    continue
                prop = text(left)[len("$this->"):]
                if not ctor and right.type == "variable_name" and text(right) in own:  # setQueue($q): $this->queue = $q
                    cls["setters"].setdefault(text(member.child_by_field_name("name")), [prop, own.index(text(right))])
                obj = self._object(right, scope)
                if obj is not None:
                    scope.setdefault("$this->" + prop, [["obj", *obj]])
                elif ctor and right.type == "variable_name" and text(right) in cls["ctor"]:
                    cls["ctor_props"][prop] = cls["ctor"].index(text(right))
                elif ctor:
                    scope.setdefault("$this->" + prop, fold(right, scope))

    def _method(self, node: Any, ctx: dict[str, Any]) -> None:
        cls = ctx["cls"]
        name = text(node.child_by_field_name("name"))
        fn = f"{cls['name']}.{name}"
        for method, path in php_annotations.method_routes(attributes(node), doc_comment(node)):
            full = "/" + "/".join(p.strip("/") for p in (cls["prefix"], path) if p.strip("/"))
            self.out["routes"].append({"method": method, "path": full, "handler": fn, "line": line(node),
                                       "end": end_line(node), "framework": "symfony", "cls": cls["name"]})  # fmt: skip
        body = node.child_by_field_name("body")
        params = node.child_by_field_name("parameters")
        names = [text(p.child_by_field_name("name")) for p in (params.named_children if params else [])
                 if p.child_by_field_name("name") is not None]  # fmt: skip
        if body is not None:
            self._visit(body, {**ctx, "fn": fn, "method": name, "args": names, "scope": dict(ctx["scope"])})

    def _assign(self, node: Any, ctx: dict[str, Any]) -> None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "variable_name":
            return
        obj = self._object(right, ctx["scope"])
        ctx["scope"][text(left)] = [["obj", *obj]] if obj is not None else fold(right, ctx["scope"])
        created = _created_class(right)
        if created:  # ``$bus = new Bus()``: what ``$bus->send(...)`` is called on
            ctx["scope"]["@new:" + text(left)] = [["cls", created]]
        else:
            ctx["scope"].pop("@new:" + text(left), None)

    def _config(self, node: Any, prefix: str) -> None:
        for key, value in array_items(node):
            if key is None:
                continue
            path = f"{prefix}.{key}" if prefix else key
            if value.type == "array_creation_expression":
                self._config(value, path)
            else:
                self.out["config"][path] = fold(value)

    # ----------------------------------------------------------------- objects

    def _object(self, node: Any, scope: dict[str, Value]) -> list[Any] | None:
        """["http", client, base value] for a client kept in a variable or property."""
        if node.type == "object_creation_expression":
            cname = next((text(c).lstrip("\\") for c in node.named_children if c.type in ("name", "qualified_name")), "")
            if cname in tables.HTTP_CLIENT_CLASSES or short(cname) in tables.HTTP_CLIENT_CLASSES:
                client, key = tables.HTTP_CLIENT_CLASSES.get(cname) or tables.HTTP_CLIENT_CLASSES[short(cname)]
                base: Value = []
                for arg in call_args(node):
                    for k, v in array_items(arg):
                        if k == key:
                            base = fold(v, scope)
                return ["http", client, base]
        if node.type in ("scoped_call_expression", "member_call_expression"):
            root, chain = chain_of(node)
            if root is not None and facade(text(call_object(root))) in tables.HTTP_FACADES:
                base = next((fold(positional(c)[0], scope) for c in [*chain, node]
                             if call_name(c) == "baseUrl" and positional(c)), [])  # fmt: skip
                if call_name(node) not in tables.HTTP_VERBS:
                    return ["http", tables.HTTP_FACADES[facade(text(call_object(root)))], base]
        if node.type in ("variable_name", "member_access_expression"):
            value = scope.get(text(node))
            if value and value[0][0] == "obj":
                return list(value[0][1:])
        return None

    # ----------------------------------------------------------------- calls

    def _call(self, node: Any, ctx: dict[str, Any]) -> bool:
        """Record what the call means; True when its arguments were already visited."""
        name = call_name(node)
        obj = call_object(node)
        recv = text(obj).lstrip("\\") if obj is not None else ""
        where = {"line": line(node), "end": end_line(node), "fn": ctx["fn"], "cls": ctx["cls"]["name"] if ctx["cls"] else None}
        root, chain = chain_of(node)
        root_recv = facade(text(call_object(root))) if root is not None and call_object(root) is not None else ""
        if root_recv == "route" and (node.type == "scoped_call_expression" or name in _LARAVEL_CHAINED):
            return self._laravel(node, name, chain, ctx)
        if node.type == "member_call_expression" and self._router(node, name, ctx):
            return True
        if name in tables.HTTP_VERBS or name == tables.REQUEST_METHOD:
            client = self._object(obj, ctx["scope"]) if obj is not None else None
            if client is None and root_recv in tables.HTTP_FACADES and root is not node:
                client = self._object(root, ctx["scope"]) or ["http", tables.HTTP_FACADES[root_recv], []]
                client = ["http", client[1], next((fold(positional(c)[0], ctx["scope"]) for c in chain
                                                    if call_name(c) == "baseUrl" and positional(c)), [])]  # fmt: skip
            if client is None and facade(recv) in tables.HTTP_FACADES and node.type == "scoped_call_expression":
                client = ["http", tables.HTTP_FACADES[facade(recv)], []]
            if client is not None and client[0] == "http":
                args = positional(node) or call_args(node)
                verb = tables.HTTP_VERBS.get(name)
                if name == tables.REQUEST_METHOD and args:
                    verb = (string(args[0]) or "").upper() or None
                    args = args[1:]
                url = fold(args[0], ctx["scope"]) if args else []
                if client[2] and url and url[0][0] == "lit" and not url[0][1].startswith(("/", "http")):
                    url = [["lit", "/"], *url]
                self.out["calls"].append({**where, "client": client[1], "method": verb, "url": [*client[2], *url]})
                return False
        if self._kafka(node, name, recv, root_recv, where, ctx):
            return False
        if node.type in _MEMBER_CALLS and name not in _AMQP_METHODS:
            self._member_call(node, name, where, ctx)
            if obj is not None and obj.type == "variable_name":  # ``$rabbit->setQueue(X); $rabbit->publish(..)``
                first = positional(node)
                self.out["member_seq"].append({**where, "recv": text(obj), "name": name,
                                               "arg": fold(first[0], ctx["scope"]) if first else None})  # fmt: skip
        if node.type == "function_call_expression":
            self._function(node, name, where, ctx)
        elif name in _AMQP_METHODS:
            self._amqp(node, name, where, ctx)
        elif name in ("dispatch", "dispatchSync", "dispatchNow") or name == "onQueue":
            self._dispatch(node, name, chain, where, ctx)
        elif recv == "Redis" and name in ("publish", "subscribe", "psubscribe") and positional(node):
            direction = "publishes" if name == "publish" else "consumes"
            named: list[str | None] = [*strings(positional(node)[0])] or [None]
            for ch in named:
                channel = [["lit", ch]] if ch else fold(positional(node)[0], ctx["scope"])
                self.out["messages"].append({**where, "direction": direction, "channel": channel, "provider": "redis",
                                             "client": "laravel-redis"})  # fmt: skip
        elif (facade(recv), name) in _LARAVEL_TABLES and positional(node):
            # Laravel's query builder: ``DB::table('ledgers')->where(...)``
            table = literal(fold(positional(node)[0], ctx["scope"]))
            if table and _TABLE_NAME.fullmatch(table):
                self.out["sql"].append({**where, "tables": [table.rsplit(".", 1)[-1]]})
        elif name in ("prepare", "query", "exec", "select", "statement", "insert", "update", "delete") and positional(node):
            sql = literal(fold(positional(node)[0], ctx["scope"]))
            if sql and tables_in(sql):
                self.out["sql"].append({**where, "tables": tables_in(sql)})
        elif name == "setParameter" and len(positional(node)) >= 2 and string(positional(node)[0]):
            self.out["params"][string(positional(node)[0]) or ""] = fold(positional(node)[1], ctx["scope"])
        elif root is not None and root is not node and call_name(root) in ("register", "autowire", "set"):
            self._wiring(node, root, chain)
        return False

    def _kafka(self, node: Any, name: str, recv: str, root_recv: str, where: dict[str, Any], ctx: dict[str, Any]) -> bool:
        """Kafka topics: Laravel Kafka's facade (``Kafka::publish()->onTopic('t')``, ``Kafka::publishOn('t')``,
        ``Kafka::createConsumer(['t'])``, ``->subscribe('t')`` on its consumer builder) and php-rdkafka
        (``$producer->newTopic('t')``, ``$consumer->subscribe(['t'])``)."""
        args = positional(node)
        if not args:
            return False
        direction, client = None, "laravel-kafka"
        if root_recv == "kafka" and name in ("onTopic", "publishOn"):
            direction = "publishes"
        elif root_recv == "kafka" and name in ("createConsumer", "consumer", "subscribe"):
            direction = "consumes"
        elif node.type == "member_call_expression" and name == "newTopic" and "producer" in recv.lower():
            direction, client = "publishes", "php-rdkafka"
        elif node.type == "member_call_expression" and name == "subscribe" and "consumer" in recv.lower():
            direction, client = "consumes", "php-rdkafka"
        if direction is None:
            return False
        named = strings(args[0])
        channels = [[["lit", ch]] for ch in named] if named else [fold(args[0], ctx["scope"])]
        if args[0].type == "array_creation_expression" and not named:
            return False
        for channel in channels:
            self.out["messages"].append({**where, "direction": direction, "channel": channel, "provider": "kafka",
                                         "client": client})  # fmt: skip
        return True

    def _wiring(self, node: Any, root: Any, chain: list[Any]) -> None:
        """``$c->register(Svc::class)->addArgument(a)->addArgument(b)``: Svc's constructor arguments."""
        parent = node.parent
        if parent is not None and parent.type == "member_call_expression" and call_object(parent) == node:
            return  # read once, at the outermost call of the chain
        target = next((string(a) for a in positional(root) if string(a)), None)
        if target:
            self.out["wiring"][target] = [fold(positional(c)[0]) for c in [*chain, node]
                                          if call_name(c) == "addArgument" and positional(c)]  # fmt: skip

    def _function(self, node: Any, name: str, where: dict[str, Any], ctx: dict[str, Any]) -> None:
        args = call_args(node)
        url_node = None
        if name == "curl_init" and args:
            url_node = args[0]
        elif name == "curl_setopt" and len(args) >= 3 and text(args[1]) == "CURLOPT_URL":
            url_node = args[2]
        elif name == "curl_setopt_array" and len(args) >= 2:
            url_node = next((v for k, v in _pairs(args[1]) if k == "CURLOPT_URL"), None)
        elif name == "file_get_contents" and args:
            value = fold(args[0], ctx["scope"])
            if value and value[0][0] in ("env", "config") or (value[0][0] == "lit" and value[0][1].startswith("http")):
                self.out["calls"].append({**where, "client": "file_get_contents", "method": "GET", "url": value})
            return
        elif name == "dispatch" and args:
            self._dispatch(node, name, [], where, ctx)
            return
        if url_node is not None:
            self.out["calls"].append({**where, "client": "curl", "method": None, "url": fold(url_node, ctx["scope"])})

    def _amqp(self, node: Any, name: str, where: dict[str, Any], ctx: dict[str, Any]) -> None:
        args = call_args(node)
        if name == "basic_publish" and len(args) >= 2:
            exchange = fold(args[1], ctx["scope"])
            channel = exchange
            if len(args) >= 3 and (exchange == [["lit", ""]] or not exchange):
                channel = fold(args[2], ctx["scope"])
            self._message(where, ctx, "publishes", channel)
        elif name == "basic_consume" and args:
            self._message(where, ctx, "consumes", fold(args[0], ctx["scope"]))

    def _message(self, where: dict[str, Any], ctx: dict[str, Any], direction: str, channel: Value) -> None:
        """One php-amqplib send or receive; when its channel is a parameter of the method around it
        (a hand-written ``publish($exchange, ...)`` wrapper), the method is recorded as a wrapper
        instead: its callers name the channel (``link`` reads them from ``member_calls``)."""
        args = ctx.get("args") or []
        setters = (ctx.get("cls") or {}).get("setters") or {}
        if len(channel) == 1 and channel[0][0] == "this" and ctx.get("method") and any(
            prop == channel[0][1] for prop, _ in setters.values()
        ):
            # ``basic_publish($m, '', $this->queue)``: the channel a setter of the class was given before
            self.out["msg_wrappers"].append({
                "cls": where["cls"], "method": ctx["method"], "field": channel[0][1], "direction": direction,
                "provider": "rabbitmq", "client": "php-amqplib",
            })  # fmt: skip
            return
        param = channel[0][1] if len(channel) == 1 and channel[0][0] == "unknown" else None
        if isinstance(param, str) and param in args and where["cls"] is not None:
            self.out["msg_wrappers"].append({
                "cls": where["cls"], "method": ctx["method"], "index": args.index(param), "name": param.lstrip("$"),
                "direction": direction, "provider": "rabbitmq", "client": "php-amqplib",
            })  # fmt: skip
            return
        self.out["messages"].append({**where, "direction": direction, "channel": channel, "provider": "rabbitmq",
                                     "client": "php-amqplib"})  # fmt: skip

    def _member_call(self, node: Any, name: str, where: dict[str, Any], ctx: dict[str, Any]) -> None:
        """``$bus->publish('orders', ...)``: a method call with a literal argument, kept for ``link``
        to match against the messaging wrappers of the service (any file may declare them)."""
        pos = [fold(a, ctx["scope"]) for a in positional(node)]
        named = {k: fold(v, ctx["scope"]) for k, v in named_args(node).items()}
        if any(v and all(part[0] == "lit" for part in v) for v in [*pos, *named.values()]):
            recv = call_object(node)
            while recv is not None and recv.type == "parenthesized_expression" and recv.named_children:
                recv = recv.named_children[0]
            created = _created_class(recv) if recv is not None else None
            if created is None and recv is not None and recv.type == "variable_name":
                known = ctx["scope"].get("@new:" + text(recv))
                created = known[0][1] if known else None
            self.out["member_calls"].append({**where, "name": name, "args": pos, "named": named, "recv_cls": created})

    def _dispatch(self, node: Any, name: str, chain: list[Any], where: dict[str, Any], ctx: dict[str, Any]) -> None:
        """``Job::dispatch(...)->onQueue('q')``, ``dispatch(new Job(...))``: one record per dispatch."""
        if name == "onQueue":
            return  # read with the dispatch it follows
        job = None
        if node.type == "scoped_call_expression":
            job = short(text(call_object(node)))
        elif call_args(node) and call_args(node)[0].type == "object_creation_expression":
            created = call_args(node)[0]
            job = next((short(text(c)) for c in created.named_children if c.type in ("name", "qualified_name")), None)
        if not job or job in ("Route", "Event", "Bus"):
            return
        queue = None
        parent = node.parent
        while parent is not None and parent.type == "member_call_expression":
            if call_name(parent) == "onQueue" and positional(parent):
                queue = fold(positional(parent)[0], ctx["scope"])
            parent = parent.parent
        self.out["dispatches"].append({**where, "job": job, "queue": queue})

    # ----------------------------------------------------------------- routes


def _created_class(node: Any) -> str | None:
    """``new Bus(...)`` -> ``Bus`` (the short class name)."""
    if node is None or node.type != "object_creation_expression":
        return None
    name = next((text(c) for c in node.named_children if c.type in ("name", "qualified_name")), "")
    return short(name.lstrip("\\")) if name else None


def _pairs(node: Any) -> list[tuple[str, Any]]:
    out = []
    for item in node.named_children if node is not None and node.type == "array_creation_expression" else []:
        kids = item.named_children
        if len(kids) == 2:
            out.append((text(kids[0]), kids[1]))
    return out


def extract(root: Any) -> dict[str, Any]:
    return PhpFile().run(root)


__all__ = ["extract", "named_args"]
