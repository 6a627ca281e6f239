"""Default table/collection names, as each ORM computes them (Mongoose, TypeORM, Sequelize)."""

from __future__ import annotations

import re

# mongoose/lib/helpers/pluralize.js: the first matching rule wins, applied to the lowercased name.
_MONGOOSE_RULES = [
    (r"(m)an$", r"\1en"),
    (r"(pe)rson$", r"\1ople"),
    (r"(child)$", r"\1ren"),
    (r"^(ox)$", r"\1en"),
    (r"(ax|test)is$", r"\1es"),
    (r"(octop|vir)us$", r"\1i"),
    (r"(alias|status)$", r"\1es"),
    (r"(bu)s$", r"\1ses"),
    (r"(buffal|tomat|potat)o$", r"\1oes"),
    (r"([ti])um$", r"\1a"),
    (r"sis$", "ses"),
    (r"(?:([^f])fe|([lr])f)$", r"\1\2ves"),
    (r"(hive)$", r"\1s"),
    (r"([^aeiouy]|qu)y$", r"\1ies"),
    (r"(x|ch|ss|sh)$", r"\1es"),
    (r"(matr|vert|ind)ix|ex$", r"\1ices"),
    (r"([m|l])ouse$", r"\1ice"),
    (r"(kn|w|l)ife$", r"\1ives"),
    (r"(quiz)$", r"\1zes"),
    (r"s$", "s"),
    (r"([^a-z])$", r"\1"),
    (r"$", "s"),
]
_MONGOOSE_COMPILED = [(re.compile(p, re.IGNORECASE), r) for p, r in _MONGOOSE_RULES]
_UNCOUNTABLE = frozenset(
    "advice energy excretion digestion cooperation health justice labour machinery equipment "
    "information pollution sewage paper money species series rain rice fish sheep moose deer news "
    "expertise status media".split()
)


def mongoose_collection(model: str) -> str:
    name = model.lower()
    if name in _UNCOUNTABLE:
        return name
    for pattern, repl in _MONGOOSE_COMPILED:
        if pattern.search(name):
            return pattern.sub(repl, name, count=1) if pattern.pattern == "$" else pattern.sub(repl, name)
    return name


def snake_case(name: str) -> str:
    """TypeORM's DefaultNamingStrategy.tableName: `OrderItem` -> `order_item`."""
    out = re.sub(r"([a-z\d])([A-Z])", r"\1_\2", name)
    out = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", out)
    return out.lower()


def sequelize_table(model: str) -> str:
    """Sequelize pluralizes the model name (inflection), keeping its case: `Person` -> `People`."""
    plural = mongoose_collection(model)
    lower = model.lower()
    common = 0
    while common < min(len(lower), len(plural)) and lower[common] == plural[common]:
        common += 1
    return model[:common] + plural[common:]
