"""Tree-sitter plumbing for JavaScript/TypeScript: one parser per grammar, node text and doc helpers."""

from __future__ import annotations

import tree_sitter_typescript as _tsts
from tree_sitter import Language, Node, Parser

# The TypeScript grammar rejects JSX; the TSX grammar rejects `<T>x` casts. Plain .ts files get the
# former, everything that may hold JSX (tsx, js, jsx, mjs, cjs) the latter: both parse plain JS.
_TS = Language(_tsts.language_typescript())
_TSX = Language(_tsts.language_tsx())
_PARSERS: dict[str, Parser] = {}

FUNCTION_TYPES = frozenset(
    {
        "function_declaration",
        "function_expression",
        "arrow_function",
        "generator_function_declaration",
        "generator_function",
        "method_definition",
    }
)
CLASS_TYPES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
# Wrappers that do not change a value: `x as T`, `x!`, `(x)`, `x satisfies T`, `await x`.
TRANSPARENT = frozenset(
    {
        "parenthesized_expression",
        "as_expression",
        "non_null_expression",
        "satisfies_expression",
        "await_expression",
        "type_assertion",
    }
)


def parser_for(path: str) -> Parser:
    grammar = "ts" if path.endswith((".ts", ".mts", ".cts")) and not path.endswith(".d.ts") else "tsx"
    parser = _PARSERS.get(grammar)
    if parser is None:
        parser = Parser(_TS if grammar == "ts" else _TSX)
        _PARSERS[grammar] = parser
    return parser


def text(node: Node | None) -> str:
    if node is None:
        return ""
    raw = node.text
    return raw.decode("utf-8", "replace") if raw is not None else ""


def unwrap(node: Node | None) -> Node | None:
    while node is not None and node.type in TRANSPARENT:
        inner = [c for c in node.named_children if c.type != "comment"]
        node = inner[0] if inner else None
    return node


def string_value(node: Node | None) -> str | None:
    """The value of a plain string literal (or a template literal without substitutions)."""
    node = unwrap(node)
    if node is None:
        return None
    if node.type == "string":
        return "".join(
            text(c) for c in node.named_children if c.type in ("string_fragment", "escape_sequence")
        )
    if node.type == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            return None
        return text(node)[1:-1]
    return None


def dotted(node: Node | None) -> str | None:
    """`a.b.c` / `this.x` as text when the node is a plain member chain, else None."""
    node = unwrap(node)
    if node is None:
        return None
    if node.type in ("identifier", "this", "property_identifier", "type_identifier", "super"):
        return text(node)
    if node.type == "member_expression":
        obj = dotted(node.child_by_field_name("object"))
        prop = node.child_by_field_name("property")
        if obj is None or prop is None or prop.type == "private_property_identifier":
            return None
        return f"{obj}.{text(prop)}"
    return None


def args_of(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    if args is None:
        return []
    return [a for a in args.named_children if a.type != "comment"]


def lines(node: Node) -> tuple[int, int]:
    return node.start_point[0] + 1, node.end_point[0] + 1


def decorated_start(member: Node) -> int:
    """The line of the first decorator written before a member (the line that binds a route or a
    listener to its handler), else the member's own first line."""
    start = lines(member)[0]
    prev = member.prev_named_sibling
    while prev is not None and prev.type in ("decorator", "comment"):
        if prev.type == "decorator":
            start = lines(prev)[0]
        prev = prev.prev_named_sibling
    return start


def jsdoc(node: Node) -> str | None:
    """The `/** ... */` comment right above ``node`` (decorators and `export` in between allowed)."""
    target = node
    while target.parent is not None and target.parent.type in ("export_statement",):
        target = target.parent
    first_line = target.start_point[0]
    for dec in (c for c in target.children if c.type == "decorator"):
        first_line = min(first_line, dec.start_point[0])
    prev = target.prev_named_sibling
    # In a class body, method decorators are siblings placed before the method.
    while prev is not None and prev.type == "decorator":
        first_line = min(first_line, prev.start_point[0])
        prev = prev.prev_named_sibling
    if prev is None or prev.type != "comment":
        return None
    body = text(prev)
    if not body.startswith("/**") or first_line - prev.end_point[0] > 1:
        return None
    return clean_jsdoc(body)


def clean_jsdoc(body: str) -> str | None:
    inner = body[3:-2] if body.endswith("*/") else body[3:]
    out = []
    for line in inner.splitlines():
        stripped = line.strip()
        if stripped.startswith("*"):
            stripped = stripped[1:]
            if stripped.startswith(" "):
                stripped = stripped[1:]
        out.append(stripped.rstrip())
    doc = "\n".join(out).strip()
    return doc or None


def object_pairs(node: Node | None) -> dict[str, Node]:
    """Key -> value node of an object literal (`{a: 1, b}` -> {"a": <1>, "b": <b>})."""
    node = unwrap(node)
    out: dict[str, Node] = {}
    if node is None or node.type != "object":
        return out
    for child in node.named_children:
        if child.type == "pair":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is None or value is None:
                continue
            name = string_value(key) if key.type == "string" else text(key)
            if name:
                out[name] = value
        elif child.type == "shorthand_property_identifier":
            out[text(child)] = child
        elif child.type == "method_definition":
            name_node = child.child_by_field_name("name")
            if name_node is not None:
                out[text(name_node)] = child
    return out
