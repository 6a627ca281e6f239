"""One Ruby file into JSON-able records: constants, classes, routes (Rails, Sinatra, Grape), HTTP
calls, messaging sites and ActiveRecord/Mongoid models. Cross-file work is left to ``link``."""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.ruby import rails, tables
from orbitkb.analysis.ruby.syntax import (
    Value,
    args,
    block,
    fold,
    keywords,
    literal,
    method_name,
    positional,
    receiver,
    receiver_text,
    symbol,
)  # fmt: skip
from orbitkb.analysis.treesitter import end_line, line, text, walk


class RubyFile:
    def __init__(self) -> None:
        self.out: dict[str, Any] = {
            "consts": {}, "classes": [], "routes": [], "calls": [], "messages": [], "enqueues": [],
        }  # fmt: skip

    # ----------------------------------------------------------------- traversal

    def run(self, root: Any) -> dict[str, Any]:
        self._body(root, cls=None, fn=None, scope={}, prefix="")
        return self.out

    def _body(self, node: Any, cls: dict[str, Any] | None, fn: str | None, scope: dict[str, Value], prefix: str) -> None:
        for child in node.named_children:
            self._stmt(child, cls, fn, scope, prefix)

    def _stmt(self, node: Any, cls: dict[str, Any] | None, fn: str | None, scope: dict[str, Value], prefix: str) -> None:
        t = node.type
        if t in ("class", "module"):
            self._class(node, cls, scope)
            return
        if t in ("method", "singleton_method"):
            name = text(node.child_by_field_name("name"))
            owner = cls["name"] if cls else "main"
            body = node.child_by_field_name("body")
            if body is not None:
                local = {**scope, **self._defaults(node, scope)}
                self._body(body, cls, f"{owner}.{name}", local, prefix)
            return
        if t == "identifier" and cls is not None and fn is None and text(node) == "searchkick":
            cls["search_index"] = cls.get("search_index") or ""  # a bare ``searchkick`` in a model's body
            return
        if t in ("assignment", "operator_assignment"):
            self._assign(node, cls, fn, scope)
        if t == "call" and self._dsl(node, cls, fn, scope, prefix):
            return
        if t == "call":
            self._site(node, cls, fn, scope)
        for child in node.named_children:
            if child.type in ("class", "module", "method", "singleton_method"):
                self._stmt(child, cls, fn, scope, prefix)
            elif child.type in ("call", "assignment", "operator_assignment") or child.named_child_count:
                self._stmt(child, cls, fn, scope, prefix)

    def _class(self, node: Any, outer: dict[str, Any] | None, scope: dict[str, Value]) -> None:
        name = text(node.child_by_field_name("name"))
        full = f"{outer['name']}::{name}" if outer and outer.get("module_path") is not None else name
        sup = node.child_by_field_name("superclass")
        sup_text = text(sup).lstrip("<").strip() if sup is not None else None
        cls: dict[str, Any] = {
            "name": full, "short": name.rsplit("::", 1)[-1], "line": line(node), "end": end_line(node),
            "super": sup_text, "includes": [], "table": None, "abstract": False, "queue": None,
            "base": None, "prefix": "", "mounts": [], "module_path": full, "kind": node.type,
        }  # fmt: skip
        if sup is not None:  # Sequel::Model(:items)
            call = next((c for c in walk(sup) if c.type == "call" and method_name(c) == "Model"), None)
            if call is not None and positional(call):
                cls["table"] = symbol(positional(call)[0])
                cls["super"] = "Sequel::Model"
        self.out["classes"].append(cls)
        body = node.child_by_field_name("body")
        if body is not None:
            inner = dict(scope)
            self._memoized_clients(body, inner)
            self._body(body, cls, None, inner, "")

    def _memoized_clients(self, body: Any, scope: dict[str, Value]) -> None:
        """Clients a class keeps: ``@http = Faraday.new(...)`` in any method, and
        ``def conn; @conn ||= Faraday.new(url: X); end`` (``conn`` then names the client)."""
        for method in body.named_children:
            if method.type != "method":
                continue
            if text(method.child_by_field_name("name")) == "initialize":
                self._injected(method, scope)
            for node in walk(method):
                left = node.child_by_field_name("left") if node.type in ("assignment", "operator_assignment") else None
                if left is not None and left.type == "instance_variable":
                    obj = self._object(node.child_by_field_name("right"), scope)
                    if obj is not None:
                        scope.setdefault(text(left), [["obj", *obj]])
            if method.child_by_field_name("parameters") is not None:
                continue
            stmts = method.child_by_field_name("body")
            last = stmts.named_children[-1] if stmts is not None and stmts.named_children else None
            if last is not None and last.type in ("assignment", "operator_assignment"):
                last = last.child_by_field_name("right")
            obj = self._object(last, scope) if last is not None else None
            if obj is not None:
                scope[text(method.child_by_field_name("name"))] = [["obj", *obj]]

    def _defaults(self, method: Any, scope: dict[str, Value]) -> dict[str, Value]:
        """Parameters with a default (``http: HTTParty``, ``url = ENV.fetch("X", "d")``): their value
        when the caller passes nothing, which is how the deployed code runs."""
        params = method.child_by_field_name("parameters")
        out: dict[str, Value] = {}
        for p in params.named_children if params is not None else ():
            name, default = p.child_by_field_name("name"), p.child_by_field_name("value")
            if p.type in ("keyword_parameter", "optional_parameter") and name is not None and default is not None:
                client = text(default)
                if default.type in ("constant", "scope_resolution") and client in tables.HTTP_CLASS_CALLS:
                    out[text(name)] = [["obj", "http", tables.CLIENT_NAMES[client], []]]  # an injected client class
                else:
                    obj = self._object(default, scope)
                    out[text(name)] = [["obj", *obj]] if obj is not None else fold(default, scope)
        return out

    def _injected(self, ctor: Any, scope: dict[str, Value]) -> None:
        """``def initialize(http: HTTParty, base_url: ENV.fetch(...)); @http = http; @base_url = base_url``:
        the fields a constructor keeps from its parameters' defaults, for every method of the class."""
        defaults = self._defaults(ctor, scope)
        for node in walk(ctor) if defaults else ():
            left = node.child_by_field_name("left") if node.type == "assignment" else None
            right = node.child_by_field_name("right") if left is not None else None
            if left is not None and left.type == "instance_variable" and right is not None and text(right) in defaults:
                scope.setdefault(text(left), defaults[text(right)])

    # ----------------------------------------------------------------- class-level DSL and routes

    def _dsl(self, node: Any, cls: dict[str, Any] | None, fn: str | None, scope: dict[str, Value], prefix: str) -> bool:
        name, recv = method_name(node), receiver_text(node)
        pos = positional(node)
        body = block(node)
        if name == "draw" and recv.endswith(("routes", "consumer_groups")) and body is not None:
            self.out["routes"].extend(rails.draw(body))
            self.out["messages"].extend(rails.karafka_topics(body))
            return True
        if cls is not None and fn is None and not recv:
            if self._class_dsl(node, name, pos, cls, scope):
                return True
        framework = self._framework(cls)
        if not recv and fn is None and name in tables.VERBS and (body is not None or framework == "grape"):
            if framework == "rails":
                return False
            path = rails.route_path(pos[0]) if pos and symbol(pos[0]) is not None else ""
            if not pos and framework != "grape":
                return False
            verb = tables.VERBS[name]
            handler = f"{cls['name'] if cls else 'main'}.{verb} {rails.join(prefix, path)}"
            self.out["routes"].append({
                "method": verb, "path": rails.join(prefix, path), "handler": handler, "line": line(node),
                "end": end_line(node), "framework": framework or "sinatra", "cls": cls["name"] if cls else None,
            })  # fmt: skip
            if body is not None:
                self._body(body, cls, handler, dict(scope), prefix)
            return True
        if not recv and fn is None and body is not None and framework in ("grape", "sinatra"):
            seg = None
            if name in tables.GRAPE_SCOPES or (name == "namespace" and framework == "sinatra"):
                seg = rails.route_path(pos[0]) if pos and symbol(pos[0]) is not None else ""
            elif name == "route_param" and pos and symbol(pos[0]):
                seg = "{" + (symbol(pos[0]) or "") + "}"
            if seg is not None:
                self._body(body, cls, None, scope, rails.join(prefix, seg))
                return True
        return False

    def _class_dsl(self, node: Any, name: str, pos: list[Any], cls: dict[str, Any], scope: dict[str, Value]) -> bool:
        if name in ("include", "extend", "prepend"):
            cls["includes"].extend(text(p) for p in pos)
            return True
        if name == "base_uri" and pos:
            cls["base"] = fold(pos[0], scope)
            return True
        if name == "sidekiq_options":
            q = keywords(node).get("queue")
            cls["queue"] = fold(q, scope) if q is not None else cls["queue"]
            return True
        if name == "consume" and pos and "Hutch::Consumer" in cls["includes"]:  # Hutch: the routing key it binds
            cls["queue"] = fold(pos[0], scope)
            return True
        if name in ("queue_as", "from_queue", "subscribes_to", "shoryuken_options") and (pos or keywords(node)):
            q = pos[0] if pos else keywords(node).get("queue")
            if q is not None:
                cls["queue"] = fold(q, scope)
            return True
        if name in ("index_name", "searchkick") and (name == "searchkick" or pos):
            # elasticsearch-model ``index_name "x"`` / Searchkick ``searchkick`` (index named like the table)
            cls["search_index"] = symbol(pos[0]) if name == "index_name" and pos else cls.get("search_index") or ""
            return True
        if name == "store_in":
            coll = keywords(node).get("collection")
            if coll is not None:
                cls["table"] = symbol(coll)
            return True
        if name in ("prefix", "version") and pos and self._framework(cls) == "grape":
            if name == "version" and "path" not in text(node):
                return True
            cls["prefix"] = rails.join(cls["prefix"], rails.route_path(pos[0]) if symbol(pos[0]) else "")
            return True
        if name == "mount" and pos and self._framework(cls) == "grape":
            cls["mounts"].append(text(pos[0]))
            return True
        return False

    def _framework(self, cls: dict[str, Any] | None) -> str | None:
        if cls is None:
            return None
        if cls["super"] in tables.GRAPE_BASES:
            return "grape"
        if cls["super"] in tables.SINATRA_BASES:
            return "sinatra"
        if cls["super"] and cls["super"].endswith("Controller"):
            return "rails"
        return None

    # ----------------------------------------------------------------- values and call sites

    def _assign(self, node: Any, cls: dict[str, Any] | None, fn: str | None, scope: dict[str, Value]) -> None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return
        if left.type == "call" and text(left) == "self.table_name" and cls is not None:
            cls["table"] = literal(fold(right, scope))
            return
        if left.type == "call" and text(left) == "config.api_only":
            self.out["api_only"] = text(right) == "true"
            return
        if left.type == "call" and text(left) == "self.abstract_class" and cls is not None:
            cls["abstract"] = text(right) == "true"
            return
        value = fold(right, scope)
        obj = self._object(right, scope)
        if obj is not None:
            value = [["obj", *obj]]
        if left.type == "constant" and fn is None:
            self.out["consts"].setdefault(text(left), value)
        if left.type in ("identifier", "instance_variable", "class_variable", "constant"):
            scope[text(left)] = value

    def _object(self, node: Any, scope: dict[str, Value]) -> list[Any] | None:
        """A client object: ["http", client, base value] or ["queue"|"exchange", name value]."""
        if node.type != "call":
            return None
        name, recv = method_name(node), receiver_text(node)
        pos, kw = positional(node), keywords(node)
        if name == "new" and recv in tables.HTTP_CONNECTIONS:
            key = tables.HTTP_CONNECTIONS[recv]
            src = kw.get(key) if key else None
            src = src if src is not None else (pos[0] if pos else None)
            return ["http", recv.split("::")[0].lower(), fold(src, scope) if src is not None else [["unknown", ""]]]
        if name == "new" and recv == "Net::HTTP" and pos:
            host = fold(pos[0], scope)
            port = fold(pos[1], scope) if len(pos) > 1 else []
            return ["http", "net-http", [["lit", "http://"], *host, *([["lit", ":"], *port] if port else [])]]
        if recv == "HTTP" and name in ("persistent",) and pos:
            return ["http", "http.rb", fold(pos[0], scope)]
        if name == "queue" and pos:
            return ["queue", fold(pos[0], scope)]
        if name in tables.BUNNY_EXCHANGES and pos and receiver(node) is not None:
            return ["exchange", fold(pos[0], scope)]
        if name == "default_exchange":
            return ["exchange", [["lit", ""]]]
        return None

    def _site(self, node: Any, cls: dict[str, Any] | None, fn: str | None, scope: dict[str, Value]) -> None:
        name, recv = method_name(node), receiver_text(node)
        pos, kw = positional(node), keywords(node)
        rnode = receiver(node)
        where = {"line": line(node), "end": end_line(node), "fn": fn, "cls": cls["name"] if cls else None}
        if recv in tables.HTTP_CLASS_CALLS and name in tables.HTTP_CLASS_CALLS[recv] and pos:
            self._call(tables.CLIENT_NAMES[recv], tables.HTTP_CLASS_CALLS[recv][name], self._url(pos[0], scope), where)
            return
        if recv.startswith("Net::HTTP::") and name == "new" and pos:
            verb = tables.NET_HTTP_REQUESTS.get(recv.rsplit("::", 1)[-1])
            if verb:
                self._call("net-http", verb, self._url(pos[0], scope), where)
            return
        if recv == "RestClient::Request" and name == "execute" and "url" in kw:
            verb = named.upper() if "method" in kw and (named := symbol(kw["method"])) else None
            self._call("rest-client", verb, self._url(kw["url"], scope), where)
            return
        if name in tables.CONNECTION_VERBS and rnode is not None:
            obj = self._resolve_obj(rnode, scope)
            if obj is not None and obj[0] == "http":
                path = self._url(pos[0], scope) if pos else []
                if path and path[0][0] == "lit" and not path[0][1].startswith(("/", "http")):
                    path = [["lit", "/"], *path]  # a relative path is joined to the base URL
                self._call(obj[1], tables.CONNECTION_VERBS[name], [*obj[2], *path], where)
                return
        if name in tables.CONNECTION_VERBS and cls is not None and "HTTParty" in cls["includes"] and pos and (
            rnode is None or recv in ("self.class", "self", cls["short"])
        ):
            self._call("httparty", tables.CONNECTION_VERBS[name], [["base", cls["name"]], *self._url(pos[0], scope)], where)
            return
        if name in tables.CONNECTION_VERBS and rnode is not None and rnode.type == "constant" and pos:
            self.out["calls"].append({**where, "client": "httparty", "method": tables.CONNECTION_VERBS[name],
                                      "url": [["base", recv], *self._url(pos[0], scope)], "via": recv})  # fmt: skip
            return
        self._message(node, name, recv, rnode, pos, kw, scope, where)

    def _message(self, node: Any, name: str, recv: str, rnode: Any, pos: list[Any], kw: dict[str, Any],
                 scope: dict[str, Value], where: dict[str, Any]) -> None:  # fmt: skip
        if name in tables.REDIS_KEY_COMMANDS and pos and "redis" in recv.lower():
            self.out.setdefault("keys", []).append({**where, "key": fold(pos[0], scope)})
        elif name == "publish" and pos and pos[0].type == "string" and "redis" in recv.lower():
            self._msg("publishes", fold(pos[0], scope), "redis", recv, where)
        elif (name in tables.KAFKA_PRODUCE or (name == "call" and recv in tables.WATERDROP_PRODUCERS)) and "topic" in kw:
            self._msg("publishes", fold(kw["topic"], scope), "kafka", recv or name, where)
        elif name == "publish" and pos and "nats" in recv.lower():  # NATS.publish / nats.publish('subject', msg)
            self._msg("publishes", fold(pos[0], scope), "nats", recv, where)
        elif name == "publish" and recv == "Hutch" and pos:
            self._msg("publishes", fold(pos[0], scope), "rabbitmq", "hutch", where)
        elif name in ("subscribe", "psubscribe") and pos and pos[0].type in ("string", "simple_symbol", "array"):
            provider = next((p for word, p in tables.SUBSCRIBERS if word in recv.lower()), None)
            if provider:
                for item in pos[0].named_children if pos[0].type == "array" else [pos[0]]:
                    self._msg("consumes", fold(item, scope), provider, recv or name, where)
        elif name == "each_message" and "topic" in kw:
            self._msg("consumes", fold(kw["topic"], scope), "kafka", recv or name, where)
        elif name in ("subscribe", "pop") and rnode is not None:
            obj = self._resolve_obj(rnode, scope)
            if obj is not None and obj[0] == "queue":
                self._msg("consumes", obj[1], "rabbitmq", "bunny", where)
        elif name == "publish" and rnode is not None:
            obj = self._resolve_obj(rnode, scope)
            if obj is not None and obj[0] in ("exchange", "queue"):
                channel = obj[1]
                if literal(channel) == "" and "routing_key" in kw:
                    channel = self._name_of(kw["routing_key"], scope)
                self._msg("publishes", channel, "rabbitmq", "bunny", where)
        elif name in tables.ENQUEUE_METHODS and rnode is not None:
            target = rnode
            queue = None
            if rnode.type == "call" and method_name(rnode) == "set":  # Worker.set(queue: 'x').perform_async
                q = keywords(rnode).get("queue")
                queue = fold(q, scope) if q is not None else None
                target = receiver(rnode)
            if target is not None and target.type in ("constant", "scope_resolution"):
                self.out["enqueues"].append({**where, "job": text(target), "queue": queue})

    def _name_of(self, node: Any, scope: dict[str, Value]) -> Value:
        """``queue.name`` of a queue object is the name it was declared with."""
        if node.type == "call" and method_name(node) == "name" and receiver(node) is not None:
            obj = self._resolve_obj(receiver(node), scope)
            if obj is not None and obj[0] in ("queue", "exchange"):
                return list(obj[1])
        return fold(node, scope)

    def _resolve_obj(self, node: Any, scope: dict[str, Value]) -> list[Any] | None:
        if node.type in ("identifier", "instance_variable", "class_variable", "constant"):
            value = scope.get(text(node))
            if value and value[0][0] == "obj":
                return list(value[0][1:])
            return None
        if node.type == "call":
            return self._object(node, scope)
        return None

    def _url(self, node: Any, scope: dict[str, Value]) -> Value:
        if node.type == "call" and method_name(node) in ("path", "request_uri", "host", "to_s"):
            r = receiver(node)
            if r is not None and r.type in ("identifier", "instance_variable") and text(r) in scope:
                return fold(r, scope)
        return fold(node, scope)

    def _call(self, client: str, verb: str | None, url: Value, where: dict[str, Any]) -> None:
        self.out["calls"].append({**where, "client": client, "method": verb, "url": url})

    def _msg(self, direction: str, channel: Value, provider: str, client: str, where: dict[str, Any]) -> None:
        self.out["messages"].append({**where, "direction": direction, "channel": channel, "provider": provider,
                                     "client": client})  # fmt: skip


def extract(root: Any) -> dict[str, Any]:
    return RubyFile().run(root)


__all__ = ["extract", "args"]
