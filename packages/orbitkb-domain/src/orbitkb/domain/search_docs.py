"""What is searchable: one SearchDocument per service, component, API, call, message, entity and
technology, plus one per service holding the vocabulary of its source (and one holding the words
of its commit history), with names split into
words (camelCase, snake_case, path segments) so that business words match."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from orbitkb.domain.model import ServiceFacts
from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.text import keywords


def documents_for(facts: Iterable[ServiceFacts]) -> list[SearchDocument]:
    return list(iter_documents(facts))


def iter_documents(facts: Iterable[ServiceFacts]) -> Iterator[SearchDocument]:
    """The documents of ``documents_for``, in its order, one service's at a time (indexing hands
    them to the writer as they are built, so a big repository's are never all held)."""
    for f in facts:
        yield from _service_documents(f)


def _service_documents(f: ServiceFacts) -> list[SearchDocument]:
    docs: list[SearchDocument] = []
    s = f.service
    sid, sname = s.id, s.name

    def doc(kind: str, ref: str, name: str, kw: str, text: str, sid: str = sid, sname: str = sname) -> None:
        docs.append(SearchDocument(kind, ref, sid, sname, name, keywords(name), kw, text))

    doc(
        "service",
        sid,
        " ".join([s.name, *s.aliases]),
        keywords(s.framework, s.stack, *(c.name for c in f.components)),
        # author text and LLM descriptions only: the offline summary restates other services'
        # names and boilerplate, which would make every service match every task
        _service_text(s.short_desc, s.long_desc, s.readme) if s.desc_provenance.value == "llm" else (s.readme or ""),
    )
    for c in f.components:
        doc("component", c.id, c.name, keywords(c.file_path), " ".join(x for x in (c.doc, c.summary) if x))
    for a in f.apis:
        doc(
            "api",
            a.id,
            f"{a.method} {a.path}",
            keywords(a.handler, a.channel),
            # field names are weak evidence (every DTO has an id and a name): lowest-weight column
            " ".join(x for x in (a.doc, a.summary, a.description,
                                 keywords(" ".join(f.field for f in (*a.request_shape, *a.response_shape))))
                     if x),
        )
    for call in f.calls:
        doc(
            "call",
            call.id,
            call.target,
            keywords(call.path, call.call_kind.value, call.method),
            " ".join(x for x in (call.reason, " ".join(call.data_needed)) if x),
        )
    for m in f.messages:
        doc("message", m.id, m.channel, keywords(m.direction.value, m.provider), m.description or "")
    for t in f.technologies:
        # "org.projectlombok:lombok" -> words org projectlombok lombok; the kind and version help
        # a task that says "logging library" or "java 17"
        doc("technology", t.id, t.name, keywords(t.kind.replace("_", " "), t.version), "")
    if f.vocabulary:
        # the words of the service's own source: the lowest-weight evidence there is
        doc("source", f"{sid}#source", s.name, "", " ".join(f.vocabulary))
    if f.history:
        # the words of the commit messages that changed it: how people describe its changes
        doc("history", f"{sid}#history", s.name, "", " ".join(f.history))
    for e in f.entities:
        doc(
            "entity",
            e.id,
            " ".join(x for x in (e.name, e.class_name) if x),
            keywords(e.engine, e.kind, " ".join(fl.name for fl in e.fields)),
            e.description or "",
        )
    return docs


def _service_text(short: str | None, long: str | None, readme: str | None) -> str:
    parts: list[str] = []
    for text in (long, short, readme):
        if text and not any(text in p for p in parts):
            parts.append(text)
    return " ".join(parts)

