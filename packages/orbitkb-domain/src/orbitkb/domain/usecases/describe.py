"""Progressive drill-down: list repositories -> list services -> describe a service -> list its
APIs -> describe one API; persistence and messaging in full detail on their own calls, so that
describe_service stays lean. Every service-level answer carries freshness."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from attrs import frozen
from cattrs.gen import make_dict_unstructure_fn, override

from orbitkb.domain.errors import ApiNotFound, InvalidInput
from orbitkb.domain.freshness import FreshnessProbe
from orbitkb.domain.model import Api, Direction, Evidence, Service
from orbitkb.domain.paths import path_key
from orbitkb.domain.ports import FactsReader, GitReader, KnowledgeStore, ModelReader
from orbitkb.domain.runs import ServiceIndexCost
from orbitkb.domain.serialization import converter
from orbitkb.domain.system_model import SystemModel
from orbitkb.domain.usecases._common import call_view, check_page, facts_of, find_service, labels_of, page
from orbitkb.domain.usecases.listing import ListServices as ListServices  # its own module: `list` stays light
from orbitkb.domain.views import (
    ApiDescription,
    ApiList,
    ApiListItem,
    ApiRef,
    ComponentRef,
    DescriptionPages,
    EntityFieldView,
    EntityRef,
    EntityView,
    IndexCost,
    MessageRef,
    MessagesView,
    MessageView,
    PersistenceView,
    RepositoryView,
    ServiceDescription,
    TechnologyRef,
)


@frozen
class ListRepositories:
    store: KnowledgeStore
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self) -> tuple[RepositoryView, ...]:
        probe = FreshnessProbe(self.git)
        facts = facts_of(self.store, self.models)
        services = facts.list_services()
        statuses = self.store.latest_index_statuses()  # one read for every repository
        out = []
        for repo in facts.list_repositories():
            names = tuple(sorted(s.name for s in services if s.repository == repo.name))
            out.append(RepositoryView(repo.name, repo.root_path, repo.vcs, len(names), names, probe.of(repo),
                                      statuses.get(repo.name)))
        return tuple(out)


@frozen
class DescribeService:
    store: KnowledgeStore
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self, name: str, limit: int | None = None, offset: int | None = None) -> ServiceDescription:
        limit, offset = check_page(limit, offset)
        facts = facts_of(self.store, self.models)
        svc, catalog = find_service(facts, name)
        apis = facts.list_apis(svc.id)
        calls = facts.list_calls(from_service_id=svc.id)
        comps = facts.list_components(svc.id)
        ents = facts.list_entities(svc.id)
        msgs = facts.list_messages(svc.id)
        inbound = facts.list_calls(to_service_id=svc.id)
        by_id = labels_of(facts, catalog)
        apis_by_id = {a.id: a for a in apis}
        call_views, p_calls = page([call_view(c, apis_by_id) for c in calls], limit, offset)
        api_refs, p_apis = page([ApiRef(a.method, a.path, a.summary or _first_line(a.doc), a.kind.value)
                                 for a in apis], limit, offset)
        comp_refs, p_comps = page([ComponentRef(c.name, c.file_path, c.summary or _first_line(c.doc))
                                   for c in comps], limit, offset)
        ent_refs, p_ents = page([EntityRef(e.name, e.kind, e.engine) for e in ents], limit, offset)
        # one line per channel and direction: several publish sites of one topic are one fact here
        unique_msgs = list({(m.direction.value, m.channel, m.provider): MessageRef(
            m.direction.value, m.channel, m.provider, m.description) for m in msgs}.values())
        msg_refs, p_msgs = page(unique_msgs, limit, offset)
        order = {"language": 0, "framework": 1, "build_tool": 2, "base_image": 3, "library": 4}
        techs = sorted(facts.list_technologies(svc.id), key=lambda t: (order.get(t.kind, 5), t.name))
        tech_refs, p_techs = page([TechnologyRef(t.kind, t.name, t.version, f"{t.evidence[0].file}:"
                                                 f"{t.evidence[0].start_line}" if t.evidence else None)
                                   for t in techs], limit, offset)
        repo = facts.get_repository(svc.repository)
        pagination = DescriptionPages(limit, offset, p_calls, p_apis, p_comps, p_ents, p_msgs, p_techs)
        return ServiceDescription(
            name=svc.name, repository=svc.repository, root_dir=svc.root_dir, stack=svc.stack,
            framework=svc.framework, aliases=svc.aliases, short_desc=svc.short_desc, long_desc=svc.long_desc,
            desc_provenance=svc.desc_provenance.value, calls=call_views, apis=api_refs, components=comp_refs,
            persists=ent_refs, messages=msg_refs,
            called_by=tuple(sorted({by_id.get(c.from_service_id, c.from_service_id) for c in inbound})),
            freshness=FreshnessProbe(self.git).of(repo), pagination=pagination, technologies=tech_refs,
            index_cost=index_cost(self._costs(facts, svc)),
        )

    def _costs(self, facts: FactsReader | SystemModel, svc: Service) -> Sequence[ServiceIndexCost]:
        """The service's index costs: read once per snapshot on a kept model (writing them moves
        the fingerprint), else one query."""
        if isinstance(facts, SystemModel):
            return facts.derived("index-costs", lambda: _by_service(self.store.list_index_costs())).get(svc.id, ())
        return self.store.list_index_costs(svc.repository, svc.id)


def index_cost(costs: Sequence[ServiceIndexCost]) -> IndexCost | None:
    """The LLM's index cost of one service over its runs; None when no run sent its units."""
    if not costs:
        return None

    def total(values: list[int | None] | list[float | None]) -> float | int | None:
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    return IndexCost(len({c.run_id for c in costs}), sum(c.llm_calls for c in costs),
                     total([c.input_tokens for c in costs]), total([c.output_tokens for c in costs]),  # type: ignore[arg-type]
                     total([c.cost_usd for c in costs]))


