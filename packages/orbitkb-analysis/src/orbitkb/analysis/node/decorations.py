"""Settings a Fastify app decorates itself with, read back as ``fastify.config.apiUrl``.

Two ways put them there: ``fastify.decorate("config", { apiUrl: process.env.API_URL || "http://x" })``
(an object literal or a name bound to one) and the @fastify/env plugin
(``app.register(fastifyEnv, { confKey: "settings", schema })``), whose schema's properties are
environment variables with their declared defaults. Each file records what it decorates under
``decorations`` (name -> field -> parts); the linker answers ``["deco", name, field]`` from any file
of the service (``Resolver.resolve``).
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from .syntax import object_pairs, string_value, text, unwrap
from .values import Parts, Scope, object_values

KEY = "decorations"
#: packages of the plugin loading environment variables into a decorated settings object
ENV_PLUGINS = frozenset({"@fastify/env", "fastify-env"})


def _flattened(node: Node | None, scope: Scope) -> dict[str, Parts]:
    """The string fields of an object literal, or of the object a name is bound to."""
    inner = unwrap(node)
    if inner is None:
        return {}
    if inner.type == "object":
        return object_values(inner, scope)
    if inner.type not in ("identifier", "shorthand_property_identifier"):  # `{ schema }` names one too
        return {}
    prefix = text(inner) + "."
    out: dict[str, Parts] = {}
    for frame in scope.frames:
        for key, binding in frame.items():
            if key.startswith(prefix) and binding.get("k") == "val":
                out[key[len(prefix) :]] = [list(p) for p in binding["v"]]
    return out


def on_decorate(out: dict[str, Any], scope: Scope, args: list[Node]) -> bool:
    """``x.decorate("config", value)``: the string fields of ``value``, under ``config``."""
    name = string_value(args[0]) if len(args) == 2 else None
    fields = _flattened(args[1], scope) if name else {}
    if name and fields:
        out.setdefault(KEY, {}).setdefault(name, {}).update(fields)
    return bool(fields)


def on_env_plugin(out: dict[str, Any], scope: Scope, spec: str | None, args: list[Node]) -> bool:
    """``x.register(fastifyEnv, { confKey, schema })``: one environment variable per schema property."""
    if spec not in ENV_PLUGINS or len(args) < 2:
        return False
    opts = object_pairs(unwrap(args[1]) or args[1])
    conf = string_value(opts["confKey"]) if "confKey" in opts else "config"
    schema = _flattened(opts.get("schema"), scope)
    fields: dict[str, Parts] = {}
    for key in sorted(schema):
        prop = key.removeprefix("properties.").rpartition(".")[0]
        if not key.startswith("properties.") or not prop or "." in prop:
            continue
        default = schema.get(f"properties.{prop}.default")
        literal = "".join(p[1] for p in default) if default and all(p[0] == "lit" for p in default) else None
        fields[prop] = [["env", prop, literal]]
    if conf and fields:
        out.setdefault(KEY, {}).setdefault(conf, {}).update(fields)
    return bool(fields)
