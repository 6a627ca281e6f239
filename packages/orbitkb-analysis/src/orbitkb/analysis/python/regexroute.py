"""Regular-expression routes (Django ``re_path``/``url``, Tornado) as path templates: anchors
dropped, ``(?P<id>...)`` -> ``<id>``, an unnamed group -> ``<argN>``, a character class or ``\\d+``
outside a group -> ``<param>``, a trailing ``.*`` -> ``/**``, and alternatives (``(?:a|b)``,
optional groups) expanded into one template each, up to a small bound."""

from __future__ import annotations

_LIMIT = 8
_ANY = "\x01"  # one variable segment
_REST = "\x02"  # any number of segments
_CLASS_ESCAPES = frozenset("dDwWsS")
_EMPTY_ESCAPES = frozenset("AZbBz")


def templates(regex: str) -> list[str]:
    """The paths a route regex serves, written as templates (at most a few, in source order)."""
    parser = _Parser(regex)
    variants, _ = parser.alternatives(0)
    out: list[str] = []
    for v in variants:
        text = _render(v)
        if text not in out:
            out.append(text)
    return out[:_LIMIT]


def _product(left: list[str], right: list[str]) -> list[str]:
    return [a + b for a in left for b in right][:_LIMIT]


class _Parser:
    def __init__(self, text: str):
        self.s = text
        self.groups = 0

    def alternatives(self, i: int) -> tuple[list[str], int]:
        """Parse ``a|b|c`` up to a closing parenthesis or the end."""
        out: list[str] = []
        while True:
            seq, i = self.sequence(i)
            out.extend(x for x in seq if x not in out)
            if i < len(self.s) and self.s[i] == "|":
                i += 1
                continue
            return out[:_LIMIT], i

    def sequence(self, i: int) -> tuple[list[str], int]:
        acc = [""]
        s = self.s
        while i < len(s) and s[i] not in "|)":
            atom, i, is_group = self.atom(i)
            quant, i = _quantifier(s, i)
            if quant in ("?", "*") and not is_group and atom != [_ANY]:
                atom = [""]  # an optional character ("/?", "s?") is left out
            elif quant in ("?", "*") and is_group:
                atom = [*atom, ""] if "" not in atom else atom
            if atom == [_ANY] and quant in ("*", "+") and s[i - 2 : i] in (".*", ".+"):
                atom = [_REST]
            acc = _product(acc, atom)
        return acc, i

    def atom(self, i: int) -> tuple[list[str], int, bool]:
        s, c = self.s, self.s[i]
        if c == "(":
            return self.group(i)
        if c == "[":
            j = i + 1
            if j < len(s) and s[j] == "^":
                j += 1
            if j < len(s) and s[j] == "]":
                j += 1
            while j < len(s) and s[j] != "]":
                j += 2 if s[j] == "\\" else 1
            return [_ANY], j + 1, False
        if c == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            if nxt in _CLASS_ESCAPES:
                return [_ANY], i + 2, False
            if nxt in _EMPTY_ESCAPES:
                return [""], i + 2, False
            return [nxt], i + 2, False
        if c == ".":
            return [_ANY], i + 1, False
        if c in "^$":
            return [""], i + 1, False
        return [c], i + 1, False

    def group(self, i: int) -> tuple[list[str], int, bool]:
        s = self.s
        if s.startswith("(?P<", i):
            end = s.find(">", i)
            name = s[i + 4 : end] if end > 0 else "param"
            _, j = self.alternatives(end + 1 if end > 0 else i + 1)
            return [f"<{name}>"], j + 1, True
        if s.startswith("(?:", i):
            inner, j = self.alternatives(i + 3)
            return inner, j + 1, True
        if s.startswith("(?", i):  # lookaround, flags, comments: serve nothing themselves
            _, j = self.alternatives(i + 2)
            return [""], j + 1, False
        self.groups += 1
        number = self.groups
        _, j = self.alternatives(i + 1)
        return [f"<arg{number}>"], j + 1, True


def _quantifier(s: str, i: int) -> tuple[str, int]:
    if i >= len(s):
        return "", i
    c = s[i]
    if c in "?*+":
        i += 1
    elif c == "{":
        end = s.find("}", i)
        if end < 0:
            return "", i
        low = s[i + 1 : end].split(",")[0].strip()
        c, i = ("?" if low in ("", "0") else "+"), end + 1
    else:
        return "", i
    if i < len(s) and s[i] in "?+":  # lazy / possessive
        i += 1
    return c, i


def _render(text: str) -> str:
    segments = []
    for seg in text.split("/"):
        if _REST in seg:
            head = seg.split(_REST, 1)[0].replace(_ANY, "")
            segments.extend([head, "**"] if head else ["**"])
            break
        if _ANY in seg:
            stripped = seg.replace(_ANY, "")
            seg = stripped if "<" in stripped else "<param>"
        segments.append(seg)
    return "/".join(segments)
