"""English inflection for ORM naming conventions: ``OrderItem`` -> ``order_items`` (Rails, Eloquent)."""

from __future__ import annotations

import re

#: Irregular plurals the ORMs' inflectors know; anything else follows the suffix rules below.
IRREGULAR = {"person": "people", "man": "men", "woman": "women", "child": "children", "mouse": "mice",
             "foot": "feet", "tooth": "teeth", "goose": "geese", "ox": "oxen", "datum": "data"}  # fmt: skip
#: Words with no plural form.
UNCOUNTABLE = frozenset({"equipment", "information", "rice", "money", "species", "series", "fish", "sheep",
                         "news", "data", "metadata", "feedback", "inventory", "stock"})  # fmt: skip
#: (suffix pattern, replacement), first match wins.
RULES = (
    (r"(quiz)$", r"\1zes"),
    (r"(matr|vert|ind)(?:ix|ex)$", r"\1ices"),
    (r"(x|ch|ss|sh|s|z)$", r"\1es"),
    (r"([^aeiouy]|qu)y$", r"\1ies"),
    (r"(?:([^f])fe|([lr])f)$", r"\1\2ves"),
    (r"(bu)s$", r"\1ses"),
    (r"(octop|vir)us$", r"\1i"),
    (r"(ax|test)is$", r"\1es"),
    (r"$", "s"),
)


def snake(name: str) -> str:
    """``OrderItem`` -> ``order_item``; ``HTTPLog`` -> ``http_log``."""
    out = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z\d])([A-Z])", r"\1_\2", out).replace("-", "_").lower()


def pluralize(word: str) -> str:
    """The plural of the last ``_``-separated word: ``order_item`` -> ``order_items``."""
    head, _, last = word.rpartition("_")
    if not last or last in UNCOUNTABLE:
        return word
    if last in IRREGULAR:
        plural = IRREGULAR[last]
    else:
        plural = last
        for pattern, repl in RULES:
            if re.search(pattern, last):
                plural = re.sub(pattern, repl, last, count=1)
                break
    return f"{head}_{plural}" if head else plural


def singularize(word: str) -> str:
    """Best-effort inverse of ``pluralize`` for resource names: ``products`` -> ``product``."""
    for singular, plural in IRREGULAR.items():
        if word.endswith(plural):
            return word[: -len(plural)] + singular
    if word in UNCOUNTABLE:
        return word
    for pattern, repl in ((r"ies$", "y"), (r"(x|ch|ss|sh|z)es$", r"\1"), (r"ses$", "s"), (r"s$", "")):
        if re.search(pattern, word) and not word.endswith("ss"):
            return re.sub(pattern, repl, word, count=1)
    return word


def table_name(class_name: str) -> str:
    """The table an ORM names after a class by convention: ``OrderItem`` -> ``order_items``."""
    return pluralize(snake(class_name))
