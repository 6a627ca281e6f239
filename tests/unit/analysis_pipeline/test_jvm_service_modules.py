"""A service built from several modules of its own folder (``billing/billing-main`` deployed,
``billing/billing-web`` and ``billing/billing-domain`` beside it): their controllers, handlers and
entities are the service's; a module another service builds against stays a shared library."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.layout.manifests import Manifest
from orbitkb.analysis.layout.model import ServiceUnit
from orbitkb.analysis.libraries import grouped_modules
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

BOOT = "plugins { id 'org.springframework.boot' }\n"
MAIN = """package org.fees.{pkg};
@org.springframework.boot.autoconfigure.SpringBootApplication
public class {cls} {{ public static void main(String[] a) {{ }} }}
"""

FILES = {
    "settings.gradle": (
        "include 'billing:billing-main', 'billing:billing-web', 'billing:billing-domain', 'billing:billing-api'\n"
        "include 'dunning:dunning-main'\ninclude 'payouts:payouts-main', 'payouts:payouts-web'\n"
        "include 'refunds:refunds-main', 'refunds:refunds-web'\n"
    ),
    # billing: the deployed module and three modules of its own folder
    "billing/billing-main/build.gradle": BOOT
    + (
        "dependencies {\n  implementation project(':billing:billing-web')\n"
        "  implementation project(':billing:billing-domain')\n}\n"
    ),
    "billing/billing-main/Dockerfile": "FROM eclipse-temurin:21\nCOPY build/libs/app.jar app.jar\n",
    "billing/billing-main/src/main/java/org/fees/billing/BillingMain.java": MAIN.format(
        pkg="billing", cls="BillingMain"
    ),
    "billing/billing-main/src/main/resources/application.properties": (
        "spring.application.name=billing\nspring.datasource.url=jdbc:mysql://db/billing\n"
    ),
    "billing/billing-web/build.gradle": "dependencies { implementation project(':billing:billing-domain') }\n",
    "billing/billing-web/src/main/java/org/fees/billing/web/InvoiceController.java": (
        "package org.fees.billing.web;\nimport org.springframework.web.bind.annotation.*;\n"
        '@RestController\n@RequestMapping("/invoices")\npublic class InvoiceController {\n'
        '  @GetMapping("/{id}") public String one(@PathVariable String id) { return id; }\n}\n'
    ),
    "billing/billing-domain/build.gradle": "dependencies { }\n",
    "billing/billing-domain/src/main/java/org/fees/billing/domain/Invoice.java": (
        "package org.fees.billing.domain;\nimport jakarta.persistence.*;\n"
        '@Entity\n@Table(name = "invoices")\npublic class Invoice { @Id private Long id; }\n'
    ),
    "billing/billing-domain/src/main/java/org/fees/billing/domain/InvoiceRepository.java": (
        "package org.fees.billing.domain;\nimport org.springframework.data.repository.CrudRepository;\n"
        "public interface InvoiceRepository extends CrudRepository<Invoice, Long> { }\n"
    ),
    # a test source set of a module is never the service's configuration
    "billing/billing-web/src/contractTest/resources/application.properties": (
        "spring.datasource.url=jdbc:postgresql://db/contract\n"
    ),
    # billing-api sits in billing's folder but dunning builds against it: a shared contract
    "billing/billing-api/build.gradle": "dependencies { }\n",
    "billing/billing-api/src/main/java/org/fees/billing/api/BillingController.java": (
        "package org.fees.billing.api;\nimport org.springframework.web.bind.annotation.*;\n"
        '@RestController\npublic class BillingController { @PostMapping("/shared") public void x() { } }\n'
    ),
    "dunning/dunning-main/build.gradle": BOOT
    + "dependencies { implementation project(':billing:billing-api') }\n",
    "dunning/dunning-main/Dockerfile": "FROM eclipse-temurin:21\nCOPY build/libs/app.jar app.jar\n",
    "dunning/dunning-main/src/main/java/org/fees/dunning/DunningMain.java": MAIN.format(
        pkg="dunning", cls="DunningMain"
    ),
}


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("fees"), DictCache()))


def test_modules_of_a_service_folder_are_the_service_code():
    result = run(FILES)
    billing = result.service("billing")
    assert {(a.method, a.path) for a in billing.apis if a.kind == "http"} == {("GET", "/invoices/{id}")}
    assert {(e.name, e.engine) for e in billing.entities} == {("invoices", "mysql")}
    assert "billing/billing-web/src/main/java/org/fees/billing/web/InvoiceController.java" in billing.files


def test_a_module_another_service_builds_against_stays_shared():
    result = run(FILES)
    assert not any(f.startswith("billing/billing-api/") for f in result.service("billing").files)
    assert not any(a.path == "/shared" for a in result.service("billing").apis)
    assert not any(f.startswith("billing/billing-api/") for f in result.service("dunning-main").files)


def _unit(root: str, deps: set[str] = frozenset()) -> ServiceUnit:  # type: ignore[assignment]
    unit = ServiceUnit(root.rsplit("/", 1)[-1], root, "jvm-spring")
    unit.manifests = [Manifest(f"{root}/build.gradle", "jvm-spring", deps=set(deps))]
    return unit


def test_grouping_needs_one_service_in_a_folder_of_its_own():
    files = [
        "pay/pay-web/src/A.java",
        "pay/pay-batch-lib/src/B.java",
        "shop/common/src/C.java",
        "lib/src/D.java",
    ]
    # two services in one folder: its libraries belong to neither
    two = [_unit("pay/pay-main"), _unit("pay/pay-batch")]
    assert grouped_modules(two, ["pay/pay-web", "pay/pay-batch-lib"], {}, files) == {}
    # a top-level module is never grouped with anything
    assert grouped_modules([_unit("svc")], ["lib"], {}, files) == {}
    # a service nested deeper than the library's folder: not a sibling module
    deep = [_unit("shop/apps/shop-main")]
    assert grouped_modules(deep, ["shop/common"], {}, files) == {}
    # another stack's services are not built from modules
    node = ServiceUnit("pay-main", "pay/pay-main", "node-ts")
    assert grouped_modules([node], ["pay/pay-web"], {}, files) == {}
    one = [_unit("pay/pay-main")]
    assert grouped_modules(one, ["pay/pay-web"], {}, files) == {"pay/pay-web/src/A.java": 0}
    # a test harness beside the deployed module is not its code; an owned file keeps its owner
    harness = ["pay/pay-load-tests/src/Load.java"]
    assert grouped_modules(one, ["pay/pay-load-tests"], {}, harness) == {}
    assert grouped_modules(one, ["pay/pay-web"], {"pay/pay-web/src/A.java": 3}, files) == {}
