"""gRPC servicers: the classes implementing a generated ``<X>Servicer`` — directly, through local
base classes, or by registration (``add_<X>Servicer_to_server(instance, server)``, duck typing
included). Each rpc method becomes a RawApi ``<X>/<Method>`` at its definition; the pipeline adds
the proto package and the message fields when the repository has the .proto.

When a servicer is registered, only the registered class counts (``service = Dummy() if dev else
Real()`` registers whichever the resolver settles on); otherwise the most-derived classes do.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from orbitkb.analysis.facts import RawApi
from orbitkb.analysis.python.ir import Node, describe
from orbitkb.analysis.python.linkctx import LinkState

Key = tuple[str, str]  # (file, class or function qualname)
ApiOut = tuple[RawApi, Key | None, str]

_REGISTER = re.compile(r"add_(\w+?)Servicer_to_server$")
_GENERATED = ("_pb2_grpc", "_grpc")  # modules protoc / grpcio-tools generate the bases into
#: rpcs of well-known services: a class serving both its business service and health checks
#: implements these for Health, not for the business service, and nothing else for Health
_KNOWN_RPCS = {"Health": frozenset({"Check", "Watch"})}


def _servicer_base(q: str) -> str | None:
    module, _, name = q.rpartition(".")
    if name.endswith("Servicer") and len(name) > len("Servicer") and module.endswith(_GENERATED):
        return name[: -len("Servicer")]
    return None


def _key(c: Node) -> Key:
    return c["p"], c["n"]


def _registered(st: LinkState) -> dict[str, set[Key]]:
    out: dict[str, set[Key]] = defaultdict(set)
    for inv in st.invs:
        m = _REGISTER.search(describe(inv.callee).rsplit(".", 1)[-1])
        arg = inv.arg(0, "servicer") if m else None
        obj = st.r.as_object(arg) if arg is not None else None
        if m and obj is not None and obj["t"] == "inst" and obj["c"]["t"] == "cls":
            out[m.group(1)].add(_key(obj["c"]))
        elif m:
            out.setdefault(m.group(1), set())
    return out


def _methods(st: LinkState, c: Node) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(name, defining file, defining class qualname, func info) of the public methods of ``c``,
    nearest definition first (the class itself, then its local bases)."""
    seen: dict[str, tuple[str, str, str, dict[str, Any]]] = {}
    for anc in st.r.ancestors(c)[0]:
        funcs = st.files[anc["p"]]["funcs"]
        prefix = anc["n"] + "."
        for qual, info in funcs.items():
            name = qual[len(prefix) :]
            if qual.startswith(prefix) and "." not in name and not name.startswith("_"):
                seen.setdefault(name, (name, anc["p"], anc["n"], info))
    found = list(seen.values())
    # generated servicer methods are named as the rpcs (UpperCamel); lower-case ones are helpers
    upper = [m for m in found if m[0][:1].isupper()]
    return upper or found


def collect(st: LinkState) -> list[ApiOut]:
    classes: dict[Key, Node] = {}
    serves: dict[Key, set[str]] = defaultdict(set)
    for path in sorted(st.files):
        for qual in st.files[path]["classes"]:
            c = {"t": "cls", "p": path, "n": qual}
            classes[(path, qual)] = c
            for q in st.r.ancestors(c)[1]:
                svc = _servicer_base(q)
                if svc:
                    serves[(path, qual)].add(svc)
    registered = _registered(st)
    for svc, keys in registered.items():
        for key in keys:
            serves[key].add(svc)
    out: list[ApiOut] = []
    for svc in sorted({s for v in serves.values() for s in v}):
        chosen = sorted(registered.get(svc) or _leaves(st, [classes[k] for k in serves if svc in serves[k]]))
        for key in chosen:
            if key in classes:
                out.extend(_apis(st, classes[key], svc, serves[key]))
    return out


def _leaves(st: LinkState, cands: list[Node]) -> set[Key]:
    inherited = {_key(a) for c in cands for a in st.r.ancestors(c)[0][1:]}
    return {_key(c) for c in cands if _key(c) not in inherited}


def _apis(st: LinkState, c: Node, svc: str, serves: set[str]) -> list[ApiOut]:
    known = _KNOWN_RPCS.get(svc)
    others = {n for s in serves - {svc} for n in _KNOWN_RPCS.get(s, ())}
    out: list[ApiOut] = []
    for name, file, cls, info in _methods(st, c):
        if (known is not None and name not in known) or name in others:
            continue
        short = cls.rsplit(".", 1)[-1]
        api = RawApi(
            method="RPC",
            path=f"{svc}/{name}",
            handler=f"{short}.{name}",
            file=file,
            start_line=info["l"],
            end_line=info.get("e", info["l"]),
            kind="grpc",
            component=short,
            doc=info.get("doc"),
            framework="grpc",
        )
        out.append((api, (file, f"{cls}.{name}"), file))
    return out
