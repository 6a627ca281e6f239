"""The semantic layer: LLM descriptions of endpoints, components, services, persistence and
messaging, generated bottom-up from the facts, schema-validated and content-hash cached."""

from orbitkb.domain.enrichment.enrich import EnrichKnowledge
from orbitkb.domain.enrichment.names import KNOWN_VENDORS, NameFilter
from orbitkb.domain.enrichment.prompts import PROMPT_VERSIONS
from orbitkb.domain.enrichment.results import EnrichRequest, EnrichResult, ServiceCost, UnitOutcome
from orbitkb.domain.enrichment.validate import validate

__all__ = [
    "KNOWN_VENDORS",
    "PROMPT_VERSIONS",
    "EnrichKnowledge",
    "EnrichRequest",
    "EnrichResult",
    "NameFilter",
    "ServiceCost",
    "UnitOutcome",
    "validate",
]