# an index cost only appears once the LLM described the service: offline answers stay as they were
converter.register_unstructure_hook(ServiceDescription, make_dict_unstructure_fn(
    ServiceDescription, converter, index_cost=override(omit_if_default=True)))


def _by_service(costs: list[ServiceIndexCost]) -> dict[str, tuple[ServiceIndexCost, ...]]:
    grouped: dict[str, list[ServiceIndexCost]] = {}
    for c in costs:
        grouped.setdefault(c.service_id, []).append(c)
    return {k: tuple(v) for k, v in grouped.items()}


@frozen
class ListApis:
    store: KnowledgeStore
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self, service: str, limit: int | None = None, offset: int | None = None) -> ApiList:
        limit, offset = check_page(limit, offset)
        facts = facts_of(self.store, self.models)
        svc, _ = find_service(facts, service)
        if isinstance(facts, SystemModel):  # the same list for every request of a snapshot
            items = facts.derived(f"api-list:{svc.id}", lambda: _api_items(facts, svc.id))
        else:
            items = _api_items(facts, svc.id)
        chunk, p = page(items, limit, offset)
        repo = facts.get_repository(svc.repository)
        return ApiList(svc.name, chunk, p.total, p.truncated, limit, offset, FreshnessProbe(self.git).of(repo))


def _api_items(facts: FactsReader, service_id: str) -> tuple[ApiListItem, ...]:
    comps = {c.id: c.name for c in facts.list_components(service_id)}
    return tuple(ApiListItem(a.method, a.path, a.handler, a.kind.value, a.summary or _first_line(a.doc),
                             comps.get(a.component_id or ""), a.file, a.start_line)
                 for a in facts.list_apis(service_id))


