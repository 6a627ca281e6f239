"""GraphQL federation as gateway routes: the subgraphs a router forwards to, read from the composed
supergraph SDL (``@join__graph(name: "x", url: "http://x:4000/graphql")``) or from the composition
config a router is built from (rover's ``supergraph.yaml``: ``subgraphs.<name>.routing_url``).

Each subgraph is one route: the router POSTs its query plan's fetches to the subgraph's URL. The
directive's own definition (``directive @join__graph(name: String!, url: String!)``) names no URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from orbitkb.analysis.gateways.route import ConfigRoute
from orbitkb.analysis.yamlines import LDict, load_all

SERVER = "graphql-federation"
SDL_SUFFIXES = (".graphql", ".graphqls", ".gql")
_JOIN_GRAPH = re.compile(r"@join__graph\s*\((?P<args>[^)]*)\)")
_ARG = re.compile(r"(?P<name>\w+)\s*:\s*\"(?P<value>(?:[^\"\\]|\\.)*)\"")


def is_supergraph_sdl(text: str) -> bool:
    return "@join__graph" in text and "url:" in text


def is_supergraph_config(text: str) -> bool:
    return "subgraphs" in text and "routing_url" in text


def is_federation_config(text: str) -> bool:
    return is_supergraph_sdl(text) or is_supergraph_config(text)


def _route(url: str, line: int) -> ConfigRoute | None:
    url = url.strip()
    if "://" not in url:
        return None  # a subgraph with no routing URL is resolved elsewhere (a managed graph)
    rest = url.partition("://")[2]
    slash = rest.find("/")
    path = rest[slash:].split("?", 1)[0] if slash >= 0 else "/"
    return ConfigRoute(url, path or "/", line, method="POST")


def sdl_routes(text: str) -> Iterator[ConfigRoute]:
    """One route per ``@join__graph`` value with a quoted ``url`` argument."""
    for match in _JOIN_GRAPH.finditer(text):
        args = {m.group("name"): m.group("value") for m in _ARG.finditer(match.group("args"))}
        route = _route(args["url"], text.count("\n", 0, match.start()) + 1) if "url" in args else None
        if route is not None:
            yield route


def config_routes(root: Any) -> Iterator[ConfigRoute]:
    """One route per subgraph of a composition config that names its ``routing_url``."""
    subgraphs = root.get("subgraphs") if isinstance(root, dict) else None
    if not isinstance(subgraphs, LDict):
        return
    for name, spec in subgraphs.items():
        url = spec.get("routing_url") if isinstance(spec, dict) else None
        if isinstance(url, str):
            line = (
                spec.line("routing_url", subgraphs.line(name))
                if isinstance(spec, LDict)
                else subgraphs.line(name)
            )
            route = _route(url, line)
            if route is not None:
                yield route


def federation_routes(path: str, text: str) -> Iterator[ConfigRoute]:
    """The subgraph routes of a supergraph SDL or of a composition config (YAML)."""
    if path.lower().endswith(SDL_SUFFIXES):
        yield from sdl_routes(text)
        return
    try:
        docs = load_all(text)
    except Exception:  # noqa: BLE001 - an unreadable config has no routes
        return
    for doc in docs:
        yield from config_routes(doc)
