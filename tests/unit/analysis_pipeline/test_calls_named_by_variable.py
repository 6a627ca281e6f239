"""A base address read from an environment variable set nowhere: the variable's name may name the callee."""

from __future__ import annotations

from orbitkb.analysis.resolution.matcher import ServiceIndex
from tests.unit.analysis_pipeline.test_resolve import calls_of


def _got(calls: list) -> list[tuple]:
    return [(c.target, c.target_kind.value, c.method, c.path, c.confidence) for c in calls]


def test_an_unset_variable_naming_one_service_is_that_service_at_the_confidence_of_a_variant(analyze):
    calls, run = calls_of(
        analyze,
        [
            "http guzzle env:PAYMENTS_SERVICE_URL+lit:/pay method=POST",
            "http fetch env:PAYMENTS_URL+lit:/payments/7 method=GET",
            "http requests env:PAYMENTS_SERVICE_HOST+lit:/payments/search",
            "http axios lit:http://+env:PAYMENTS_HOST+lit::3000/pay method=POST",
            "http requests env:PAYMENTS_BASE_URI+lit:/pay method=POST",
        ],
    )
    pay = run.service("payments-service")
    assert _got(calls) == [
        ("payments-service", "internal", "POST", "/pay", 0.7),
        ("payments-service", "internal", "GET", "/payments/:id", 0.7),
        ("payments-service", "internal", None, "/payments/search", 0.7),
        ("payments-service", "internal", "POST", "/pay", 0.7),
        ("payments-service", "internal", "POST", "/pay", 0.7),
    ]
    assert all(c.to_service_id == pay.service.id and c.to_api_id for c in calls)


def test_a_variable_set_by_the_deployment_wins_over_its_name(analyze):
    compose = """services:
  orders: {build: ./orders, environment: {PAYMENTS_URL: "https://api.stripe.com"}}
  payments-service: {build: ./payments}
"""
    calls, _ = calls_of(analyze, ["http fetch env:PAYMENTS_URL+lit:/v1/charges method=POST"], {"docker-compose.yml": compose})
    assert _got(calls) == [("api.stripe.com", "unknown", "POST", "/v1/charges", 1.0)]


def test_names_that_say_nothing_about_another_service_stay_readable(analyze):
    calls, _ = calls_of(
        analyze,
        [
            "http requests env:APP_URL+lit:/orders",  # the service's own address
            "http requests env:API_BASE_URL+lit:/pay",  # too vague
            "http requests env:BILLING_URL+lit:/invoices",  # no such service
            "http requests env:PAYMENTS_TOKEN+lit:/pay",  # not an address
            "http requests env:PAYMENTS_URL|http://ledger.internal+lit:/l",  # the code's default stands
            "http requests lit:https://+env:PAYMENTS_URL+lit:.example.com/pay",  # only part of the host
        ],
    )
    assert [c.target for c in calls] == [
        "${APP_URL}",
        "${API_BASE_URL}",
        "${BILLING_URL}",
        "${PAYMENTS_TOKEN}",
        "ledger.internal",
        "${PAYMENTS_URL}.example.com",
    ]
    assert all(c.target_kind.value != "internal" for c in calls)


def test_a_word_names_the_one_service_whose_name_ends_with_it_never_several():
    index = ServiceIndex(
        [("shop-users-service", (), ()), ("shop-orders", (), ()), ("admin-orders", (), ()), ("web", (), ())]
    )
    assert index.named("users-service").service == "shop-users-service"  # type: ignore[union-attr]
    assert index.named("users").service == "shop-users-service"  # type: ignore[union-attr]
    assert index.named("web").service == "web"  # type: ignore[union-attr]
    assert index.named("orders") is None  # two services end with it
    assert index.named("carts") is None
    assert index.named("localhost") is None
    assert index.named("users.example.com") is None
