"""A Quarkus multi-module repository through the real analyzers: modules packaged by a Dockerfile in
`src/main/docker` are services, Reactive Messaging channels resolve to the topics their connectors
name (`%prod.` keys are the deployed ones), and MicroProfile REST clients find their base URL under
their interface name or config key — an OpenShift route host names the service behind it."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

PARENT = """<project><artifactId>larder</artifactId><packaging>pom</packaging>
<modules><module>pantry-web</module><module>pantry-stock</module><module>pantry-mocker</module>
<module>pantry-model</module></modules>
<build><plugins><plugin><groupId>io.quarkus</groupId><artifactId>quarkus-maven-plugin</artifactId></plugin>
</plugins></build></project>
"""


def pom(name: str, *deps: str) -> str:
    body = "".join(f"<dependency><groupId>io.quarkus</groupId><artifactId>{d}</artifactId></dependency>" for d in deps)
    return (
        f"<project><parent><artifactId>larder</artifactId></parent><artifactId>{name}</artifactId>"
        f"<dependencies>{body}</dependencies></project>"
    )


DOCKERFILE = "FROM registry.example.com/openjdk-11\nCOPY target/quarkus-app /deployments/\n"

FILES = {
    "pom.xml": PARENT,
    # ---------------------------------------------------------------- web: HTTP in, Kafka out
    "pantry-web/pom.xml": pom("pantry-web", "quarkus-resteasy", "quarkus-smallrye-reactive-messaging-kafka"),
    "pantry-web/src/main/docker/Dockerfile.jvm": DOCKERFILE,
    "pantry-web/src/main/java/org/larder/web/ShelfResource.java": """package org.larder.web;

import javax.inject.Inject;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

@Path("/shelves")
public class ShelfResource {
    @Inject @Channel("requests-out") Emitter<String> requests;

    @POST
    public void ask(String item) { requests.send(item); }
}
""",
    "pantry-web/src/main/resources/application.properties": (
        "mp.messaging.outgoing.requests-out.connector=smallrye-kafka\n"
        "mp.messaging.outgoing.requests-out.topic=wishes\n"
        "%dev.mp.messaging.outgoing.requests-out.topic=dev-requests\n"
        "%prod.mp.messaging.outgoing.requests-out.topic=stock-requests\n"
    ),
    # ---------------------------------------------------------------- stock: Kafka in, AMQP out
    "pantry-stock/pom.xml": pom("pantry-stock", "quarkus-smallrye-reactive-messaging-kafka"),
    "pantry-stock/src/main/docker/Dockerfile.native": DOCKERFILE,
    "pantry-stock/src/main/java/org/larder/stock/Stocker.java": """package org.larder.stock;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

public class Stocker {
    @Incoming("requests")
    @Outgoing("restocked")
    public String restock(String item) { return item; }
}
""",
    "pantry-stock/src/main/resources/application.yaml": (
        "mp:\n  messaging:\n    incoming:\n      requests:\n        connector: smallrye-kafka\n"
        "        topic: stock-requests\n    outgoing:\n      restocked:\n        connector: smallrye-amqp\n"
        '"%test":\n  mp:\n    messaging:\n      incoming:\n        requests:\n          topic: test-requests\n'
    ),
    # ---------------------------------------------------------------- mocker: two REST clients
    "pantry-mocker/pom.xml": pom("pantry-mocker", "quarkus-rest-client"),
    "pantry-mocker/src/main/docker/Dockerfile.jvm": DOCKERFILE,
    "pantry-mocker/src/main/java/org/larder/mocker/ShelfApi.java": """package org.larder.mocker;

import javax.ws.rs.POST;
import javax.ws.rs.Path;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

@Path("/shelves")
@RegisterRestClient
public interface ShelfApi {
    @POST
    void ask(String item);
}
""",
    "pantry-mocker/src/main/java/org/larder/mocker/StockApi.java": """package org.larder.mocker;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

