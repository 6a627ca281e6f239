"""Spring relaxed binding of kebab-case properties: `clients.stock-service.base-url` is read from the
environment as CLIENTS_STOCKSERVICE_BASEURL or, in Spring's legacy form, CLIENTS_STOCK_SERVICE_BASE_URL."""

from __future__ import annotations

import pytest

SERVICES = {
    "orders/pom.xml": "<project><artifactId>orders</artifactId></project>",
    "orders/src/main/java/App.java": "// @entry\n"
    "// @call http RestClient prop:clients.stock-service.base-url+lit:/reserve method=POST\n",
    "orders/src/main/resources/application.properties": "clients.stock-service.base-url=http://localhost:7001\n",
    "stock/package.json": '{"scripts": {"start": "node server.js"}}',
    "stock/server.js": "// @api POST /reserve reserve\n",
    "gateway/package.json": '{"scripts": {"start": "node server.js"}}',
    "gateway/server.js": "// @api POST /stock/reserve reserve\n",
}


def compose(env_line: str) -> str:
    return (
        "services:\n"
        "  orders:\n    build: ./orders\n    environment:\n"
        f"      - {env_line}\n"
        "  stock: {build: ./stock}\n  gateway: {build: ./gateway}\n"
    )


@pytest.mark.parametrize(
    "env_line",
    [
        "CLIENTS_STOCK_SERVICE_BASE_URL=http://stock:7001",  # legacy: every dash an underscore
        "CLIENTS_STOCKSERVICE_BASEURL=http://stock:7001",  # current: dashes dropped
    ],
)
def test_kebab_case_property_is_set_by_either_env_spelling(analyze, env_line: str) -> None:
    run = analyze({**SERVICES, "docker-compose.yml": compose(env_line)})
    assert [c.target for c in run.service("orders").calls] == ["stock"]


def test_an_env_var_of_another_spelling_sets_nothing(analyze) -> None:
    run = analyze(
        {**SERVICES, "docker-compose.yml": compose("CLIENTS_STOCK_SERVICE_BASEURL_X=http://stock:7001")}
    )
    assert [c.target for c in run.service("orders").calls] != ["stock"]
