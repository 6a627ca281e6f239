"""YAML loading that keeps line numbers, so configuration values can be cited as evidence.

Mappings load as ``LDict`` and sequences as ``LList``: ordinary dict/list subclasses carrying the
1-based line of each key/item in ``.lines``. Scalars stay plain strings/ints/bools. The C loader
is used when PyYAML was built with libyaml (composing nodes is the expensive part).
"""

from __future__ import annotations

from typing import Any

import yaml

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Resolver = yaml.resolver.Resolver()


class LDict(dict[str, Any]):
    """A mapping whose ``lines[key]`` is the line the key was written on."""

    lines: dict[str, int]

    def line(self, key: str, default: int = 1) -> int:
        return self.lines.get(key, default)


class LList(list[Any]):
    """A sequence whose ``lines[i]`` is the line of item ``i``."""

    lines: list[int]

    def line(self, index: int, default: int = 1) -> int:
        return self.lines[index] if 0 <= index < len(self.lines) else default


def _scalar(node: yaml.ScalarNode) -> Any:
    if node.style:  # quoted or block scalars are always text
        return node.value
    tag = node.tag
    if tag == "tag:yaml.org,2002:int":
        try:
            return int(node.value, 0) if not node.value.startswith("0") or node.value == "0" else node.value
        except ValueError:
            return node.value
    if tag == "tag:yaml.org,2002:bool":
        return node.value.lower() in ("true", "yes", "on")
    if tag == "tag:yaml.org,2002:null":
        return None
    return node.value


MAX_NODES = 500_000  # aliases can expand a small file into billions of nodes ("billion laughs")


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_NODES

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise ValueError(f"more than {MAX_NODES} YAML nodes once aliases are expanded")


def _convert(node: yaml.Node, budget: _Budget, depth: int = 0) -> Any:
    budget.spend()
    if depth > 200:  # pathological nesting: stop rather than recurse forever
        return None
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    if isinstance(node, yaml.SequenceNode):
        seq = LList(_convert(item, budget, depth + 1) for item in node.value)
        seq.lines = [item.start_mark.line + 1 for item in node.value]
        return seq
    if isinstance(node, yaml.MappingNode):
        out = LDict()
        out.lines = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" and isinstance(value_node, yaml.MappingNode):
                merged = _convert(value_node, budget, depth + 1)
                for k, v in merged.items():
                    out.setdefault(k, v)
                    out.lines.setdefault(k, merged.lines.get(k, key_node.start_mark.line + 1))
                continue
            # keys stay as written ("on", "8080"), never YAML 1.1 booleans or numbers
            key = (
                key_node.value
                if isinstance(key_node, yaml.ScalarNode)
                else str(_convert(key_node, budget, depth + 1))
            )
            out[key] = _convert(value_node, budget, depth + 1)
            out.lines[key] = key_node.start_mark.line + 1
        return out
    return None


def load_all(text: str) -> list[Any]:
    """Every document of ``text`` (empty documents dropped). Raises yaml.YAMLError on bad YAML."""
    docs = []
    budget = _Budget()
    for node in yaml.compose_all(text, Loader=_Loader):
        if node is not None:
            docs.append(_convert(node, budget))
    return docs


def line_of(container: Any, key: Any, default: int = 1) -> int:
    """The line of ``key`` in an LDict/LList, ``default`` for anything else."""
    lines = getattr(container, "lines", None)
    if lines is None:
        return default
    if isinstance(container, LList):
        return container.line(key, default) if isinstance(key, int) else default
    return lines.get(key, default) if isinstance(lines, dict) else default
