"""Resolving value expressions (URLs, channels) through a service's configuration.

``Env`` parts are looked up in the service's environment (compose > k8s > helm > .env), then the
code's default; ``Prop`` parts through relaxed-bound env vars and the service's properties;
``${X:default}`` placeholders inside config values are expanded the same way. What cannot be
resolved stays visible in a readable form (``${PAYMENTS_URL}``, ``{client.base}``), never dropped.
When a part has several candidate values, the first combination naming a known service wins.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from attrs import frozen

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.service_config import ServiceConfig
from orbitkb.analysis.facts import Env, Expr, Lit, Prop, Unknown

MAX_COMBINATIONS = 16
_PLACEHOLDER = re.compile(r"\$\{([^{}:]+)(?::((?:[^{}]|\{[^{}]*\})*))?\}|\$\(([A-Za-z_][A-Za-z0-9_]*)\)")
_SENTINEL = re.compile("\x00(\\d+)\x00")


@frozen
class Option:
    text: str  # may contain sentinels for unresolved pieces
    evidence: tuple[ConfigValue, ...] = ()
    kind: str = "lit"  # lit | config | default | unresolved


class Sentinels:
    """Unresolved pieces: ``add(readable)`` returns a marker; ``readable(text)`` puts them back."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []  # (readable, kind: env | prop | unknown)

    def add(self, readable: str, kind: str) -> str:
        self.items.append((readable, kind))
        return f"\x00{len(self.items) - 1}\x00"

    def readable(self, text: str) -> str:
        return _SENTINEL.sub(lambda m: self.items[int(m.group(1))][0], text)

    def kinds(self, text: str) -> list[str]:
        return [self.items[int(i)][1] for i in _SENTINEL.findall(text)]


def has_sentinel(text: str) -> bool:
    return "\x00" in text


def _set(found: list[ConfigValue], name: str) -> list[ConfigValue]:
    """Values that set ``name`` here: ``DOCKER_HOST_IP: ${DOCKER_HOST_IP}`` in a compose file only
    passes the deploying shell's variable on, so the repository leaves it unset (its default holds)."""
    return [v for v in found if _bare(v.value) != name]


def _bare(value: str) -> str | None:
    match = _PLACEHOLDER.fullmatch(value.strip())
    if match is None or match.group(2) is not None:
        return None
    return (match.group(1) or match.group(3) or "").strip()


def expand(
    text: str, config: ServiceConfig, marks: Sentinels, depth: int = 0
) -> tuple[str, tuple[ConfigValue, ...]]:
    """Expand ``${X:default}`` and ``$(X)`` inside a config value (env first, then properties)."""
    evidence: list[ConfigValue] = []

    def repl(match: re.Match[str]) -> str:
        name = (match.group(1) or match.group(3) or "").strip()
        default = match.group(2)
        found = _set(config.env_candidates(name), name) or _set(config.prop_candidates(name), name)
        if found and depth < 4:
            value, more = expand(found[0].value, config, marks, depth + 1)
            evidence.append(found[0])
            evidence.extend(more)
            return value
        if default is not None:
            return expand(default, config, marks, depth + 1)[0] if depth < 4 else default
        return marks.add("${" + name + "}", "prop")

    if "$" not in text:
        return text, ()
    return _PLACEHOLDER.sub(repl, text), tuple(evidence)


def _options(part: object, config: ServiceConfig, marks: Sentinels) -> list[Option]:
    if isinstance(part, Lit):
        text, evidence = expand(part.text, config, marks) if "${" in part.text else (part.text, ())
        return [Option(text, evidence, "config" if evidence else "lit")]
    if isinstance(part, (Env, Prop)):
        found = _set(
            config.env_candidates(part.name) if isinstance(part, Env) else config.prop_candidates(part.key),
            part.name if isinstance(part, Env) else part.key,
        )
        options = []
        for value in found:
            text, more = expand(value.value, config, marks)
            options.append(Option(text, (value, *more), "config"))
        if part.default is not None:
            text, more = expand(part.default, config, marks)
            options.append(Option(text, more, "default"))
        if options:
            return options
        label = part.name if isinstance(part, Env) else part.key
        return [
            Option(
                marks.add("${" + label + "}", "env" if isinstance(part, Env) else "prop"), (), "unresolved"
            )
        ]
    hint = part.hint if isinstance(part, Unknown) else str(part)
    hint = " ".join(hint.split())
    return [Option(marks.add("{" + (hint[:48] or "?") + "}", "unknown"), (), "unresolved")]


@frozen
class Resolution:
    text: str  # with sentinels
    evidence: tuple[ConfigValue, ...]
    kinds: tuple[str, ...]  # the Option kind of each part


def resolve(
    expr: Expr, config: ServiceConfig, marks: Sentinels, accept: Callable[[str], bool] | None = None
) -> Resolution:
    """The first combination of candidate values that ``accept`` likes, else the first one."""
    per_part = [_options(p, config, marks) for p in expr.parts]
    first: Resolution | None = None
    for combo in itertools.islice(itertools.product(*per_part), MAX_COMBINATIONS):
        text = "".join(o.text for o in combo)
        evidence = tuple(ev for o in combo for ev in o.evidence)
        res = Resolution(text, evidence, tuple(o.kind for o in combo))
        if first is None:
            first = res
        if accept is None or accept(text):
            return res
    return first or Resolution("", (), ())
