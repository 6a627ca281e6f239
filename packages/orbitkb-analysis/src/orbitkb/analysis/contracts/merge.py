"""A service's API documents merged with its code: the code wins, the documents fill what it does
not show, and every disagreement is a ``contract_drift`` gap.

An operation documented but not served (or served but not documented) is only a disagreement when
the code shows HTTP APIs at all: a service whose code we cannot read has nothing to contradict its
document. The same holds for channels and the messages the code publishes and consumes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from orbitkb.analysis.contracts import documents
from orbitkb.analysis.contracts.asyncapi import asyncapi_messages
from orbitkb.analysis.contracts.openapi import FRAMEWORK, openapi_apis
from orbitkb.analysis.facts import Env, LinkedFacts, Lit, Prop, RawApi, RawMessage
from orbitkb.domain.model import Gap

KIND = "contract_drift"
MAX_PREFIX = 2  # leading segments one side may add (a context path, a server prefix)
MAX_DRIFT = 50  # drift gaps reported per service


@attrs.frozen
class Contract:
    """What a service's documents declare."""

    files: tuple[str, ...] = ()
    apis: tuple[RawApi, ...] = ()
    messages: tuple[RawMessage, ...] = ()
    errors: tuple[tuple[str, str], ...] = ()  # (file, reason)


def read_contract(owned: Iterable[str], texts: Mapping[str, str]) -> Contract:
    files, apis, messages, errors = [], [], [], []
    for path in sorted(owned):
        text = texts.get(path)
        kind = documents.kind_of(path, text) if text is not None else None
        if kind is None or text is None:
            continue
        root, error = documents.load(text)
        if root is None:
            errors.append((path, error or "unreadable"))
            continue
        files.append(path)
        if kind == "openapi":
            apis.extend(openapi_apis(path, root))
        else:
            messages.extend(asyncapi_messages(path, root))
    return Contract(tuple(files), tuple(apis), tuple(messages), tuple(errors))


def _segments(path: str) -> list[str]:
    return [s for s in path.split("?", 1)[0].split("/") if s]


def _param(segment: str) -> bool:
    return segment[:1] in "{:<*(" or segment == "**"


def same_route(a: str, b: str) -> bool:
    """Paths equal segment by segment (any parameter spelling matches any segment), one side
    allowed up to ``MAX_PREFIX`` extra leading segments."""
    x, y = _segments(a), _segments(b)
    if len(x) < len(y):
        x, y = y, x
    if len(x) - len(y) > MAX_PREFIX or (not y and x):
        return False
    tail = x[len(x) - len(y) :]
    return all(p == q or _param(p) or _param(q) for p, q in zip(tail, y))


def _same_method(a: str, b: str) -> bool:
    return a.upper() == b.upper() or a.upper() in ("ANY", "ALL", "*") or b.upper() in ("ANY", "ALL", "*")


def _channel_names(message: RawMessage) -> set[str]:
    """The names a code channel may stand for: its literal text, else its defaults and keys."""
    literal = message.channel.literal()
    if literal is not None:
        return {literal}
    names = {"".join(p.text for p in message.channel.parts if isinstance(p, Lit))}
    for part in message.channel.parts:
        if isinstance(part, (Env, Prop)):
            names |= {n for n in (part.default, getattr(part, "name", None), getattr(part, "key", None)) if n}
    return names - {""}


def merge(repository: str, facts: LinkedFacts, contract: Contract) -> tuple[LinkedFacts, list[Gap]]:
    gaps = [Gap(repository, path, "parse_error", reason) for path, reason in contract.errors]
    if not contract.files:
        return facts, gaps
    code_apis = [a for a in facts.apis if a.kind == "http" and a.framework != FRAMEWORK]
    documented = ", ".join(contract.files)
    added_apis: list[RawApi] = []
    for doc in contract.apis:
        served = [a for a in code_apis if _same_method(a.method, doc.method) and same_route(a.path, doc.path)]
        if served:
            continue
        added_apis.append(doc)
        if code_apis:
            gaps.append(Gap(repository, doc.file, KIND,
                            f"{doc.method} {doc.path} documented at line {doc.start_line} but not served by the code"))  # fmt: skip
    if contract.apis:
        for api in code_apis:
            if not any(_same_method(api.method, d.method) and same_route(api.path, d.path) for d in contract.apis):
                gaps.append(Gap(repository, api.file, KIND,
                                f"{api.method} {api.path} served at line {api.start_line} but not documented in {documented}"))  # fmt: skip
    code_messages = [m for m in facts.messages if m.client != "asyncapi"]
    added_messages = _merge_messages(repository, code_messages, contract.messages, documented, gaps)
    merged = attrs.evolve(
        facts, apis=(*facts.apis, *added_apis), messages=(*facts.messages, *added_messages)
    )
    return merged, _bounded(repository, gaps, documented)


def _bounded(repository: str, gaps: list[Gap], documented: str) -> list[Gap]:
    """At most ``MAX_DRIFT`` drift gaps per service, then one saying how many more there were."""
    drift = [g for g in gaps if g.kind == KIND]
    if len(drift) <= MAX_DRIFT:
        return gaps
    kept = [g for g in gaps if g.kind != KIND] + drift[:MAX_DRIFT]
    more = len(drift) - MAX_DRIFT
    return [*kept, Gap(repository, documented.split(", ")[0], KIND, f"{more} more disagreements with {documented}")]


def _merge_messages(
    repository: str, code: Sequence[RawMessage], docs: Sequence[RawMessage], documented: str, gaps: list[Gap]
) -> list[RawMessage]:
    added: list[RawMessage] = []
    for doc in docs:
        name = doc.channel.literal() or ""
        if any(m.direction == doc.direction and name in _channel_names(m) for m in code):
            continue
        added.append(doc)
        if code:
            gaps.append(Gap(repository, doc.file, KIND,
                            f"{doc.direction} {name} documented at line {doc.line} but not seen in the code"))  # fmt: skip
    if docs:
        declared = {(d.direction, d.channel.literal() or "") for d in docs}
        for m in code:
            literal = m.channel.literal()
            if literal is not None and (m.direction, literal) not in declared:
                gaps.append(Gap(repository, m.file, KIND,
                                f"{m.direction} {literal} at line {m.line} but not documented in {documented}"))  # fmt: skip
    return added
