"""Spring request/response shapes: the ``@RequestBody`` parameter's class and the handler's return
type (``ResponseEntity``/``Mono``/``Optional``... unwrapped; collections give list items), both
resolved to records/classes of the service, inherited fields included."""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex

Shape = tuple[tuple[str, str, bool | None], ...]

REQUIRED_ANNOTATIONS = frozenset({"NotNull", "NotBlank", "NotEmpty", "NonNull", "Nonnull"})
WRAPPERS = frozenset(
    {
        "ResponseEntity",
        "HttpEntity",
        "Mono",
        "Optional",
        "CompletableFuture",
        "CompletionStage",
        "Callable",
        "DeferredResult",
        "EntityModel",
        "Uni",
    }
)
LISTS = frozenset(
    {
        "List",
        "Set",
        "Collection",
        "Iterable",
        "Flux",
        "Page",
        "Slice",
        "Stream",
        "Multi",
        "CollectionModel",
        "PagedModel",
        "ArrayList",
        "Array",
        "MutableList",
    }
)
SKIP_KINDS = frozenset({"interface", "enum", "file", "annotation"})
LIST_ITEM = " (list item)"


def _unwrap(ty: str) -> tuple[str, bool]:
    many = False
    for _ in range(6):
        ty = ty.strip().rstrip("?")
        if ty.endswith("[]"):
            ty, many = ty[:-2], True
            continue
        head, sep, rest = ty.partition("<")
        simple = head.strip().rsplit(".", 1)[-1]
        if not sep or not rest.endswith(">") or simple not in WRAPPERS | LISTS:
            break
        many = many or simple in LISTS
        ty = rest[:-1]
    return ty, many


def _fields(index: ServiceIndex, ref: ClassRef, seen: set[int]) -> dict[str, tuple[str, bool | None]]:
    if id(ref) in seen or len(seen) > 8:
        return {}
    seen.add(id(ref))
    out: dict[str, tuple[str, bool | None]] = {}
    for sup in index.supers(ref):
        if sup.data["kind"] not in SKIP_KINDS:
            out.update(_fields(index, sup, seen))
    for f in ref.data["fields"]:
        if "static" in f["mods"] or not f.get("type"):
            continue
        required = True if any(a[0] in REQUIRED_ANNOTATIONS for a in f["anns"]) else None
        out[f["name"]] = (f["type"], required)
    return out


def shape_of(index: ServiceIndex, type_text: str | None) -> Shape:
    if not type_text:
        return ()
    name, many = _unwrap(type_text)
    ref = index.find(name) if name and name != "?" else None
    if ref is None or ref.data["kind"] in SKIP_KINDS:
        return ()
    suffix = LIST_ITEM if many else ""
    return tuple((n, t + suffix, r) for n, (t, r) in _fields(index, ref, set()).items())


def request_fields(index: ServiceIndex, *methods: dict[str, Any]) -> Shape:
    for m in methods:
        for _, ptype, anns in m.get("params", ()):
            if any(a[0] == "RequestBody" for a in anns):
                return shape_of(index, ptype)
    return ()


def response_fields(index: ServiceIndex, method: dict[str, Any]) -> Shape:
    return shape_of(index, method.get("ret"))
