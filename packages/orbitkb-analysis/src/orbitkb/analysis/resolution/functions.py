"""Spring Cloud Function definitions: functions composed with `|` are bound as one function.

`spring.cloud.function.definition: pack|label` makes one function `packlabel`, bound as
`packlabel-in-0` (what `pack` takes) and `packlabel-out-0` (what `label` returns); the bindings of
the parts inside the composition (`pack-out-0`, `label-in-0`) are no channel at all: the value
goes from one function to the next in memory. Several definitions are separated by `;`.
"""

from __future__ import annotations

import re

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.service_config import ServiceConfig

DEFINITION = "spring.cloud.function.definition"
_BINDING = re.compile(r"(?P<name>.+)-(?P<way>in|out)-(?P<index>\d+)")


def composed_binding(binding: str, config: ServiceConfig) -> tuple[str, ConfigValue] | None:
    """(the binding ``binding`` stands for, the definition saying so) when a composition holds
    its function: the composed binding for the first function's input and the last one's output,
    "" for a binding inside the composition; None when no composition names the function."""
    found = _BINDING.fullmatch(binding)
    definitions = config.prop_candidates(DEFINITION)[:1]
    if found is None or not definitions:
        return None
    name, way, index = found["name"], found["way"], found["index"]
    for definition in re.split(r"[;,]", definitions[0].value):
        parts = [p.strip() for p in definition.split("|") if p.strip()]
        if len(parts) < 2 or name not in parts:
            continue
        end = parts[0] if way == "in" else parts[-1]
        return (f"{''.join(parts)}-{way}-{index}" if name == end else ""), definitions[0]
    return None
