"""Messages of a base class whose channel is a field its subclasses set.

`abstract class Publisher { abstract subject: Subjects; publish(d) { this.client.publish(this.subject, d) } }`
extended by `class OrderPlacedPublisher extends Publisher { subject = Subjects.OrderPlaced }`: each
subclass of the service publishes on its own `subject`, and is reported there with that value. The
base class's message (a channel naming a field only subclasses set) is then not reported: it is
the same message, seen before the subclass fills it in. The base may sit in a library the service
imports (a shared events package).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..facts import Expr, Unknown
from .resolve import Resolver

ClassLoc = tuple[str, str]  # (file, class name)
Site = tuple[str, dict[str, Any], Expr]  # (file, message record, channel)
_MAX_LEVELS = 8


class SubclassChannels:
    """The messages of one service whose channel is a ``this.<field>`` its subclasses assign."""

    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver) -> None:
        self.files = files
        self.r = resolver
        self.covered: set[tuple[str, int, str]] = set()  # (file, line, direction) of base messages

    def covers(self, file: str, msg: Mapping[str, Any]) -> bool:
        """A base-class message reported at its subclasses instead (after ``run``)."""
        return (file, msg["line"], msg["dir"]) in self.covered

    def run(self) -> list[Site]:
        bases = [
            (file, msg, fields)
            for file in sorted(self.files)
            for msg in self.files[file].get("messages", [])
            if msg.get("cls") and (fields := _this_fields(msg["channel"], msg["cls"]))
        ]
        if not bases:
            return []
        chains = {loc: self._ancestors(loc) for loc in self._classes()}
        out: list[Site] = []
        for file, msg, fields in bases:
            base = (file, msg["cls"])
            for loc, chain in sorted(chains.items()):
                if base not in chain:
                    continue
                below = chain[: chain.index(base)]  # the subclass and the classes between it and the base
                if not all(any(self._declares(c, f) for c in [loc, *below]) for f in fields):
                    continue
                channel = self.r.expr(loc[0], _rebound(msg["channel"], msg["cls"], loc[1]))
                if channel is None or all(isinstance(p, Unknown) for p in channel.parts):
                    continue
                info = self.files[loc[0]]["classes"][loc[1]]
                record = {**msg, "line": info["line"], "end": info["end"], "fn": None, "cls": loc[1]}
                out.append((loc[0], record, channel))
                self.covered.add((file, msg["line"], msg["dir"]))
        return out

    def _classes(self) -> Iterator[ClassLoc]:
        for file in sorted(self.files):
            for name in sorted(self.files[file].get("classes", {})):
                yield file, name

    def _declares(self, loc: ClassLoc, field: str) -> bool:
        info = self.files.get(loc[0], {}).get("classes", {}).get(loc[1], {})
        return field in (info.get("fields") or {})

    def _ancestors(self, loc: ClassLoc) -> list[ClassLoc]:
        """The classes ``loc`` extends, nearest first (imported ones through the service's imports)."""
        out: list[ClassLoc] = []
        current: ClassLoc | None = loc
        while current is not None and len(out) < _MAX_LEVELS:
            current = self._parent(current)
            if current is None or current in out or current == loc:
                break
            out.append(current)
        return out

    def _parent(self, loc: ClassLoc) -> ClassLoc | None:
        file, name = loc
        info = self.files.get(file, {}).get("classes", {}).get(name) or {}
        parent = (info.get("extends") or "").removeprefix("extends ").split("<")[0].strip()
        if not parent or "." in parent:
            return None
        binding = self.files[file].get("bindings", {}).get(parent)
        target = self.r.binding_target(file, binding) if binding is not None else None
        if target is not None and target[0] == "cls":
            return str(target[1]), str(target[2])
        found = self.r.class_for(file, parent)
        return (found, parent) if found else None


def _this_field(part: list[Any], cls: str) -> str | None:
    """The field of ``cls`` a channel part reads through ``this`` (``this.subject``), else None."""
    ref = part[1] if part[0] == "ref" else None
    if isinstance(ref, list) and len(ref) == 3 and ref[0] == "this" and ref[1] == cls:
        return str(ref[2])
    return None


def _this_fields(parts: list[Any], cls: str) -> set[str]:
    return {f for p in parts if (f := _this_field(p, cls)) is not None}


def _rebound(parts: list[Any], cls: str, sub: str) -> list[Any]:
    """The channel's parts with ``this`` of the base class read as an instance of the subclass."""
    out: list[Any] = []
    for p in parts:
        field = _this_field(p, cls)
        out.append(["ref", ["this", sub, field], *p[2:]] if field is not None else p)
    return out
