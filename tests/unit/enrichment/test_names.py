"""The name filter: indexed services (by name, alias, cluster DNS) and known vendors only."""

from __future__ import annotations

import pytest

from orbitkb.domain.enrichment import NameFilter
from orbitkb.domain.model import ResourceType, TargetKind

from .conftest import INVENTORY, ORDERS, PAYMENTS

NAMES = NameFilter([ORDERS, PAYMENTS, INVENTORY], known_externals=["ledger.partner.example"])


@pytest.mark.parametrize(
    ("target", "service"),
    [
        ("payments-service", PAYMENTS),
        ("Payments Service", PAYMENTS),
        ("payments", PAYMENTS),  # the usual suffix dropped
        ("http://payments-service:8080/charge", PAYMENTS),
        ("stock", INVENTORY),  # an alias
        ("inventory-service.shop.svc.cluster.local", INVENTORY),
    ],
)
def test_indexed_services_resolve_internal(target: str, service: object) -> None:
    got = NAMES.resolve(target)
    assert got is not None and got.target_kind == TargetKind.INTERNAL and got.to_service_id == service.id  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("target", "host", "kind"),
    [
        ("https://api.stripe.com/v1/charges", "api.stripe.com", ResourceType.SAAS),
        ("Stripe", "stripe", ResourceType.SAAS),
        ("my-bucket.s3.amazonaws.com", "my-bucket.s3.amazonaws.com", ResourceType.STORAGE),
        ("sqs.us-east-1.amazonaws.com", "sqs.us-east-1.amazonaws.com", ResourceType.QUEUE),
        ("ledger.partner.example", "ledger.partner.example", ResourceType.OTHER),  # seen by static analysis
    ],
)
def test_known_externals_resolve_external(target: str, host: str, kind: ResourceType) -> None:
    got = NAMES.resolve(target)
    assert got is not None and (got.target, got.target_kind, got.resource_type) == (
        host,
        TargetKind.EXTERNAL,
        kind,
    )


@pytest.mark.parametrize(
    "target",
    [
        "fraud-service",
        "payments.attacker.io",
        "fraud-slack-service",
        "evil.example.com",
        "",
        "   ",
        "x" * 500,
    ],
)
def test_everything_else_is_dropped(target: str) -> None:
    assert NAMES.resolve(target) is None