@Path("/levels")
@RegisterRestClient(configKey = "stock-api")
public interface StockApi {
    @GET
    String levels();
}
""",
    "pantry-mocker/src/main/resources/application.properties": (
        "%dev.org.larder.mocker.ShelfApi/mp-rest/url=http://localhost:9999\n"
        "%prod.org.larder.mocker.ShelfApi/mp-rest/url=${SHELF_URL}\n"
        "stock-api/mp-rest/url=http://pantry-stock:8080\n"
    ),
    # ---------------------------------------------------------------- a library module
    "pantry-model/pom.xml": pom("pantry-model"),
    "pantry-model/src/main/java/org/larder/model/Item.java": "package org.larder.model;\npublic class Item {}\n",
    # ---------------------------------------------------------------- deployment
    "deploy/namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: larder\n",
    "docker-compose.yml": (
        "services:\n"
        "  pantry-mocker:\n    build: ./pantry-mocker\n    environment:\n"
        "      - SHELF_URL=http://pantry-web-larder.apps.cluster.example.com\n"
    ),
}


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("larder"), DictCache()))


def flows(result: Run, service: str) -> list[tuple[str, str, str]]:
    return sorted((m.direction.value, m.provider, m.channel) for m in result.service(service).messages)


def test_modules_packaged_by_a_module_dockerfile_are_services_and_the_library_is_not() -> None:
    assert run(FILES).names() == ["pantry-mocker", "pantry-stock", "pantry-web"]


def test_a_module_without_its_dockerfile_is_no_service_of_its_own() -> None:
    files = {k: v for k, v in FILES.items() if not k.startswith("pantry-stock/src/main/docker/")}
    assert "pantry-stock" not in run(files).names()


def test_channels_resolve_to_the_deployed_topic_of_their_connector() -> None:
    result = run(FILES)
    assert flows(result, "pantry-web") == [("publishes", "kafka", "stock-requests")]
    # the %test topic is not the deployed one; a connector without a destination keeps the channel name
    assert flows(result, "pantry-stock") == [
        ("consumes", "kafka", "stock-requests"),
        ("publishes", "rabbitmq", "restocked"),
    ]


def test_rest_clients_by_interface_name_and_by_config_key() -> None:
    calls = run(FILES).service("pantry-mocker").calls
    assert sorted((c.target, c.method, c.path) for c in calls) == [
        ("pantry-stock", "GET", "/levels"),
        ("pantry-web", "POST", "/shelves"),
    ]


def test_a_route_host_of_another_namespace_names_no_service() -> None:
    files = {**FILES, "deploy/namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: attic\n"}
    targets = sorted(c.target for c in run(files).service("pantry-mocker").calls)
    assert targets == ["pantry-stock", "pantry-web-larder.apps.cluster.example.com"]



def _mocker_calls(properties: str) -> list[tuple[str, bool]]:
    """(target, resolved to a service of the repository) of each call of pantry-mocker."""
    files = {**FILES, "pantry-mocker/src/main/resources/application.properties": properties}
    return sorted((c.target, c.to_service_id is not None) for c in run(files).service("pantry-mocker").calls)


def test_stork_names_a_service_directly_or_by_its_static_instance_list() -> None:
    assert _mocker_calls(
        'quarkus.rest-client."org.larder.mocker.ShelfApi".url=stork://pantry-web\n'
        "stock-api/mp-rest/url=stork://stock-lookup\n"
        "quarkus.stork.stock-lookup.service-discovery.type=static\n"
        "quarkus.stork.stock-lookup.service-discovery.address-list=${STOCK_HOST:pantry-stock:8080},backup:8080\n"
    ) == [("pantry-stock", True), ("pantry-web", True)]


def test_stork_names_a_service_by_the_application_a_registry_knows() -> None:
    calls = _mocker_calls(
        "quarkus.rest-client.stock-api.url=stork://levels-registry/\n"
        "stork.levels-registry.service-discovery.type=consul\n"
        "stork.levels-registry.service-discovery.application=pantry-stock\n"
    )
    assert ("pantry-stock", True) in calls


def test_a_stork_name_nothing_configures_or_deploys_names_no_service() -> None:
    calls = _mocker_calls("quarkus.rest-client.stock-api.url=stork://somewhere-else\n")
    assert ("somewhere-else", False) in calls
    assert not any(target == "pantry-stock" for target, _found in calls)


def test_a_rabbitmq_consumer_is_on_the_exchange_publishers_send_to_not_its_own_queue() -> None:
    files = {
        **FILES,
        "pantry-stock/src/main/resources/application.yaml": (
            "mp:\n  messaging:\n    incoming:\n      requests:\n        connector: smallrye-rabbitmq\n"
            "        exchange:\n          name: stock-requests\n        queue:\n          name: stocker-inbox\n"
            "    outgoing:\n      restocked:\n        connector: smallrye-rabbitmq\n"
            "        exchange:\n          name: restocks\n"
        ),
    }
    assert flows(run(files), "pantry-stock") == [
        ("consumes", "rabbitmq", "stock-requests"),
        ("publishes", "rabbitmq", "restocks"),
    ]


def test_a_rabbitmq_consumer_naming_only_its_queue_keeps_the_queue() -> None:
    files = {
        **FILES,
        "pantry-stock/src/main/resources/application.properties": (
            "mp.messaging.incoming.requests.connector=smallrye-rabbitmq\n"
            "mp.messaging.incoming.requests.queue.name=stocker-inbox\n"
        ),
    }
    files.pop("pantry-stock/src/main/resources/application.yaml")
    assert ("consumes", "rabbitmq", "stocker-inbox") in flows(run(files), "pantry-stock")
