"""A Gradle multi-module JVM repository through the real analyzers: which modules are services,
library constants, copy-pasted application names, and configured HTTP path prefixes."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.layout.manifests import Manifest
from orbitkb.analysis.layout.model import ServiceUnit
from orbitkb.analysis.libraries import library_files
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

BOOT = "plugins { id 'org.springframework.boot' }\n"
APP = """package org.tally.{pkg}.main;
@org.springframework.boot.autoconfigure.SpringBootApplication
public class {cls} {{ public static void main(String[] a) {{ }} }}
"""

FILES = {
    "settings.gradle": 'include "tally-api"\ninclude "ledger-service"\ninclude "audit-service"\n',
    "tally-api/build.gradle": "dependencies { }\n",
    "tally-api/src/main/java/org/tally/api/TallyChannels.java": (
        "package org.tally.api;\npublic class TallyChannels {\n"
        '  public static final String LEDGER_COMMANDS = "ledgerCommands";\n}\n'
    ),
    "ledger-service/build.gradle": BOOT + 'dependencies { implementation project(":tally-api") }\n',
    "ledger-service/src/main/java/org/tally/ledger/main/LedgerMain.java": APP.format(pkg="ledger", cls="LedgerMain"),
    "ledger-service/src/main/java/org/tally/ledger/domain/LedgerWiring.java": (
        "package org.tally.ledger.domain;\n"
        "@org.springframework.boot.autoconfigure.EnableAutoConfiguration\npublic class LedgerWiring {}\n"
    ),
    "ledger-service/src/main/java/org/tally/ledger/domain/LedgerHandlers.java": (
        "package org.tally.ledger.domain;\n"
        "import io.eventuate.tram.sagas.participant.SagaCommandHandlersBuilder;\n"
        "import org.tally.api.TallyChannels;\n"
        "public class LedgerHandlers {\n"
        "  public Object handlers() {\n"
        "    return SagaCommandHandlersBuilder.fromChannel(TallyChannels.LEDGER_COMMANDS).build();\n  }\n}\n"
    ),
    "ledger-service/src/main/java/org/tally/ledger/domain/EntryRepository.java": (
        "package org.tally.ledger.domain;\n"
        "import org.springframework.data.repository.CrudRepository;\n"
        "import org.springframework.data.rest.core.annotation.RepositoryRestResource;\n"
        "@RepositoryRestResource\npublic interface EntryRepository extends CrudRepository<Entry, Long> {}\n"
    ),
    "ledger-service/src/main/resources/application.properties": (
        "spring.application.name=ledger-service\nspring.data.rest.base-path=/rest\n"
    ),
    "ledger-service/src/integration-test/java/org/tally/ledger/contract/ContractApp.java": (
        APP.format(pkg="ledger", cls="ContractApp")
    ),
    "audit-service/build.gradle": BOOT,
    "audit-service/src/main/java/org/tally/audit/main/AuditMain.java": APP.format(pkg="audit", cls="AuditMain"),
    # copy-pasted from the ledger: not a second name for the ledger, not an alias of the audit
    "audit-service/src/main/resources/application.properties": "spring.application.name=ledger-service\n",
}


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("tally"), DictCache()))


def test_modules_libraries_and_test_source_sets():
    result = run(FILES)
    assert result.names() == ["audit-service", "ledger-service"]
    ledger = result.service("ledger-service")
    assert [(m.direction.value, m.channel) for m in ledger.messages] == [("consumes", "ledgerCommands")]
    assert not any(f.startswith("tally-api/") for f in ledger.files)


def test_copied_application_name_is_a_gap_not_an_alias():
    result = run(FILES)
    assert result.service("audit-service").service.aliases == ()
    assert ("audit-service", "name_collision") in result.gaps()


def test_data_rest_base_path_from_configuration():
    paths = {(a.method, a.path) for a in run(FILES).service("ledger-service").apis}
    assert ("GET", "/rest/entries/{id}") in paths and ("POST", "/rest/entries") in paths
    files = dict(FILES)
    files["ledger-service/src/main/resources/application.properties"] = "spring.application.name=ledger-service\n"
    paths = {(a.method, a.path) for a in run(files).service("ledger-service").apis}
    assert ("GET", "/entries") in paths


def test_library_files_follow_sibling_module_dependencies():
    unit = ServiceUnit("orders", "orders", "jvm-spring")
    other = ServiceUnit("mail", "mail", "jvm-spring")
    unit.manifests = [Manifest("orders/build.gradle", "jvm-spring", deps={"orders-api"})]
    files = ["orders/src/A.java", "orders-api/src/Const.java", "common/src/Util.java"]
    owners = {"orders/src/A.java": 0}
    found = library_files([unit, other], ["orders-api", "common"], files, owners)
    assert found == {0: ["orders-api/src/Const.java"]}
