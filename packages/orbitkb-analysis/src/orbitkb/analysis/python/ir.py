"""The small value language parse() writes and link() evaluates (JSON-able dicts, short keys).

Nodes are tagged by ``"t"``: lit (text), none, unk (hint), env (name, default node), ref (a
qualified dotted name: an import, a module-level symbol, ``module.Class.attr``), param (a
function parameter, kept symbolic so wrappers can be bound at their call sites), cat (string
concatenation; list concatenation when its parts are lists), call, attr, idx, list, dict, any
(one of several values, e.g. a loop variable over a literal tuple), or (``a or b``). Evaluation adds the resolved
forms: mod, cls, fn, ext (a name outside the service), inst (an object built by a call), bm (an
attribute or method of something) and ret (the unknown result of calling something).
"""

from __future__ import annotations

from typing import Any

Node = dict[str, Any]

NONE: Node = {"t": "none"}


def lit(text: str) -> Node:
    return {"t": "lit", "v": text}


def unk(hint: str) -> Node:
    return {"t": "unk", "h": hint}


def ref(q: str) -> Node:
    return {"t": "ref", "q": q}


def cat(parts: list[Node]) -> Node:
    """Concatenate, flattening nested concatenations and merging adjacent literals."""
    flat: list[Node] = []
    for p in parts:
        for q in p["p"] if p["t"] == "cat" else (p,):
            if q["t"] == "lit" and flat and flat[-1]["t"] == "lit":
                flat[-1] = lit(flat[-1]["v"] + q["v"])
            else:
                flat.append(q)
    if len(flat) == 1:
        return flat[0]
    return {"t": "cat", "p": flat}


def literal(node: Node | None) -> str | None:
    """The text of a fully literal node, else None."""
    if node is None:
        return None
    if node["t"] == "lit":
        value: str | None = node["v"]
        return value
    if node["t"] == "cat" and all(p["t"] == "lit" for p in node["p"]):
        return "".join(p["v"] for p in node["p"])
    return None


def items(node: Node | None) -> list[Node]:
    """The elements of a list/any node; a single node otherwise."""
    if node is None:
        return []
    if node["t"] in ("list", "any"):
        return list(node["v"])
    default = node.get("d") if node["t"] == "env" else None
    if isinstance(default, dict) and default.get("t") == "list":
        return list(default["v"])  # a list setting (``topics: list[str] = [...]``): its default's elements
    return [node]


#: node kinds a hint names by one of their fields, and that field
_NAMED_BY = {"lit": "v", "ref": "q", "ext": "q", "unk": "h", "param": "n", "cls": "n", "fn": "n", "mod": "p"}


def describe(node: Node | None, depth: int = 0) -> str:
    """A short human hint for a value that could not be folded."""
    if node is None or depth > 6:
        return "?"
    t: str = node["t"]
    if t in _NAMED_BY:
        named: str = node[_NAMED_BY[t]]
        return named
    if t == "env":
        variable: str = node["n"]
        return "${" + variable + "}"
    if t in ("call", "ret"):
        return describe(node["f"], depth + 1) + "()"
    if t == "inst":
        return describe(node["c"], depth + 1) + "()"
    if t in ("attr", "bm"):
        attribute: str = node["n"]
        return describe(node["o"], depth + 1) + "." + attribute
    if t == "idx":
        return describe(node["o"], depth + 1) + "[" + describe(node["i"], depth + 1) + "]"
    if t == "cat":
        return "".join(describe(p, depth + 1) for p in node["p"])
    return t


EMPTY_NODE: Node = lit("")
