"""Which API handlers reach which methods: the handler itself and one hop into a method of the
same service (same class, a typed field/parameter, or the implementations of an interface)."""

from __future__ import annotations

from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex

Key = tuple[str, str, str]  # (path, class qname, method)


def key(ref: ClassRef, method: str) -> Key:
    return (ref.path, ref.qname, method)


class Reach:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        self._by_method: dict[Key, set[str]] = {}

    def add_handler(self, ref: ClassRef | None, method: str, handler: str) -> None:
        if ref is None:
            return
        self._by_method.setdefault(key(ref, method), set()).add(handler)
        for m in ref.methods.get(method, ()):
            for owner, name, _args, _line in m.get("invokes", ()):
                for callee in self.callees(ref, owner, name):
                    self._by_method.setdefault(key(callee, name), set()).add(handler)

    def callees(self, ref: ClassRef, owner: str, name: str) -> list[ClassRef]:
        """Classes of this service whose method ``name`` an invocation on ``owner`` may run."""
        if owner == "":
            candidates = [ref, *self.index.supers(ref)]
        else:
            simple = owner.rsplit(".", 1)[-1]
            candidates = list(self.index.by_name.get(simple, []))
            candidates.extend(self.index.implementers.get(simple, []))
        return [c for c in candidates if name in c.methods]

    def handlers(self, ref: ClassRef, method: str) -> list[str]:
        return sorted(self._by_method.get(key(ref, method), ()))
