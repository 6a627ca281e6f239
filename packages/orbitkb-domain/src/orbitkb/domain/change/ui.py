"""Tasks about what users see ("show the shipping cost on the cart page") change the user-facing
service even when no word names it. Data, not code: the words that mark such a task and the names
that mark a user-facing service."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from orbitkb.domain.change.classify import Classified
from orbitkb.domain.model import Api, Service, ServiceCall, Technology
from orbitkb.domain.stacks import code_stacks
from orbitkb.domain.system_model import SystemModel
from orbitkb.domain.text import stem, words

UI_TASK_WORDS = frozenset(stem(w) for w in """page pages screen screens button buttons form forms ui ux view
    views template templates render display displayed show shown banner menu click clicks visible see
    layout css style styles theme dropdown modal tab tabs checkbox label labels link links""".split())
UI_SERVICE_WORDS = frozenset("""frontend front web webapp ui spa portal storefront website bff
    dashboard console client""".split())
UI_CONFIDENCE = 0.45
#: A service that passes requests on to this many other services routes them (a gateway, a proxy):
#: it is not the user-facing service, whatever its name says ("agent-portal-gateway").
ROUTES_TO = 2
#: Words of a technology's name that mark code serving pages: a front-end framework or a template
#: engine. Such a service is user-facing though its web server also routes the API paths to back ends.
PAGE_TECHNOLOGY_WORDS = frozenset("""react vue angular angularjs svelte preact ember backbone jquery next nuxt
    gatsby remix blazor thymeleaf jade pug ejs handlebars hbs mustache freemarker razor jinja2 twig""".split())
#: Languages of front-end code: served as files by a service with no API of its own (an SPA behind
#: nginx that proxies /api to the back ends), they make it user-facing.
FRONT_END_LANGUAGES = frozenset({"javascript", "typescript"})
_CODE_SUFFIXES = frozenset(code_stacks())
_PARAM = re.compile(r"\{[^}]*\}|:[A-Za-z_]\w*|<[^>]*>")


def is_ui_task(task: str) -> bool:
    return any(stem(w) in UI_TASK_WORDS for w in words(task, keep_stopwords=True))


def ui_services(services: Sequence[Service], routers: frozenset[str] = frozenset()) -> list[Service]:
    """Services whose name says they face users, except those that route requests (``routers``, ids)."""
    out = []
    for s in services:
        names = {w for n in (s.name, *s.aliases) for w in words(n, keep_stopwords=True)}
        if names & UI_SERVICE_WORDS and s.id not in routers:
            out.append(s)
    return out


def _suffix(file: str) -> str:
    name = file.rsplit("/", 1)[-1].lower()
    return name[name.rfind("."):] if "." in name else ""


def _path(path: str | None) -> str:
    return _PARAM.sub("{}", (path or "").lower()).rstrip("/")


def _forwards(call: ServiceCall, apis: dict[str, Api]) -> bool:
    """The call passes a request on: a route (the whole request, no method of its own, a wildcard
    path, or declared in a configuration file rather than made by code: ocelot.json, application.yml),
    or a call made from one of the service's own APIs to the path it serves ("GET /api/policies/{id}"
    calls "GET /policies/{id}")."""
    if not call.method or "*" in (call.path or ""):
        return True
    if call.evidence and _suffix(call.evidence[0].file) not in _CODE_SUFFIXES:
        return True
    called = _path(call.path)
    return bool(called) and any(a in apis and _path(apis[a].path).endswith(called) for a in call.from_api_ids)


def _serves_pages(apis: Sequence[Api], technologies: Sequence[Technology]) -> bool:
    """Front-end code of its own: a front-end framework or template engine, or JavaScript/TypeScript
    served as files (no API of its own)."""
    tech_words = {w for t in technologies for w in words(t.name, keep_stopwords=True)}
    if tech_words & PAGE_TECHNOLOGY_WORDS:
        return True
    languages = {t.name.lower() for t in technologies if t.kind == "language"}
    return not apis and bool(languages & FRONT_END_LANGUAGES)


def routing_services(calls: Iterable[ServiceCall], apis: Iterable[Api],
                     technologies: Iterable[Technology]) -> frozenset[str]:
    """Ids of the services whose facts say they route requests: they pass requests on to at least
    ``ROUTES_TO`` other services of the system (gateway routes, proxy calls) and serve no pages."""
    api_by_id = {a.id: a for a in apis}
    apis_of: dict[str, list[Api]] = {}
    for a in api_by_id.values():
        apis_of.setdefault(a.service_id, []).append(a)
    tech_of: dict[str, list[Technology]] = {}
    for t in technologies:
        tech_of.setdefault(t.service_id, []).append(t)
    reached: dict[str, set[str]] = {}
    for c in calls:
        if c.to_service_id and c.to_service_id != c.from_service_id and _forwards(c, api_by_id):
            reached.setdefault(c.from_service_id, set()).add(c.to_service_id)
    return frozenset(sid for sid, targets in reached.items() if len(targets) >= ROUTES_TO
                     and not _serves_pages(apis_of.get(sid, ()), tech_of.get(sid, ())))


def routers(model: SystemModel) -> frozenset[str]:
    """``routing_services`` of a snapshot, computed once."""
    return model.derived("ui:routers", lambda: routing_services(model.calls, model.apis, model.technologies))


def add_ui(task: str, findings: list[Classified], services: Sequence[Service],
           routing: frozenset[str] = frozenset()) -> list[Classified]:
    """Promote the user-facing service(s) to secondary for a UI task (never demote anything). A
    service in ``routing`` (ids: change/ui.routers) is a gateway, not a user-facing service."""
    if not is_ui_task(task):
        return findings
    ui = ui_services(services, routing)
    if not ui or len(ui) > 2:  # several candidates: the words cannot tell which one
        return findings
    chosen = {f.service for f in findings if f.tier in ("primary", "secondary")}
    out = [f for f in findings if f.service not in {s.name for s in ui} or f.service in chosen]
    for s in ui:
        if s.name not in chosen:
            out.append(Classified(s.name, "secondary", "the task is about what users see, and this is the "
                                  "user-facing service", UI_CONFIDENCE, ()))
    return out
