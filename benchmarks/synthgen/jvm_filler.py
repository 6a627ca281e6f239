"""Java filler: utility classes, DTOs, services and JUnit tests (realistic bulk)."""

from __future__ import annotations

import random

from synthgen.emit import camel, fields_for, pascal, prose
from synthgen.plan import ServicePlan
from synthgen.words import NOUNS, VERBS

JAVA_TYPES = {
    "amount": "BigDecimal",
    "quantity": "Integer",
    "total": "BigDecimal",
    "weight": "Double",
    "score": "Double",
    "priority": "Integer",
    "version": "Long",
    "active": "Boolean",
    "created_at": "Instant",
    "updated_at": "Instant",
    "due_date": "Instant",
}


def _methods(rng: random.Random, tag: str, count: int) -> list[str]:
    out = []
    for k in range(count):
        verb = rng.choice(VERBS)
        fields = fields_for(rng, rng.randint(2, 4))
        body = [
            "    /**",
            f"     * {verb.capitalize()} {tag} values. {prose(rng)}",
            "     */",
            f"    public static List<Map<String, Object>> {verb}{pascal(tag)}{k}(List<Map<String, Object>> records, boolean strict) {{",
            "        List<Map<String, Object>> result = new ArrayList<>();",
            "        for (Map<String, Object> record : records) {",
            "            if (record == null) {",
            "                continue;",
            "            }",
            "            Map<String, Object> item = new HashMap<>(record);",
        ]
        for f in fields:
            key = camel(f)
            if JAVA_TYPES.get(f) in ("Integer", "Long", "Double", "BigDecimal"):
                body += [
                    f'            Object {key} = item.getOrDefault("{key}", 0);',
                    f"            if (strict && {key} == null) {{",
                    f'                throw new IllegalArgumentException("{key} is required");',
                    "            }",
                ]
            else:
                body.append(
                    f'            item.put("{key}", String.valueOf(item.getOrDefault("{key}", "")).trim());'
                )
        body += [
            "            result.add(item);",
            "        }",
            f'        result.sort(Comparator.comparing(m -> String.valueOf(m.get("{camel(fields[0])}"))));',
            "        return result;",
            "    }",
            "",
        ]
        out.append("\n".join(body))
    return out


IMPORTS = "import java.util.ArrayList;\nimport java.util.Comparator;\nimport java.util.HashMap;\nimport java.util.List;\nimport java.util.Map;\n"


def util(pkg: str, src: str):  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1]
        cls = f"{tag}Support{i}"
        text = [
            f"package {pkg}.support;",
            "",
            IMPORTS,
            f"/** Helpers for {tag.lower()} records. */",
            f"public final class {cls} {{",
            "",
            f"    private {cls}() {{",
            "    }",
            "",
        ]
        text += _methods(rng, tag, rng.randint(4, 7))
        return f"{src}/support/{cls}.java", "\n".join(text) + "}\n"

    return make


def dto(pkg: str, src: str):  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1]
        cls = f"{tag}View{i}"
        fields = fields_for(rng, rng.randint(6, 12))
        text = [
            f"package {pkg}.dto;",
            "",
            "import java.math.BigDecimal;",
            "import java.time.Instant;",
            "",
            f"/** {prose(rng, 1)} */",
            f"public class {cls} {{",
            "",
        ]
        text += [f"    private {JAVA_TYPES.get(f, 'String')} {camel(f)};" for f in fields]
        text.append("")
        for f in fields:
            t, n = JAVA_TYPES.get(f, "String"), camel(f)
            text += [
                f"    public {t} get{pascal(f)}() {{",
                f"        return {n};",
                "    }",
                "",
                f"    public void set{pascal(f)}({t} {n}) {{",
                f"        this.{n} = {n};",
                "    }",
                "",
            ]
        return f"{src}/dto/{cls}.java", "\n".join(text) + "}\n"

    return make


def test(pkg: str):  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1]
        cls = f"{tag}Support{i}Test"
        text = [
            f"package {pkg}.support;",
            "",
            "import static org.junit.jupiter.api.Assertions.assertEquals;",
            "",
            "import java.util.List;",
            "import java.util.Map;",
            "import org.junit.jupiter.api.Test;",
            "",
            f"class {cls} {{",
            "",
        ]
        for k in range(rng.randint(3, 6)):
            f = camel(fields_for(rng, 1)[0])
            text += [
                "    @Test",
                f"    void keeps{pascal(f)}Stable{k}() {{",
                f'        List<Map<String, Object>> records = List.of(Map.of("{f}", {k}), Map.of("{f}", {k + 1}));',
                "        assertEquals(2, records.size());",
                "    }",
                "",
            ]
        return f"src/test/java/{pkg.replace('.', '/')}/support/{cls}.java", "\n".join(text) + "}\n"

    return make


def service(rng: random.Random, pkg: str, singular: str) -> str:
    text = [
        f"package {pkg}.service;",
        "",
        IMPORTS,
        "import org.springframework.stereotype.Service;",
        "",
        "@Service",
        f"public class {singular}Service {{",
        "",
        "    public Object handle(String action) {",
        '        return Map.of("action", action);',
        "    }",
        "",
    ]
    text += [m.replace("public static", "public") for m in _methods(rng, singular, rng.randint(1, 3))]
    return "\n".join(text) + "}\n"


def request(rng: random.Random, pkg: str, singular: str) -> str:
    fields = fields_for(rng, rng.randint(3, 7))
    comps = ", ".join(f"{JAVA_TYPES.get(f, 'String')} {camel(f)}" for f in fields)
    return (
        f"package {pkg}.dto;\n\nimport java.math.BigDecimal;\nimport java.time.Instant;\n\n"
        f"public record {singular}Request({comps}) {{\n}}\n"
    )
