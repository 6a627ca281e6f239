"""Shared pieces of the read use cases: service lookup, call views (pagination rules: ``paging``)."""

from __future__ import annotations

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog, qualified_names
from orbitkb.domain.errors import EmptyKnowledgeBase, InvalidInput
from orbitkb.domain.model import Api, Service, ServiceCall
from orbitkb.domain.paging import check_page as check_page  # re-exported: the read use cases import it here
from orbitkb.domain.paging import page as page
from orbitkb.domain.ports import FactsReader, ModelReader
from orbitkb.domain.system_model import SystemModel
from orbitkb.domain.views import CallView


def facts_of(store: FactsReader, models: ModelReader | None = None) -> FactsReader | SystemModel:
    """Where a read use case reads its facts: the SystemModel of the process's load-once reader
    (``models``) when it has one, else the store itself, one query per question."""
    return models.load_model() if models is not None else store


def graph_of(facts: FactsReader | SystemModel) -> SystemGraph:
    """The service graph: built once per snapshot on a SystemModel, else from the store's facts."""
    return facts.graph if isinstance(facts, SystemModel) else SystemGraph.load(facts)


def labels_of(facts: FactsReader | SystemModel, catalog: ServiceCatalog) -> dict[str, str]:
    """Service id -> the name to show (``qualified_names``), kept by a SystemModel."""
    return facts.labels if isinstance(facts, SystemModel) else qualified_names(catalog.services)


def catalog_of(facts: FactsReader | SystemModel) -> ServiceCatalog:
    if isinstance(facts, SystemModel):
        if facts.is_empty:
            raise EmptyKnowledgeBase("the knowledge base is empty")
        return facts.catalog
    services = facts.list_services()
    if not services:
        raise EmptyKnowledgeBase("the knowledge base is empty")
    return ServiceCatalog(services)


def find_service(facts: FactsReader | SystemModel, name: str) -> tuple[Service, ServiceCatalog]:
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("a service name is required")
    catalog = catalog_of(facts)
    return catalog.lookup(name), catalog


def call_view(call: ServiceCall, apis_by_id: dict[str, Api] | None = None) -> CallView:
    api = apis_by_id.get(call.from_api_id) if apis_by_id and call.from_api_id else None
    return CallView(
        to_service_name=call.target,
        call_kind=call.call_kind.value,
        reason=call.reason,
        data_needed=call.data_needed,
        purpose_kind=call.purpose_kind.value,
        target_kind=call.target_kind.value,
        resource_type=call.resource_type.value,
        confidence=call.confidence,
        provenance=call.provenance.value,
        method=call.method,
        path=call.path,
        from_api=f"{api.method} {api.path}" if api else None,
        evidence=call.evidence,
    )
