"""GORM models: which structs are tables, the table name GORM derives, and their columns.

A struct is a model when it is passed to ``AutoMigrate``, has a ``TableName()`` method or embeds
``gorm.Model``, or when a model's association field holds it (``Tags []Tag``, ``Owner *User``):
GORM migrates and queries the associated struct's table too. Default names follow GORM's
NamingStrategy: snake_case, then pluralized as jinzhu/inflection does (``OrderItem`` ->
``order_items``, ``Category`` -> ``categories``).
"""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.golang.program import Program

_S1 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_S2 = re.compile(r"([a-z\d])([A-Z])")

_UNCOUNTABLE = frozenset(
    {"equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police"}
)
_IRREGULAR = {"person": "people", "man": "men", "child": "children", "sex": "sexes", "move": "moves"}
#: Most specific first; the first match wins.
_PLURAL: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(quiz)$"), r"\1zes"),
    (re.compile(r"^(ox)(en)?$"), r"\1en"),
    (re.compile(r"([ml])(ouse|ice)$"), r"\1ice"),
    (re.compile(r"(matr|vert|ind)(ix|ex)$"), r"\1ices"),
    (re.compile(r"(x|ch|ss|sh)$"), r"\1es"),
    (re.compile(r"([^aeiouy]|qu)y$"), r"\1ies"),
    (re.compile(r"(hive)$"), r"\1s"),
    (re.compile(r"(?:([^f])fe|([lr])f)$"), r"\1\2ves"),
    (re.compile(r"sis$"), "ses"),
    (re.compile(r"([ti])a$"), r"\1a"),
    (re.compile(r"([ti])um$"), r"\1a"),
    (re.compile(r"(buffal|tomat)o$"), r"\1oes"),
    (re.compile(r"(bu)s$"), r"\1ses"),
    (re.compile(r"(alias|status)$"), r"\1es"),
    (re.compile(r"(octop|vir)(us|i)$"), r"\1i"),
    (re.compile(r"^(ax|test)is$"), r"\1es"),
    (re.compile(r"s$"), "s"),
]


def snake(name: str) -> str:
    return _S2.sub(r"\1_\2", _S1.sub(r"\1_\2", name)).lower()


def plural(word: str) -> str:
    head, _, last = word.rpartition("_")
    prefix = head + "_" if head else ""
    if last in _UNCOUNTABLE:
        return word
    for singular, plural_form in _IRREGULAR.items():
        if last.endswith(singular):
            return prefix + last[: len(last) - len(singular)] + plural_form
    for pattern, repl in _PLURAL:
        if pattern.search(last):
            return prefix + pattern.sub(repl, last, count=1)
    return prefix + last + "s"


def table_name(struct_name: str) -> str:
    return plural(snake(struct_name))


def _gorm_tags(tag: str) -> dict[str, str]:
    m = re.search(r'gorm:"([^"]*)"', tag)
    out: dict[str, str] = {}
    if m:
        for item in m.group(1).split(";"):
            k, _, v = item.partition(":")
            if k.strip():
                out[k.strip().lower().replace("_", "")] = v.strip()
    return out


_MODEL_FIELDS = (
    ("id", "uint", False, True),
    ("created_at", "time.Time", None, False),
    ("updated_at", "time.Time", None, False),
    ("deleted_at", "gorm.DeletedAt", True, False),
)
_SCALAR_PREFIXES = (
    "time.",
    "sql.",
    "uuid.",
    "decimal.",
    "datatypes.",
    "gorm.",
    "pq.",
    "json.",
    "null.",
    "pgtype.",
)


def is_model(t: dict[str, Any]) -> bool:
    return any(not f[0] and f[1].lstrip("*").endswith("gorm.Model") for f in t["f"])


def columns(
    prog: Program, dir_: str, t: dict[str, Any], depth: int = 0
) -> list[tuple[str, str, bool | None, bool]]:
    out: list[tuple[str, str, bool | None, bool]] = []
    for name, typ, tag, _line in t["f"]:
        tags = _gorm_tags(tag)
        if "-" in tags:
            continue
        bare = typ.lstrip("*")
        if not name:
            if bare.endswith("gorm.Model"):
                out.extend(_MODEL_FIELDS)
            elif depth < 3:
                inner = prog.type_decl(dir_, bare.rsplit(".", 1)[-1])
                if inner is not None:
                    out.extend(columns(prog, dir_, inner[1], depth + 1))
            continue
        if not name[:1].isupper():
            continue
        if "embedded" in tags and depth < 3:
            inner = prog.type_decl(dir_, bare.rsplit(".", 1)[-1])
            if inner is not None:
                pre = tags.get("embeddedprefix", "")
                out.extend((pre + c, ty, n, pk) for c, ty, n, pk in columns(prog, dir_, inner[1], depth + 1))
            continue
        if _is_relation(prog, dir_, typ, tags):
            continue
        col = tags.get("column") or snake(name)
        pk = "primarykey" in tags
        nullable: bool | None = None
        if typ.startswith("*") or bare.startswith(("sql.Null", "null.")) or bare == "gorm.DeletedAt":
            nullable = True
        if "not null" in tags or "notnull" in tags or pk:
            nullable = False
        out.append((col, typ, nullable, pk))
    if depth == 0 and not any(c[3] for c in out):
        out = [(c, ty, False if c == "id" else n, c == "id") for c, ty, n, _pk in out]
    return out


def _is_relation(prog: Program, dir_: str, typ: str, tags: dict[str, str]) -> bool:
    if "serializer" in tags or "type" in tags:
        return False
    bare = typ.lstrip("*")
    if bare.startswith("[]"):
        return bare not in ("[]byte", "[]uint8")
    if bare.startswith("map["):
        return True
    if bare.startswith(_SCALAR_PREFIXES) or "." in bare:
        return False
    decl = prog.type_decl(dir_, bare)
    return decl is not None and decl[1]["k"] == "struct"


def associations(prog: Program, dir_: str, t: dict[str, Any]) -> list[tuple[str, str]]:
    """The structs a model's association fields hold, as (folder, name): ``[]Tag``, ``*User``,
    ``Items []*OrderItem``; never an embedded or serialized struct, nor a type that stores itself
    in one column (its own ``Value``/``Scan`` methods)."""
    out: list[tuple[str, str]] = []
    for name, typ, tag, _line in t["f"]:
        tags = _gorm_tags(tag)
        if not name or "-" in tags or "embedded" in tags or not _is_relation(prog, dir_, typ, tags):
            continue
        bare = typ.lstrip("*").removeprefix("[]").lstrip("*").rsplit(".", 1)[-1]
        found = prog.type_dir(dir_, bare)
        if found is None or prog.types[(found, bare)][1]["k"] != "struct":
            continue
        if (found, bare, "Value") in prog.funcs or (found, bare, "Scan") in prog.funcs:
            continue
        out.append((found, bare))
    return out


def explicit_table(prog: Program, dir_: str, name: str) -> str | None:
    """The literal a ``TableName()`` method returns."""
    found = prog.funcs.get((dir_, name, "TableName"))
    if found is None:
        return None
    for st in found[1]["b"]:
        if st[0] == "ret" and st[1] and st[1][0][0] == "s":
            return str(st[1][0][1])
    return None
