"""Request/response shapes of FastAPI handlers: fields of pydantic / SQLModel / dataclass models.

The request is the handler parameter annotated with a model of the service (several such
parameters are embedded by FastAPI under their names); the response is ``response_model=`` of
the route, else the handler's return annotation. ``list[X]`` keeps X's fields, typed as list items.
"""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.python.ir import Node, describe
from orbitkb.analysis.python.linkctx import LinkState

Shape = tuple[tuple[str, str, bool | None], ...]

MODEL_BASES = frozenset({"BaseModel", "SQLModel", "RootModel", "GenericModel", "Schema"})
MODEL_DECORATORS = ("dataclass", "dataclasses.dataclass", "define", "frozen", "attr.s", "attrs")
LIST_NAMES = frozenset({"list", "List", "Sequence", "Iterable", "set", "Set", "tuple", "Tuple", "frozenset"})
NOT_BODY = ("Depends", "Security", "Query", "Path", "Header", "Cookie")
SKIP_FIELDS = frozenset({"model_config", "Config", "__tablename__"})
_OPTIONAL = re.compile(r"^\s*Optional\[|\|\s*None\b|\bNone\s*\||^\s*Union\[.*\bNone\b")
LIST_ITEM = " (list item)"


def is_model(st: LinkState, c: Node) -> bool:
    local, external = st.r.ancestors(c)
    if any(e.rsplit(".", 1)[-1] in MODEL_BASES for e in external):
        return True
    for cls in local:
        info = st.r.class_info(cls)
        decs = [describe(d["f"] if d["t"] == "call" else d) for d in info["dec"]]
        if any(d.endswith(MODEL_DECORATORS) for d in decs):
            return True
    return False


def model_fields(st: LinkState, c: Node, list_item: bool = False) -> Shape:
    """Annotated fields, inherited ones first (a subclass redefinition wins, in the base's place)."""
    local, _ = st.r.ancestors(c)
    out: dict[str, tuple[str, bool | None]] = {}
    for cls in reversed(local):
        info = st.r.class_info(cls)
        nodefault = set(info.get("nd", ()))
        for name, ann in info["ann"].items():
            if name.startswith("_") or name in SKIP_FIELDS or ann.startswith(("ClassVar", "typing.ClassVar")):
                continue
            out[name] = (
                ann + (LIST_ITEM if list_item else ""),
                name in nodefault and not _OPTIONAL.search(ann),
            )
    return tuple((n, t, r) for n, (t, r) in out.items())


def _model(st: LinkState, q: str | None) -> Node | None:
    if not q:
        return None
    c = st.r.lookup(q)
    return c if c["t"] == "cls" and is_model(st, c) else None


def request_fields(st: LinkState, info: dict[str, Any]) -> Shape:
    bodies: list[tuple[str, Node, bool]] = []
    for name in info.get("p", ()):
        p = info.get("pn", {}).get(name)
        if not p or "ty" not in p:
            continue
        d = p.get("d")
        if d is not None and any(w in describe(d) for w in NOT_BODY):
            continue
        c = _model(st, p["ty"])
        if c is not None:
            bodies.append((name, c, bool(p.get("tl"))))
    if len(bodies) == 1:
        _, c, many = bodies[0]
        return model_fields(st, c, many)
    # FastAPI embeds several body models under their parameter names
    return tuple((n, c["n"].rsplit(".", 1)[-1] + (LIST_ITEM if many else ""), True) for n, c, many in bodies)


def response_fields(st: LinkState, info: dict[str, Any], declared: Node | None) -> Shape:
    if declared is not None:
        many = False
        if declared["t"] == "idx" and describe(declared["o"]).rsplit(".", 1)[-1] in LIST_NAMES:
            declared, many = declared["i"], True
        c = st.r.ev(declared)
        return model_fields(st, c, many) if c["t"] == "cls" and is_model(st, c) else ()
    model = _model(st, info.get("rt"))
    return model_fields(st, model, bool(info.get("rl"))) if model is not None else ()


def shapes(st: LinkState, file: str, qual: str | None, declared: Node | None) -> tuple[Shape, Shape]:
    if not qual:
        return (), ()
    info = st.func(file, qual)
    return request_fields(st, info), response_fields(st, info, declared)
