"""Which API handlers reach which methods: the handler itself and every method of the same
service it calls, however deep (same class, a typed field/parameter, or the implementations of an
interface), through the generic pass in ``orbitkb.analysis.reach``."""

from __future__ import annotations

from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
from orbitkb.analysis.reach import reached_by

Key = tuple[str, str, str]  # (path, class qname, method)
#: Method names the syntax layers give constructors and initializer blocks.
INITIALIZERS = frozenset({"<init>", "<clinit>"})


def key(ref: ClassRef, method: str) -> Key:
    return (ref.path, ref.qname, method)


class Reach:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        self._entries: dict[str, set[Key]] = {}
        self._refs: dict[Key, ClassRef] = {}
        self._by_method: dict[Key, set[str]] | None = None

    def add_handler(self, ref: ClassRef | None, method: str, handler: str) -> None:
        if ref is None:
            return
        k = key(ref, method)
        self._refs[k] = ref
        self._entries.setdefault(handler, set()).add(k)
        self._by_method = None

    def _callees(self, node: Key) -> list[Key]:
        ref, method = self._refs[node], node[2]
        out: list[Key] = []
        for m in ref.methods.get(method, ()):
            for owner, name, *_rest in m.get("invokes", ()):
                for callee in self.callees(ref, owner, name):
                    k = key(callee, name)
                    self._refs.setdefault(k, callee)
                    out.append(k)
        return out

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
        if self._by_method is None:
            self._by_method = reached_by(self._entries, self._callees)
        if method in INITIALIZERS:
            # A client or stub built when the object is made serves whoever calls its methods.
            found = {h for m in ref.methods for h in self._by_method.get(key(ref, m), ())}
            return sorted(found)
        return sorted(self._by_method.get(key(ref, method), ()))
