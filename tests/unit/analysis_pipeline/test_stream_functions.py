"""Spring Cloud Stream functional beans in services that import nothing from Spring Cloud Stream:
the binder dependency is what binds them. A composed definition (`weigh|stamp`) is bound under the
joined name (`weighstamp-in-0` / `weighstamp-out-0`), the bindings inside it are no channel; an
unset destination is the binding's own name; Spring Cloud Function over HTTP binds nothing."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run


def _gradle(*artifacts: str) -> str:
    lines = "\n".join(f"    implementation '{a}'" for a in artifacts)
    return (
        "plugins {\n    id 'org.springframework.boot' version '3.2.0'\n    id 'java'\n}\n"
        f"dependencies {{\n    implementation 'org.springframework.boot:spring-boot-starter'\n{lines}\n}}\n"
    )


FUNCTIONS = """\
package com.parcels.{pkg};

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class {cls} {{
    public static void main(String[] args) {{
        SpringApplication.run({cls}.class, args);
    }}
{beans}
}}
"""

WEIGH_STAMP = """
    @Bean
    public Function<String, Integer> weigh() {
        return parcel -> parcel.length();
    }

    @Bean
    public Function<Integer, String> stamp() {
        return grams -> "stamped:" + grams;
    }
"""

TALLY = """
    @Bean
    public Consumer<String> tally() {
        return parcel -> System.out.println(parcel);
    }
"""

QUOTE = """
    @Bean
    public Supplier<String> quote() {
        return () -> "ship early";
    }
"""


def _service(folder: str, cls: str, beans: str, yml: str, *artifacts: str) -> dict[str, str]:
    pkg = folder.replace("-", "")
    source = FUNCTIONS.format(pkg=pkg, cls=cls, beans=beans)
    return {
        f"{folder}/build.gradle": _gradle(*artifacts),
        f"{folder}/src/main/java/com/parcels/{pkg}/{cls}.java": source,
        f"{folder}/src/main/resources/application.yml": yml,
    }


FILES = {
    **_service(
        "dispatch",
        "DispatchApp",
        WEIGH_STAMP,
        "spring:\n  application:\n    name: dispatch\n  cloud:\n    function:\n      definition: weigh|stamp\n"
        "    stream:\n      bindings:\n        weighstamp-in-0:\n          destination: parcels.accepted\n"
        "        weighstamp-out-0:\n          destination: parcels.stamped\n",
        "org.springframework.cloud:spring-cloud-stream-binder-rabbit",
    ),
    **_service(
        "ledger",
        "LedgerApp",
        TALLY,
        "spring:\n  application:\n    name: ledger\n  cloud:\n    function:\n      definition: tally\n",
        "org.springframework.cloud:spring-cloud-starter-stream-kafka",
    ),
    **_service(
        "quotes",
        "QuotesApp",
        QUOTE,
        "spring:\n  application:\n    name: quotes\n",
        "org.springframework.cloud:spring-cloud-function-web",
    ),
}


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("parcels"), DictCache()))


def _messages(result: Run, name: str) -> list[tuple[str, str, str]]:
    return sorted((m.direction.value, m.channel, m.provider) for m in result.service(name).messages)


def test_a_composed_definition_binds_under_the_joined_name_and_nothing_inside() -> None:
    result = run(FILES)
    assert _messages(result, "dispatch") == [
        ("consumes", "parcels.accepted", "rabbitmq"),
        ("publishes", "parcels.stamped", "rabbitmq"),
    ]


def test_a_binder_dependency_binds_beans_without_stream_imports_default_destination() -> None:
    result = run(FILES)
    assert _messages(result, "ledger") == [("consumes", "tally-in-0", "kafka")]


def test_function_beans_served_over_http_are_no_channels() -> None:
    result = run(FILES)
    assert result.names() == ["dispatch", "ledger", "quotes"]
    assert _messages(result, "quotes") == []
