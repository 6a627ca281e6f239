"""NestJS request/response shapes: ``@Body() dto: CreateOrderDto`` and the DTO classes' typed fields.

Parse time records each class's typed properties (required unless ``?`` or an "optional"
decorator such as class-validator's ``@IsOptional()``) and each route's body parameter and
return type; link time resolves the DTO by class name across the service's files, with
inheritance (``extends Base``, and the Nest mapped types ``PartialType``/``PickType``/``OmitType``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tree_sitter import Node

from .syntax import text

Shape = tuple[tuple[str, str, bool | None], ...]
Decorator = tuple[str, list[Node]]

OPTIONAL_DECORATORS = frozenset({"IsOptional", "ApiPropertyOptional", "ValidateIf"})
WRAPPERS = ("Promise", "Observable", "Array", "ReadonlyArray", "Partial", "Readonly")
LIST_ITEM = " (list item)"
_HERITAGE = re.compile(
    r"extends\s+(?:(PartialType|PickType|OmitType|IntersectionType)\s*\()?\s*([A-Za-z_$][\w$]*)"
)
_STRINGS = re.compile(r"['\"`]([^'\"`]+)['\"`]")


def class_fields(members: list[tuple[list[Decorator], Node]]) -> list[list[Any]]:
    """[name, type as written, required] of the typed instance properties of a class."""
    out: list[list[Any]] = []
    for decs, member in members:
        if member.type != "public_field_definition" or any(c.type == "static" for c in member.children):
            continue
        name = text(member.child_by_field_name("name"))
        ann = member.child_by_field_name("type")
        if not name or ann is None:
            continue
        ty = text(ann).lstrip(":").strip()
        optional = any(c.type == "?" for c in member.children) or any(
            d[0] in OPTIONAL_DECORATORS or (d[0] == "ApiProperty" and "required: false" in _args(d))
            for d in decs
        )
        out.append([name, " ".join(ty.split()), not optional])
    return out


def _args(d: Decorator) -> str:
    return " ".join(" ".join(text(a).split()) for a in d[1])


def route_types(member: Node) -> dict[str, Any]:
    """The ``@Body()`` parameter type (and field name for ``@Body('x')``) and the return type."""
    out: dict[str, Any] = {}
    params = member.child_by_field_name("parameters")
    for p in params.named_children if params is not None else []:
        decs = [c for c in p.children if c.type == "decorator"]
        body = next((d for d in decs if text(d).lstrip("@").split("(")[0].strip() == "Body"), None)
        ann = p.child_by_field_name("type")
        if body is None or ann is None:
            continue
        out["body"] = " ".join(text(ann).lstrip(":").split())
        key = _STRINGS.search(text(body))
        if key:
            out["body_key"] = key.group(1)
        out["body_opt"] = p.type == "optional_parameter"
        break
    ret = member.child_by_field_name("return_type")
    if ret is not None:
        out["ret"] = " ".join(text(ret).lstrip(":").split())
    return out


def _unwrap(ty: str) -> tuple[str, bool]:
    """``Promise<Array<X>>`` / ``Observable<X[]>`` → (X, is a list)."""
    many = False
    for _ in range(6):
        ty = ty.strip()
        if ty.endswith("[]"):
            ty, many = ty[:-2], True
            continue
        head, sep, rest = ty.partition("<")
        if sep and head.strip() in WRAPPERS and rest.endswith(">"):
            many = many or head.strip() in ("Array", "ReadonlyArray")
            ty = rest[:-1]
            continue
        break
    return ty, many


class DtoIndex:
    def __init__(self, files: Mapping[str, dict[str, Any]]):
        self.classes: dict[str, dict[str, Any]] = {}
        for path in sorted(files, reverse=True):  # the first file (by path) wins a name clash
            for name, info in files[path].get("classes", {}).items():
                if "dto" in info or info.get("extends"):
                    self.classes[name] = info

    def fields(self, name: str, seen: tuple[str, ...] = ()) -> dict[str, tuple[str, bool | None]]:
        info = self.classes.get(name)
        if info is None or name in seen or len(seen) > 8:
            return {}
        out: dict[str, tuple[str, bool | None]] = {}
        ext = info.get("extends") or ""
        m = _HERITAGE.search(ext)
        if m:
            mapped, base = m.group(1), m.group(2)
            inherited = self.fields(base, (*seen, name))
            keys = set(_STRINGS.findall(ext))
            if mapped == "PartialType":
                inherited = {k: (t, False) for k, (t, _) in inherited.items()}
            elif mapped == "PickType":
                inherited = {k: v for k, v in inherited.items() if k in keys}
            elif mapped == "OmitType":
                inherited = {k: v for k, v in inherited.items() if k not in keys}
            out.update(inherited)
        for fname, ty, req in info.get("dto", ()):
            out[fname] = (ty, req)
        return out

    def shape(self, ty: str | None) -> Shape:
        if not ty:
            return ()
        name, many = _unwrap(ty)
        fields = self.fields(name)
        suffix = LIST_ITEM if many else ""
        return tuple((n, t + suffix, r) for n, (t, r) in fields.items())

    def request(self, route: dict[str, Any]) -> Shape:
        ty = route.get("body")
        if ty and route.get("body_key"):
            return ((route["body_key"], ty, not route.get("body_opt")),)
        return self.shape(ty)
