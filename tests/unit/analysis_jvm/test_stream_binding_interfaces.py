"""Spring Cloud Stream's annotation-style binding interfaces: an ``@Output`` / ``@Input`` binding is
messaging where the service's code asks the interface for that channel, never where it is only
declared; the DataStax object mapper's ``@Entity`` is a Cassandra table, not JPA's; a MongoDB
collection opened on ``client.getDatabase(db)`` is a collection; an Elasticsearch request names its
index."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(
    files: dict[str, str], deps: tuple[str, ...] = ("org.springframework.cloud:spring-cloud-stream",)
) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo", dependencies=deps), parsed)


def flows(facts: LinkedFacts) -> list[tuple[str, str]]:
    return sorted({(m.direction, render(m.channel)) for m in facts.messages})


CHANNELS_JAVA = """package org.quay.ferry;

import org.springframework.cloud.stream.annotation.Input;
import org.springframework.cloud.stream.annotation.Output;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.SubscribableChannel;

public interface FerryChannels {
    String BOARDING = "boarding";

    @Output(BOARDING)
    MessageChannel boarding();

    @Output
    MessageChannel departures();

    @Input("ferry-delays")
    SubscribableChannel delays();

    @Output("never-asked")
    MessageChannel unused();
}
"""

DESK_JAVA = """package org.quay.ferry;

import org.springframework.messaging.support.MessageBuilder;

public class BoardingDesk {
    private final FerryChannels channels;

    BoardingDesk(FerryChannels channels) { this.channels = channels; }

    void board(String ticket) {
        channels.boarding().send(MessageBuilder.withPayload(ticket).build());
        channels.departures().send(MessageBuilder.withPayload(ticket).build());
    }

    void watch() {
        channels.delays().subscribe(message -> { });
    }
}
"""

DESK_KT = """package org.quay.ferry

import org.springframework.messaging.support.MessageBuilder

class KioskDesk(private val channels: FerryChannels) {
    fun board(ticket: String) {
        channels.boarding().send(MessageBuilder.withPayload(ticket).build())
    }
}
"""


def binding(name: str) -> str:
    return "${spring.cloud.stream.bindings." + name + ".destination:" + name + "}"


def test_bindings_the_code_asks_for_publish_and_consume():
    facts = link({"FerryChannels.java": CHANNELS_JAVA, "BoardingDesk.java": DESK_JAVA})
    assert flows(facts) == [
        ("consumes", binding("ferry-delays")),
        ("publishes", binding("boarding")),
        ("publishes", binding("departures")),
    ]


def test_kotlin_callers_count_too():
    assert flows(link({"FerryChannels.java": CHANNELS_JAVA, "KioskDesk.kt": DESK_KT})) == [
        ("publishes", binding("boarding")),
    ]


def test_a_binding_only_declared_is_not_messaging():
    assert flows(link({"FerryChannels.java": CHANNELS_JAVA})) == []


def test_without_spring_cloud_stream_an_output_annotation_is_something_else():
    channels = CHANNELS_JAVA.replace("org.springframework.cloud.stream.annotation", "org.quay.meta")
    facts = link({"FerryChannels.java": channels, "BoardingDesk.java": DESK_JAVA}, deps=())
    assert flows(facts) == []


CASSANDRA_JAVA = """package org.quay.manifests;

import com.datastax.oss.driver.api.mapper.annotations.CqlName;
import com.datastax.oss.driver.api.mapper.annotations.Entity;
import com.datastax.oss.driver.api.mapper.annotations.PartitionKey;

@Entity
public class CargoLine {
    @PartitionKey
    private int id;
    private String item;
}

@Entity
@CqlName("hull_checks")
class HullCheck {
    @PartitionKey
    private int id;
}
"""

JPA_JAVA = """package org.quay.manifests;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

@Entity
public class Deckhand {
    @Id
    private Long id;
}
"""

MONGO_JAVA = """package org.quay.logs;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import org.bson.Document;

public class ShipLog {
    private static final String LOGS = "ship_logs";
    MongoClient client;

    MongoCollection<Document> logs() {
        return client.getDatabase("harbor").getCollection(LOGS);
    }
}
"""


def stores(files: dict[str, str]) -> list[tuple[str, str | None, str, str | None]]:
    return sorted((e.name, e.class_name, e.kind, e.engine_hint) for e in link(files, deps=()).entities)


def test_the_datastax_mapper_entity_is_a_cassandra_table():
    assert stores({"CargoLine.java": CASSANDRA_JAVA, "Deckhand.java": JPA_JAVA}) == [
        ("cargo_line", "CargoLine", "wide_column", "cassandra"),
        ("deckhand", "Deckhand", "sql_table", None),
        ("hull_checks", "HullCheck", "wide_column", "cassandra"),
    ]


def test_a_collection_opened_on_a_database_the_client_returns():
    assert stores({"ShipLog.java": MONGO_JAVA}) == [("ship_logs", None, "document_collection", "mongodb")]


ELASTIC_JAVA = """package org.quay.search;

import org.elasticsearch.action.index.IndexRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.client.RestHighLevelClient;

public class CargoSearch {
    private static final String CARGO = "cargo-views";
    private RestHighLevelClient client;

    void store(String id, String json) {
        IndexRequest request = new IndexRequest(CARGO, "view", id);
    }

    void find() {
        SearchRequest request = new SearchRequest("berth_stats");
    }
}
"""


def test_elasticsearch_requests_name_the_index_they_open():
    assert stores({"CargoSearch.java": ELASTIC_JAVA}) == [
        ("berth_stats", None, "search_index", "elasticsearch"),
        ("cargo-views", None, "search_index", "elasticsearch"),
    ]


def test_a_request_class_of_another_library_opens_nothing():
    text = ELASTIC_JAVA.replace("import org.elasticsearch.", "import org.quay.http.")
    assert stores({"CargoSearch.java": text}) == []
