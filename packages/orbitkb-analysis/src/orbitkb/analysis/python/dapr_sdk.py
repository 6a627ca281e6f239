"""The Dapr Python SDK: ``DaprClient`` invocations, state stores and published topics.

``invoke_method("orders", "items", http_verb="POST")`` calls the app ``orders`` (a URL
``http://orders/items`` the pipeline resolves by app id); ``save_state("carts", key, value)`` keeps
data in the state store ``carts`` (its engine comes from the component YAML, ``dapr.apply``);
``publish_event("bus", "orders", data)`` publishes the topic ``orders`` on the pub/sub component
``bus``.
"""

from __future__ import annotations

from orbitkb.analysis.dapr.apply import FRAMEWORK, PROVIDER_PREFIX
from orbitkb.analysis.facts import Expr, Lit, RawCall, RawEntity, RawMessage
from orbitkb.analysis.python.ir import literal
from orbitkb.analysis.python.linkctx import Inv, LinkState, to_expr

FAMILY = "dapr"


INVOKE = frozenset({"invoke_method", "invoke_method_async"})
STATE = frozenset(
    {"save_state", "get_state", "delete_state", "save_bulk_state", "get_bulk_state",
     "execute_state_transaction", "query_state", "query_state_alpha1"}
)  # fmt: skip
PUBLISH = frozenset({"publish_event"})

Found = tuple[list[tuple[RawCall, str | None]], list[tuple[RawMessage, str | None]], list[RawEntity]]


def _text(st: LinkState, inv: Inv, pos: int, *names: str) -> Expr | None:
    node = inv.arg(pos, *names)
    return to_expr(st.r, node) if node is not None else None


def collect(st: LinkState) -> Found:
    calls: list[tuple[RawCall, str | None]] = []
    messages: list[tuple[RawMessage, str | None]] = []
    entities: dict[str, RawEntity] = {}
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm" or c["n"] not in INVOKE | STATE | PUBLISH:
            continue
        if st.r.family(st.r.as_object(c["o"])) != FAMILY:
            continue
        if c["n"] in INVOKE:
            app, method = _text(st, inv, 0, "app_id"), _text(st, inv, 1, "method_name")
            if app is None:
                continue
            path = (Lit("/"), *method.parts) if method is not None else ()
            url = Expr((Lit("http://"), *app.parts, *path))
            verb = literal(inv.arg(None, "http_verb"))
            call = RawCall("http", inv.path, inv.line, inv.end, "dapr", url, verb.upper() if verb else "POST")
            calls.append((call, inv.fn))
        elif c["n"] in STATE:
            store = _text(st, inv, 0, "store_name")
            name = store.literal() if store is not None else None
            if name and name not in entities:
                entities[name] = RawEntity(
                    name, "key_value", inv.path, inv.line, inv.end, framework=FRAMEWORK
                )
        else:
            pubsub, topic = _text(st, inv, 0, "pubsub_name"), _text(st, inv, 1, "topic_name")
            if topic is None:
                continue
            provider = PROVIDER_PREFIX + ((pubsub.literal() or "") if pubsub is not None else "")
            messages.append(
                (RawMessage("publishes", topic, provider, inv.path, inv.line, inv.end, "dapr"), inv.fn)
            )
    return calls, messages, list(entities.values())
