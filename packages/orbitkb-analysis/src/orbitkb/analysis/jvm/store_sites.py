"""Tables and collections opened by name in code: ``dynamoDB.getTable("orders")``,
``enhancedClient.table("orders", schema)``, ``database.getCollection("orders")`` persist to them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import RawEntity
from orbitkb.analysis.jvm.evaluate import evaluate
from orbitkb.analysis.jvm.syntax import Call
from orbitkb.analysis.jvm.tables import STORE_HANDLES

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
    from orbitkb.analysis.jvm.walking import Walker

_METHODS = {m for *_rest, methods in STORE_HANDLES.values() for m in methods}


def detect(w: Walker, call: Call) -> None:
    if call.name not in _METHODS or call.recv is None or not call.args:
        return
    rtype = w.recv_type(call.recv) or ""
    handle = STORE_HANDLES.get(rtype)
    if handle is None or call.name not in handle[3]:
        return
    index = handle[3][call.name]
    if len(call.args) <= index:
        return
    w.add(
        {
            "k": "store",
            "type": rtype,
            "name": evaluate(call.args[index], w.scope),
            "line": call.line,
            "end": call.end,
        }
    )


def entity(index: ServiceIndex, ref: ClassRef, site: dict[str, Any]) -> RawEntity | None:
    """The entity a store site opens, when its name folds to text."""
    kind, engine, framework, _methods = STORE_HANDLES[site["type"]]
    value = index.resolve(site["name"], ref)
    name = value.literal() if value is not None else None
    if not name:
        return None
    return RawEntity(
        name=name,
        kind=kind,
        file=ref.path,
        start_line=site["line"],
        end_line=site["end"],
        engine_hint=engine,
        framework=framework,
    )
