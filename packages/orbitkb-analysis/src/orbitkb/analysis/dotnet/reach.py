"""Which API handlers reach a line of a .NET service: a call graph over its own methods, following
receivers by their declared type and interfaces to the classes implementing them (constructor
injection), however deep, so a controller action owns the HTTP call its service class makes."""

from __future__ import annotations

from collections import deque

from orbitkb.analysis.dotnet.index import ServiceIndex, simple

Node = tuple[str, str]  # (type name, method name)
MAX_NODES = 20_000


class Reach:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        self.spans: dict[str, list[tuple[int, int, Node]]] = {}
        methods: dict[str, set[str]] = {}
        implementers: dict[str, set[str]] = {}
        for ref in index.types:
            names = methods.setdefault(ref.name, set())
            for m in ref.data["m"]:
                names.add(m["n"])
                self.spans.setdefault(ref.file, []).append((m["l"], m["e"], (ref.name, m["n"])))
            for base in ref.data["b"]:
                implementers.setdefault(simple(base), set()).add(ref.name)
        self.edges: dict[Node, set[Node]] = {}
        self._reached_key: frozenset[str] | None = None
        self._reached: dict[Node, list[str]] = {}
        for site in index.sites():
            if site.owner is None or site.method is None:
                continue
            d = site.data
            name = d.get("n", "")
            if d.get("rt"):
                targets = {simple(d["rt"])} | implementers.get(simple(d["rt"]), set())
            elif not d.get("r") and "ri" not in d:
                targets = {site.owner.name} | set(
                    site.owner.data["b"] and [simple(site.owner.data["b"][0])] or []
                )
            else:
                continue
            here = (site.owner.name, site.method["n"])
            for t in targets:
                if name in methods.get(t, ()):
                    self.edges.setdefault(here, set()).add((t, name))

    def _node(self, file: str, line: int) -> Node | None:
        best = None
        for start, end, node in self.spans.get(file, ()):
            if start <= line <= end and (best is None or start >= best[0]):
                best = (start, node)
        return best[1] if best else None

    def handlers(self, file: str, line: int, handlers: set[str]) -> list[str | None]:
        """Every handler (``Type.method``) that reaches ``file:line``, sorted; ``[None]`` when none."""
        node = self._node(file, line)
        if node is None:
            return [None]
        key = frozenset(handlers)
        if self._reached_key != key:  # one forward walk per handler, shared by every site
            self._reached_key, self._reached = key, {}
            for handler in sorted(handlers):
                owner, _, method = handler.rpartition(".")
                if owner:
                    for reached in self._walk((owner, method)):
                        self._reached.setdefault(reached, []).append(handler)
        return list(self._reached.get(node, ())) or [None]

    def _walk(self, start: Node) -> set[Node]:
        seen = {start}
        queue = deque([start])
        while queue and len(seen) < MAX_NODES:
            for nxt in self.edges.get(queue.popleft(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return seen
