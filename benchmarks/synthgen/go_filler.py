"""Go filler: helper packages, struct types and table-driven tests (realistic bulk)."""

from __future__ import annotations

import random

from synthgen.emit import fields_for, pascal, prose
from synthgen.plan import ServicePlan
from synthgen.words import NOUNS, VERBS

GO_TYPES = {
    "amount": "float64",
    "quantity": "int",
    "total": "float64",
    "weight": "float64",
    "score": "float64",
    "priority": "int",
    "version": "int64",
    "active": "bool",
    "created_at": "time.Time",
    "updated_at": "time.Time",
    "due_date": "time.Time",
}


def _funcs(rng: random.Random, tag: str, count: int) -> list[str]:
    out = []
    for k in range(count):
        verb = rng.choice(VERBS)
        fields = fields_for(rng, rng.randint(2, 4))
        body = [
            f"// {pascal(verb)}{tag}{k} {verb}s {tag} records. {prose(rng)}",
            f"func {pascal(verb)}{tag}{k}(records []map[string]any, strict bool) ([]map[string]any, error) {{",
            "\tout := make([]map[string]any, 0, len(records))",
            "\tfor _, rec := range records {",
            "\t\tif rec == nil {",
            "\t\t\tcontinue",
            "\t\t}",
            "\t\titem := make(map[string]any, len(rec))",
            "\t\tfor k, v := range rec {",
            "\t\t\titem[k] = v",
            "\t\t}",
        ]
        for f in fields:
            if GO_TYPES.get(f, "string") in ("int", "int64", "float64"):
                body += [
                    f'\t\tif v, ok := item["{f}"].(float64); ok && strict && v < 0 {{',
                    f'\t\t\treturn nil, fmt.Errorf("{f} must not be negative: %v", v)',
                    "\t\t}",
                ]
            else:
                body.append(f'\t\titem["{f}"] = strings.TrimSpace(fmt.Sprint(item["{f}"]))')
        body += [
            "\t\tout = append(out, item)",
            "\t}",
            f'\tsort.Slice(out, func(i, j int) bool {{ return fmt.Sprint(out[i]["{fields[0]}"]) < fmt.Sprint(out[j]["{fields[0]}"]) }})',
            "\treturn out, nil",
            "}",
            "",
        ]
        out.append("\n".join(body))
    return out


def util():  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1]
        pkg = f"{tag.lower()}util"
        text = [
            f"// Package {pkg} holds helpers for {tag.lower()} records.",
            f"package {pkg}",
            "",
            "import (",
            '\t"fmt"',
            '\t"sort"',
            '\t"strings"',
            ")",
            "",
        ]
        text += _funcs(rng, tag, rng.randint(5, 9))
        return f"internal/{pkg}/helpers_{i}.go", "\n".join(text)

    return make


def types():  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1]
        text = ["package dto", "", 'import "time"', "", "var _ = time.Now", ""]
        for suffix in ("Request", "Response", "Summary"):
            text += [f"// {tag}{suffix}{i} {prose(rng, 1)}", f"type {tag}{suffix}{i} struct {{"]
            for f in fields_for(rng, rng.randint(6, 12)):
                text.append(f'\t{pascal(f)} {GO_TYPES.get(f, "string")} `json:"{f},omitempty"`')
            text += ["}", ""]
        return f"internal/dto/{tag.lower()}_{i}.go", "\n".join(text)

    return make


def test():  # noqa: ANN201
    def make(rng: random.Random, plan: ServicePlan, i: int) -> tuple[str, str]:
        tag = rng.choice(NOUNS)[1]
        text = [
            "package dto",
            "",
            'import "testing"',
            "",
            f"func Test{tag}{i}(t *testing.T) {{",
            "\tcases := []struct {",
            "\t\tname string",
            "\t\tin   int",
            "\t\twant int",
            "\t}{",
        ]
        for k in range(rng.randint(3, 7)):
            text.append(f'\t\t{{"case {k}", {k}, {k}}},')
        text += [
            "\t}",
            "\tfor _, tc := range cases {",
            "\t\tt.Run(tc.name, func(t *testing.T) {",
            "\t\t\tif tc.in != tc.want {",
            '\t\t\t\tt.Fatalf("got %d want %d", tc.in, tc.want)',
            "\t\t\t}",
            "\t\t})",
            "\t}",
            "}",
            "",
        ]
        return f"internal/dto/{tag.lower()}_{i}_test.go", "\n".join(text)

    return make
