"""Edge evidence on demand: the map's JSON carries every edge without its reason and evidence (half
of its bytes), and the page asks for them when an edge or a service is selected.

Both answers come from the very same ``SystemMap`` the map was sent from (one snapshot), indexed
once per drawing: by edge id, and by node (every edge that starts or ends there).
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from typing import Any

from orbitkb.domain import errors
from orbitkb.domain.usecases.system_map import MapEdge, MapNode, SystemMap

#: what the map's JSON leaves out of each edge: asked for by /api/edge and /api/edges
ON_DEMAND = ("reason", "evidence")
DIRECTIONS = ("any", "in", "out")
MAX_LIMIT = 200
DEFAULT_LIMIT = 50


def lean_map(data: dict[str, Any]) -> dict[str, Any]:
    """The serialised map without the edges' reasons and evidence (``data`` is changed in place)."""
    for edge in data.get("edges", ()):
        for key in ON_DEMAND:
            edge.pop(key, None)
    return data


class EdgeIndex:
    """The edges of one drawing by id and by node (sorted by id: the same order on every call)."""

    def __init__(self, nodes: tuple[MapNode, ...], edges: tuple[MapEdge, ...]) -> None:
        self.edges = edges
        self.nodes = sorted(n.id for n in nodes)
        self._known = set(self.nodes)
        self.by_id = {e.id: e for e in edges}
        self.by_node: dict[tuple[str, str], list[MapEdge]] = defaultdict(list)
        for e in sorted(edges, key=lambda e: e.id):
            self.by_node[("out", e.source)].append(e)
            self.by_node[("in", e.target)].append(e)
            self.by_node[("any", e.source)].append(e)
            if e.target != e.source:
                self.by_node[("any", e.target)].append(e)

    def edge(self, edge_id: str) -> MapEdge:
        found = self.by_id.get(edge_id)
        if found is None:
            raise errors.NotFound(f"no edge {edge_id!r} on the map",
                                  hint="the map changed since the page loaded it: reload the page")
        return found

    def of_node(self, node: str, direction: str = "any", limit: int | None = None, offset: int | None = None
                ) -> dict[str, Any]:
        """The edges at ``node`` (``in``: ending there, ``out``: starting there), one page of them."""
        if direction not in DIRECTIONS:
            raise errors.InvalidInput(f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
        limit = DEFAULT_LIMIT if limit is None else limit
        offset = 0 if offset is None else offset
        if not 1 <= limit <= MAX_LIMIT:
            raise errors.InvalidInput(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
        if offset < 0:
            raise errors.InvalidInput(f"offset must be 0 or more, got {offset}")
        if node not in self._known:
            raise errors.NotFound(f"no node {node!r} on the map (service:NAME, resource:REPO/NAME or vendor:HOST)",
                                  tuple(difflib.get_close_matches(node, self.nodes, 5, 0.6)))
        edges = self.by_node.get((direction, node), [])
        return {"node": node, "direction": direction, "total": len(edges), "limit": limit, "offset": offset,
                "edges": edges[offset:offset + limit]}


class EdgeEvidence:
    """The index of the map last asked about, kept while the use case hands back the very same
    ``SystemMap`` (one snapshot at one freshness, as the map's JSON is kept)."""

    def __init__(self) -> None:
        self._last: tuple[SystemMap, EdgeIndex] | None = None
        self.built = 0  # how many indexes were built (for tests)

    def __call__(self, drawing: SystemMap) -> EdgeIndex:
        last = self._last  # read once: another thread may replace it, never half of it
        if last is None or last[0] is not drawing:
            last = (drawing, EdgeIndex(drawing.nodes, drawing.edges))
            self._last = last
            self.built += 1
        return last[1]
