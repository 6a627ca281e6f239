"""Firestore collections a service reads and writes: `client.collection("orders")`, a document's
subcollection, `collection_group("items")`, on a client of google-cloud-firestore or of the
Firebase Admin SDK (the families in ``signatures``).

A collection named by a literal or a constant is an entity. Names built at runtime (a prefix plus a
parameter) cannot be known statically: the service still uses Firestore, recorded as one entity
named ``*`` (its collections are named at runtime), like a Redis keyspace computed at runtime.
"""

from __future__ import annotations

from orbitkb.analysis.facts import RawEntity
from orbitkb.analysis.python.linkctx import LinkState, to_expr

#: (receiver family, method) -> argument (position, keyword) naming the collection
COLLECTION_CALLS = {
    ("firestore-client", "collection"): (0, "collection_path"),
    ("firestore-client", "collection_group"): (0, "collection_id"),
    ("firestore-doc", "collection"): (0, "collection_id"),
}
RUNTIME_NAMES = "*"


def collections(st: LinkState) -> list[RawEntity]:
    """The collections the service names, else one ``*`` entity when it names them only at runtime."""
    named: dict[str, RawEntity] = {}
    runtime: RawEntity | None = None
    for inv, (pos, key) in st.method_calls(COLLECTION_CALLS):
        expr = to_expr(st.r, inv.arg(pos, key))
        name = expr.literal() if expr is not None else None
        if name:
            name = name.strip("/").split("/")[-1]  # "shops/s1/orders" -> the collection "orders"
        if name and name not in named:
            named[name] = RawEntity(
                name, "document_collection", inv.path, inv.line, inv.end, None, (), "firestore", "firestore"
            )
        elif not name and runtime is None:
            runtime = RawEntity(
                RUNTIME_NAMES, "document_collection", inv.path, inv.line, inv.end, None, (), "firestore",
                "firestore",
            )  # fmt: skip
    return list(named.values()) or ([runtime] if runtime is not None else [])
