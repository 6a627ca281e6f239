"""A Feign client whose service name comes from configuration (``@FeignClient(value =
"${clients.stock}")``, ``name = "${billing.name:billing-service}"``) calls the service that value
names; a name set nowhere names no service and is kept as the expression it is."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

BOOT = "plugins { id 'org.springframework.boot' }\n"
MAIN = """package org.till.{pkg};
@org.springframework.boot.autoconfigure.SpringBootApplication
public class {cls} {{ public static void main(String[] a) {{ }} }}
"""


def client(name: str, annotation: str, mapping: str) -> str:
    return (
        "package org.till.orders;\nimport org.springframework.cloud.openfeign.FeignClient;\n"
        "import org.springframework.web.bind.annotation.*;\n"
        f"@FeignClient({annotation})\npublic interface {name} {{ {mapping} Object call(); }}\n"
    )


FILES = {
    "settings.gradle": "include 'orders', 'stock', 'billing'\n",
    "orders/build.gradle": BOOT,
    "stock/build.gradle": BOOT,
    "billing/build.gradle": BOOT,
    "orders/src/main/java/org/till/orders/OrdersMain.java": MAIN.format(pkg="orders", cls="OrdersMain"),
    "stock/src/main/java/org/till/stock/StockMain.java": MAIN.format(pkg="stock", cls="StockMain"),
    "billing/src/main/java/org/till/billing/BillingMain.java": MAIN.format(pkg="billing", cls="BillingMain"),
    "stock/src/main/resources/application.yml": "spring:\n  application:\n    name: stock-service\n",
    "billing/src/main/resources/application.properties": "spring.application.name=billing-service\n",
    "orders/src/main/resources/application.yml": "spring:\n  application:\n    name: orders\nclients:\n  stock: stock-service\n",
    "orders/src/main/java/org/till/orders/StockClient.java": client(
        "StockClient", 'value = "${clients.stock}", contextId = "stock"', '@GetMapping("/levels/{sku}")'
    ),
    "orders/src/main/java/org/till/orders/BillingClient.java": client(
        "BillingClient", 'name = "${billing.name:billing-service}"', '@PostMapping("/invoices")'
    ),
    "orders/src/main/java/org/till/orders/LostClient.java": client(
        "LostClient", 'name = "${nowhere.set}"', '@GetMapping("/x")'
    ),
}


def test_feign_names_from_configuration_and_from_a_placeholder_default():
    result = Run(
        StaticCodeAnalyzer(workers=0).analyze(
            MemorySourceTree(FILES, commit="c0"), AnalysisRequest("till"), DictCache()
        )
    )
    calls = {
        (c.target, c.to_service_id is not None, c.method, c.path) for c in result.service("orders").calls
    }
    assert ("stock-service", True, "GET", "/levels/{sku}") in calls
    assert ("billing-service", True, "POST", "/invoices") in calls
    lost = [c for c in result.service("orders").calls if c.path == "/x"]
    assert len(lost) == 1 and lost[0].to_service_id is None and "nowhere.set" in lost[0].target
