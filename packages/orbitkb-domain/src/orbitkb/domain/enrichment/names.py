"""The name filter: an LLM may only point at an indexed service or a known external vendor.

Anything else it names (an invented ``fraud-service``, a host planted in a code comment) is
dropped before it can reach the knowledge model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

from orbitkb.domain.model import ResourceType, Service, TargetKind
from orbitkb.domain.text import normalize_name

#: Vendor token -> resource type. A target matches when the token is one of its host labels or
#: its whole normalized name ("api.stripe.com", "Stripe", "stripe-api").
KNOWN_VENDORS: dict[str, ResourceType] = {
    "stripe": ResourceType.SAAS,
    "paypal": ResourceType.SAAS,
    "braintreegateway": ResourceType.SAAS,
    "adyen": ResourceType.SAAS,
    "twilio": ResourceType.SAAS,
    "sendgrid": ResourceType.SAAS,
    "mailgun": ResourceType.SAAS,
    "postmarkapp": ResourceType.SAAS,
    "slack": ResourceType.SAAS,
    "github": ResourceType.SAAS,
    "auth0": ResourceType.SAAS,
    "okta": ResourceType.SAAS,
    "openai": ResourceType.SAAS,
    "anthropic": ResourceType.SAAS,
    "segment": ResourceType.SAAS,
    "sentry": ResourceType.SAAS,
    "datadoghq": ResourceType.SAAS,
    "algolia": ResourceType.SAAS,
    "shopify": ResourceType.SAAS,
    "salesforce": ResourceType.SAAS,
    "zendesk": ResourceType.SAAS,
    "hubapi": ResourceType.SAAS,
    "pagerduty": ResourceType.SAAS,
    "mapbox": ResourceType.SAAS,
    "cloudinary": ResourceType.STORAGE,
    "s3": ResourceType.STORAGE,
    "sqs": ResourceType.QUEUE,
    "sns": ResourceType.QUEUE,
    "dynamodb": ResourceType.DB_MANAGED,
    "firestore": ResourceType.DB_MANAGED,
    "firebaseio": ResourceType.DB_MANAGED,
    "googleapis": ResourceType.SAAS,
    "amazonaws": ResourceType.OTHER,
}

_CLUSTER_SUFFIXES = (".svc.cluster.local", ".cluster.local", ".svc", ".local", ".internal")


@frozen
class Resolved:
    target: str
    target_kind: TargetKind
    to_service_id: str | None = None
    resource_type: ResourceType = ResourceType.NOT_APPLICABLE


class NameFilter:
    """Resolves a name returned by an LLM against indexed services and known externals."""

    def __init__(self, services: Sequence[Service], known_externals: Iterable[str] = ()) -> None:
        self._services: dict[str, Service] = {}
        for s in sorted(services, key=lambda s: s.id):
            for name in (s.name, *s.aliases):
                self._services.setdefault(normalize_name(name), s)
        self._externals = {t.lower().strip() for t in known_externals if t and t.strip()}

    def resolve(self, target: str) -> Resolved | None:
        raw = (target or "").strip()
        if not raw or len(raw) > 200:
            return None
        host = _host(raw)
        service = self._services.get(normalize_name(host))
        if service is None and host.endswith(_CLUSTER_SUFFIXES):
            # "orders.default.svc.cluster.local" names the orders service; a public host does not.
            service = self._services.get(normalize_name(host.split(".", 1)[0]))
        if service is not None:
            return Resolved(service.name, TargetKind.INTERNAL, service.id)
        vendor = _vendor_type(host)
        if host in self._externals or raw.lower() in self._externals:
            return Resolved(host, TargetKind.EXTERNAL, None, vendor or ResourceType.OTHER)
        if vendor is not None:
            return Resolved(host, TargetKind.EXTERNAL, None, vendor)
        return None


def _host(raw: str) -> str:
    """'https://api.stripe.com:443/v1/x' -> 'api.stripe.com'; 'orders-service' unchanged."""
    text = raw.lower().split("://", 1)[-1]
    text = text.split("/", 1)[0].split("?", 1)[0]
    return text.rsplit("@", 1)[-1].split(":", 1)[0]


def _vendor_type(host: str) -> ResourceType | None:
    """A vendor when its token is a dot-separated label of the host or the whole normalized name."""
    for label in (*host.split("."), normalize_name(host)):
        if label in KNOWN_VENDORS:
            return KNOWN_VENDORS[label]
    return None
