"""consul-template renderings of proxy configs: the addresses a ``{{range service "x"}}`` block
writes are service x's, and a ``{{range services}}`` block is written once per service registered
with discovery. Renderings keep every line where it was, so routes keep their evidence lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from attrs import frozen

_ACTION = re.compile(r"\{\{-?\s*(.*?)\s*-?\}\}", re.S)
_OPENERS = ("range", "with", "if")
_MIDDLES = ("else",)
_SERVICE_ARG = re.compile(r'^(?:range|with)\s+(?:\$\w+\s*:?=\s*)?service\s+(?:"([^"]+)"|(\.Name))')
_ALL_SERVICES = re.compile(r"^range\s+(?:\$\w+\s*:?=\s*)?services\b")
_ENV = re.compile(r'^env\s+"([A-Za-z_][A-Za-z0-9_]*)"$')
_ADDRESS, _PORT = "\x00address\x00", "\x00port\x00"
_CONSUL = re.compile(r"\{\{-?\s*(?:range|with)\s+(?:\$\w+\s*:?=\s*)?services?\b")


def uses_discovery(text: str) -> bool:
    """Whether a config is a consul-template over Consul's service catalog."""
    return "{{" in text and _CONSUL.search(text) is not None


@frozen
class _Block:
    kind: str  # "services" | "service" | "other"
    arg: str | None  # the service a "service" block names ("" when it names the current one)
    head: tuple[int, int]  # the opening action's span
    body: tuple[int, int]
    tail: tuple[int, int]  # the closing {{end}}'s span (from a service range's {{else}} on)
    children: tuple[_Block, ...]


def render(text: str, registered: Sequence[str]) -> list[str]:
    """One rendering per registered service (a ``{{range services}}`` body written for it alone),
    or a single one when the template does not range over all services."""
    blocks = _parse(text)
    names: list[str | None] = [*registered] if _has_all(blocks) and registered else [None]
    out = []
    for name in names:
        rendered = _render(text, blocks, name, (0, len(text)))
        out.append(rendered.replace(_ADDRESS, "${TEMPLATE}").replace(_PORT, "${TEMPLATE}"))
    return out


def _has_all(blocks: Sequence[_Block]) -> bool:
    return any(b.kind == "services" or _has_all(b.children) for b in blocks)


def _parse(text: str) -> list[_Block]:
    root: list[_Block] = []
    stack: list[tuple[str, str | None, tuple[int, int], list[_Block], list[int]]] = []
    for m in _ACTION.finditer(text):
        action = m.group(1)
        word = action.split(None, 1)[0] if action else ""
        if word in _OPENERS:
            service = _SERVICE_ARG.match(action)
            if _ALL_SERVICES.match(action):
                kind, arg = "services", None
            elif service:
                kind, arg = "service", _service_name(service.group(1) or "")
            else:
                kind, arg = "other", None
            stack.append((kind, arg, m.span(), [], []))
        elif word == "else" and stack and stack[-1][0] != "other":
            stack[-1][4].append(m.start())  # what a service range writes when it has no instance
        elif word == "end" and stack:
            kind, arg, head, children, otherwise = stack.pop()
            end = otherwise[0] if otherwise else m.start()
            block = _Block(kind, arg, head, (head[1], end), (end, m.end()), tuple(children))
            (stack[-1][3] if stack else root).append(block)
    return root


def _service_name(arg: str) -> str:
    """``[tag.]name[@datacenter][~near]`` -> name."""
    return re.split(r"[@~|]", arg, maxsplit=1)[0].rsplit(".", 1)[-1]


def _blank(text: str) -> str:
    """The text's line breaks only: what a dropped part leaves so later lines keep their numbers."""
    return "\n" * text.count("\n")


def _render(
    text: str, blocks: Sequence[_Block], name: str | None, span: tuple[int, int]) -> str:
    out: list[str] = []
    pos = span[0]
    for b in (b for b in blocks if b.tail[1] <= span[1]):  # not those of a dropped {{else}}
        out.append(_actions(text[pos : b.head[0]], name))
        out.append(_blank(text[b.head[0] : b.head[1]]))
        if b.kind == "services" and name is None:
            out.append(_blank(text[b.body[0] : b.body[1]]))
        else:
            inner = name
            if b.kind == "service":
                inner = b.arg or name
            body = _render(text, b.children, inner, b.body)
            if b.kind == "service" and inner:
                body = _service_body(body, inner)
            out.append(body)
        out.append(_blank(text[b.tail[0] : b.tail[1]]))
        pos = b.tail[1]
    out.append(_actions(text[pos : span[1]], name))
    return "".join(out)


def _service_body(body: str, service: str) -> str:
    """Inside a service's range, its instances' address is the service's own name (and its port
    the one the service's own configuration names, so it is left out)."""
    for mark, value in ((_ADDRESS + ":" + _PORT, service), (":" + _PORT, ""), (_PORT, ""), (_ADDRESS, service)):
        body = body.replace(mark, value)
    return body


def _actions(chunk: str, name: str | None) -> str:
    """Value actions: ``.Name`` is the current service, ``env "X"`` an environment read; the
    address and port of an instance are marked for the enclosing service block."""

    def one(m: re.Match[str]) -> str:
        action = m.group(1)
        if action in (".Name", ".ID") and name:
            return name
        if action == ".Address":
            return _ADDRESS
        if action == ".Port":
            return _PORT
        env = _ENV.match(action)
        if env:
            return "${" + env.group(1) + "}"
        if action.split(None, 1)[:1] == ["else"]:
            return ""
        return "${TEMPLATE}"

    return _ACTION.sub(one, chunk)
