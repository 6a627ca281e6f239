"""A project's own publish/subscribe helpers: channels supplied by the helper's call sites.

`publish(topic, payload) { return producer.send({ topic, messages }) }` called as
`bus.publish("orders.created", order)` is reported at the call site with the channel
`orders.created`, the provider and client of the message inside the helper. Helpers built on
helpers (`notify = (e) => publish("audit." + e, e)`) are followed layer by layer. A helper nobody
in the service calls stays one message whose channel names the parameter (the gap a reader fills).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from ..facts import Expr
from .attribution import Reach
from .resolve import Resolver
from .wrappers import Slot, WrapperSites, _expr, _fill

Loc = tuple[str, str]  # (file, fid)
Site = tuple[str, dict[str, Any], Expr]  # (file, message record, channel)
_MAX_VARIANTS = 64  # channels one call site can stand for


def _has_param(parts: list[Any]) -> bool:
    return any(p[0] == "param" for p in parts)


class MessageSites:
    """The messages of one service whose channel is a parameter, reported where the helper is called."""

    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver, reach: Reach) -> None:
        self.files = files
        self.r = resolver
        self.reach = reach
        self.slots = WrapperSites(files, resolver, reach).slots
        self.used: set[Loc] = set()

    def wrapped(self, file: str, msg: Mapping[str, Any]) -> bool:
        """A message of a helper that has call sites: reported there instead (after ``run``)."""
        return bool(msg.get("fn")) and (file, msg["fn"]) in self.used and _has_param(msg["channel"])

    def run(self) -> list[Site]:
        templates: dict[Loc, list[tuple[tuple[Any, ...], dict[str, Any]]]] = defaultdict(list)
        for file in sorted(self.files):
            for msg in self.files[file].get("messages", []):
                fid = msg.get("fn")
                if fid and _has_param(msg["channel"]):  # an anonymous callback too: a loop runs it
                    items = self.r.parts(file, msg["channel"], params=self.slots((file, fid)))
                    templates[(file, fid)].append((tuple(items), msg))
        if not templates:
            return []
        callers = self._callers()
        originals = set(templates)
        out: list[Site] = []
        pending: dict[Loc, list[Site]] = {}
        work = sorted(templates)
        while work:
            loc = work.pop(0)
            for file, fid, inv in callers.get(loc, []):
                self.used.add(loc)
                own = (file, fid) if fid else None
                variants = self._given(file, own, inv)
                for template, msg, given in [(t, m, g) for t, m in templates[loc] for g in variants]:
                    items = _fill(template, given)
                    channel = _expr(items)
                    if channel is None:
                        continue
                    record = {
                        **msg,
                        "line": inv["line"],
                        "end": inv["end"],
                        "fn": fid,
                        "cls": self._cls(file, fid),
                    }
                    passes_on = any(isinstance(i, Slot) for i in items)
                    if own is None or not passes_on or own[1].startswith("<anonymous>") or own in originals:
                        out.append((file, record, channel))
                        continue
                    templates[own].append((tuple(items), record))
                    pending.setdefault(own, []).append((file, record, channel))
                    if own not in work:
                        work.append(own)
        for loc, sites in sorted(pending.items()):
            if loc not in self.used:
                out.extend(sites)  # a helper of a helper nobody calls: reported where it is
        return out

    def _given(self, file: str, own: Loc | None, inv: Mapping[str, Any]) -> list[dict[int, list[Any]]]:
        """What a call site hands each parameter; one mapping per topic when an argument names
        several at once (``consume({ topics: ["a", "b"] })``)."""
        given = {
            i: self.r.parts(file, a, params=self.slots(own))
            for i, a in enumerate(inv.get("args") or [])
            if a is not None
        }
        variants = [given]
        for key, items in sorted((inv.get("several") or {}).items()):
            idx = int(key)
            if len(variants) * len(items) > _MAX_VARIANTS:
                break
            variants = [
                {**g, idx: self.r.parts(file, item, params=self.slots(own))} for g in variants for item in items
            ]
        return variants

    def _cls(self, file: str, fid: str | None) -> str | None:
        return self.files[file].get("functions", {}).get(fid, {}).get("cls") if fid else None

    def _callers(self) -> dict[Loc, list[tuple[str, str | None, dict[str, Any]]]]:
        out: dict[Loc, list[tuple[str, str | None, dict[str, Any]]]] = defaultdict(list)
        for file in sorted(self.files):
            data = self.files[file]
            invokes = [
                (fid, inv)
                for fid, rec in sorted(data.get("functions", {}).items())
                for inv in rec.get("invokes", [])
            ]
            invokes += [(None, inv) for inv in data.get("invokes", [])]
            for fid, inv in invokes:
                loc = self.reach.callee(file, inv["callee"])
                if loc is not None and loc != (file, fid):
                    out[loc].append((file, fid, inv))
        return out