@frozen
class DescribeApi:
    store: KnowledgeStore
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self, service: str, method: str, path: str) -> ApiDescription:
        if not isinstance(method, str) or not isinstance(path, str) or not method or not path:
            raise InvalidInput("method and path are required")
        facts = facts_of(self.store, self.models)
        svc, _ = find_service(facts, service)
        apis = facts.list_apis(svc.id)
        # the same route in any parameter spelling; never another route that merely could match it
        key, verb = path_key(path), method.strip().upper()
        matches = [a for a in apis if path_key(a.path) == key and a.method.upper() in (verb, "ANY", "ALL", "*")]
        if not matches:
            close = _closest_apis(apis, verb, key)
            raise ApiNotFound(f"{svc.name} has no API {verb} {path}", close,
                              hint="closest APIs: " + ", ".join(close) if close else f"{svc.name} declares no API")
        api = matches[0]
        comps = {c.id: c.name for c in facts.list_components(svc.id)}
        # every call and message its handler reaches, also those other handlers reach too
        calls = [c for c in facts.list_calls(from_service_id=svc.id) if api.id in c.from_api_ids]
        msgs = [m for m in facts.list_messages(svc.id) if api.id in m.api_ids]
        repo = facts.get_repository(svc.repository)
        return ApiDescription(
            service=svc.name, method=api.method, path=api.path, handler=api.handler, kind=api.kind.value,
            component=comps.get(api.component_id or ""), channel=api.channel,
            summary=api.summary or _first_line(api.doc), description=api.description, doc=api.doc,
            summary_provenance=api.summary_provenance.value, request_shape=api.request_shape,
            response_shape=api.response_shape, calls=tuple(call_view(c) for c in calls),
            messages=tuple(MessageRef(m.direction.value, m.channel, m.provider, m.description) for m in msgs),
            validations=api.validations, evidence=api.evidence or _evidence_of(api),
            freshness=FreshnessProbe(self.git).of(repo),
            also_matching=tuple(f"{a.handler} ({a.file}:{a.start_line})" for a in matches[1:]),
        )


@frozen
class DescribePersistence:
    store: KnowledgeStore
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self, service: str, limit: int | None = None, offset: int | None = None) -> PersistenceView:
        limit, offset = check_page(limit, offset)
        facts = facts_of(self.store, self.models)
        svc, catalog = find_service(facts, service)
        names = labels_of(facts, catalog)
        everyone = facts.list_entities()
        views = []
        for e in (x for x in everyone if x.service_id == svc.id):
            shared = sorted({names.get(o.service_id, "?") for o in everyone
                             if o.service_id != svc.id and o.name.lower() == e.name.lower()
                             and (o.engine == e.engine or "unknown" in (o.engine, e.engine))})
            views.append(EntityView(e.name, e.kind, e.engine, e.class_name,
                                    tuple(EntityFieldView(f.name, f.type, f.nullable, f.primary_key) for f in e.fields),
                                    e.description, tuple(shared), e.provenance.value, e.evidence))
        chunk, p = page(views, limit, offset)
        repo = facts.get_repository(svc.repository)
        return PersistenceView(svc.name, chunk, p.total, p.truncated, limit, offset, FreshnessProbe(self.git).of(repo))


@frozen
class DescribeMessages:
    store: KnowledgeStore
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self, service: str, limit: int | None = None, offset: int | None = None) -> MessagesView:
        limit, offset = check_page(limit, offset)
        facts = facts_of(self.store, self.models)
        svc, catalog = find_service(facts, service)
        names = labels_of(facts, catalog)
        apis = {a.id: a.handler for a in facts.list_apis(svc.id)}
        views = []
        for m in facts.list_messages(svc.id):
            other = Direction.CONSUMES if m.direction == Direction.PUBLISHES else Direction.PUBLISHES
            peers = sorted({names.get(o.service_id, "?") for o in facts.list_messages(channel=m.channel)
                            if o.direction == other and o.service_id != svc.id})
            views.append(MessageView(m.direction.value, m.channel, m.provider, m.description, tuple(peers),
                                     apis.get(m.api_id or ""), m.provenance.value, m.evidence))
        chunk, p = page(views, limit, offset)
        repo = facts.get_repository(svc.repository)
        return MessagesView(svc.name, chunk, p.total, p.truncated, limit, offset, FreshnessProbe(self.git).of(repo))


def _closest_apis(apis: list[Api], verb: str, key: str, n: int = 5) -> tuple[str, ...]:
    """The service's APIs nearest to the one asked for: same route first, then by similarity."""
    wanted = f"{verb} {key}"

    def distance(a: Api) -> tuple[int, float, str]:
        same_route = path_key(a.path) == key
        ratio = difflib.SequenceMatcher(None, wanted, f"{a.method.upper()} {path_key(a.path)}").ratio()
        return (0 if same_route else 1, -ratio, f"{a.method} {a.path}")

    return tuple(dict.fromkeys(f"{a.method} {a.path}" for a in sorted(apis, key=distance)))[:n]


def _first_line(text: str | None) -> str | None:
    if not text:
        return None
    line = text.strip().splitlines()[0].strip()
    return line[:200] if line else None


def _evidence_of(api: Api) -> tuple[Evidence, ...]:
    return (Evidence(api.file, api.start_line, api.end_line),)
