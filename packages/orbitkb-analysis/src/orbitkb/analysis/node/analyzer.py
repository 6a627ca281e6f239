"""The Node.js/TypeScript LanguageAnalyzer: parse one file into raw JSON facts, link a service."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..facts import LinkedFacts, ServiceContext
from .extract import Extractor
from .prisma import parse_prisma
from .syntax import parser_for

# Minified bundles and generated code carry no authored routes and cost the most to walk.
_MAX_BYTES = 1_500_000


class NodeAnalyzer:
    stack = "node-ts"
    version = "37"
    reads_libraries = True  # NestJS monorepo library projects (``@app/common``), in-repository npm packages
    suffixes = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".prisma")

    def parse(self, path: str, text: str) -> dict[str, Any]:
        try:
            if path.endswith(".prisma"):
                return parse_prisma(text)
            if path.endswith((".d.ts", ".d.mts", ".d.cts")):  # type declarations: no behaviour
                return {}
            data = text.encode("utf-8", "replace")
            if len(data) > _MAX_BYTES:
                return {"error": f"file too large to analyze ({len(data)} bytes)"}
            tree = parser_for(path).parse(data)
            root = tree.root_node
            out = Extractor(path).run(root)
            if root.has_error:
                bad = _error_lines(root)
                if len(bad) > 0 and not _anything(out):
                    return {"error": f"syntax error near line {bad[0]}"}
                out["warnings"] = [
                    f"syntax error near line {line}; extracted what parsed" for line in bad[:3]
                ]
            return out
        except RecursionError:
            return {"error": "expression nesting too deep to analyze"}
        except Exception as exc:  # noqa: BLE001 - a bad file must become a gap, never stop the run
            return {"error": f"analyzer failure: {type(exc).__name__}: {exc}"[:200]}

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        from .linker import link

        return link(ctx, parsed)


def _error_lines(root: Any) -> list[int]:
    out: list[int] = []
    stack = [root]
    while stack and len(out) < 3:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            out.append(node.start_point[0] + 1)
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    return sorted(out)


def _anything(out: dict[str, Any]) -> bool:
    return bool(out.get("functions") or out.get("classes") or out.get("routes") or out.get("calls"))
