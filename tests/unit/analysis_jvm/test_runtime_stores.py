"""Stores a service reaches through a client whose keys or names are not literal: Quarkus Redis
command groups, memcached and Hazelcast maps known by their client alone, Hazelcast maps opened
by name, SQL run through JDBC or the reactive SQL clients, and names held in configuration."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo", ()), parsed)


def stores(files: dict[str, str]) -> list[tuple[str, str, str | None]]:
    return sorted((e.name, e.kind, e.engine_hint) for e in link(files).entities)


QUARKUS_VALUE = """package org.kiln.glaze;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.value.ValueCommands;

public class GlazeCache {
  private final RedisDataSource ds;
  private final ValueCommands<String, Integer> counters;

  public GlazeCache(RedisDataSource ds) {
    this.ds = ds;
    this.counters = ds.value(Integer.class);
  }

  public void remember(String batch, String recipe) { ds.value(String.class).set("glaze:" + batch, recipe); }
  public void count(String batch) { counters.incr("fired-" + batch); }
}
"""

REACTIVE_KT = """package org.kiln.fires

import io.quarkus.redis.datasource.ReactiveRedisDataSource

class FireLog(private val redis: ReactiveRedisDataSource) {
    fun note(id: String, temp: String) = redis.hash(String::class.java).hset(id, "temp", temp)
}
"""


def test_quarkus_redis_data_sources_and_command_groups_store_keys():
    assert stores({"src/main/java/GlazeCache.java": QUARKUS_VALUE}) == [
        ("fired", "key_value", "redis"),
        ("glaze", "key_value", "redis"),
    ]
    # a key that is a parameter is still a key the service stores, under no known space
    assert stores({"src/main/kotlin/FireLog.kt": REACTIVE_KT}) == [("*", "key_value", "redis")]


def test_a_command_group_of_another_receiver_is_not_redis():
    code = QUARKUS_VALUE.replace("RedisDataSource ds", "Object ds").replace(
        "ValueCommands<String, Integer> counters", "java.util.List<Integer> counters"
    )
    assert stores({"src/main/java/GlazeCache.java": code}) == []


MEMCACHED = """package org.kiln.shelf;

import net.spy.memcached.MemcachedClient;

public class ShelfCache {
  private final MemcachedClient client;
  public ShelfCache(MemcachedClient client) { this.client = client; }
  public Object load(String key) { return client.get(key); }
  public void keep(String key, Object v) { client.set(key, 600, v); }
}
"""

HAZEL_MAP_KT = """package org.kiln.orders

import com.hazelcast.map.IMap

class OrderBoard(private val board: IMap<String, String>) {
    fun pin(id: String, note: String) { board.put(id, note) }
}
"""

HAZEL_NAMED = """package org.kiln.orders;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

public class KilnQueue {
  private final IMap<String, String> slots;
  public KilnQueue(HazelcastInstance hz) { this.slots = hz.getMap("kiln-slots"); }
  public void take(String id) { slots.put(id, "taken"); }
}
"""


def test_memcached_and_hazelcast_clients_store_under_runtime_keys():
    assert stores({"src/main/java/ShelfCache.java": MEMCACHED}) == [("*", "key_value", "memcached")]
    danga = MEMCACHED.replace(
        "net.spy.memcached.MemcachedClient", "com.danga.MemCached.MemCachedClient"
    ).replace("MemcachedClient client", "MemCachedClient client")
    assert stores({"src/main/java/ShelfCache.java": danga}) == [("*", "key_value", "memcached")]
    assert stores({"src/main/kotlin/OrderBoard.kt": HAZEL_MAP_KT}) == [("*", "key_value", "hazelcast")]


def test_a_hazelcast_map_opened_by_name_replaces_the_runtime_stand_in():
    assert stores({"src/main/java/KilnQueue.java": HAZEL_NAMED}) == [("kiln-slots", "key_value", "hazelcast")]


def test_two_runtime_stores_of_different_engines_both_stay():
    found = stores(
        {"src/main/java/ShelfCache.java": MEMCACHED, "src/main/kotlin/OrderBoard.kt": HAZEL_MAP_KT}
    )
    assert found == [("*", "key_value", "hazelcast"), ("*", "key_value", "memcached")]


def test_the_same_verbs_on_plain_maps_and_lists_store_nothing():
    code = """package org.kiln.notes;
import java.util.Map;
public class Notes {
  private final Map<String, String> notes;
  Notes(Map<String, String> notes) { this.notes = notes; }
  public void keep(String id) { notes.put(id, "x"); notes.get(id); }
}
"""
    assert stores({"src/main/java/Notes.java": code}) == []


JDBC = """package org.kiln.ledger;

import java.sql.Connection;
import java.sql.Statement;
import javax.sql.DataSource;

public class Ledger {
  private final DataSource ds;
  Ledger(DataSource ds) { this.ds = ds; }
  public void add(String id) throws Exception {
    try (Connection c = ds.getConnection()) {
      c.prepareStatement("INSERT INTO firings (id) VALUES (?)").executeUpdate();
      Statement st = c.createStatement();
      st.executeQuery("SELECT count(*) FROM kilns");
    }
  }
}
"""

PG_POOL = """package org.kiln.reactive;

import io.vertx.mutiny.pgclient.PgPool;

public class PotRepository {
  private final PgPool client;
  PotRepository(PgPool client) { this.client = client; }
  public Object all() { return client.query("SELECT id, name FROM pots ORDER BY name").execute(); }
  public Object one(long id) { return client.preparedQuery("SELECT * FROM pots WHERE id = $1").execute(); }
}
"""


def test_sql_run_through_jdbc_and_reactive_clients_names_its_tables():
    assert stores({"src/main/java/Ledger.java": JDBC}) == [
        ("firings", "sql_table", None),
        ("kilns", "sql_table", None),
    ]
    assert stores({"src/main/java/PotRepository.java": PG_POOL}) == [("pots", "sql_table", "postgres")]


def test_text_that_is_not_a_statement_names_no_table():
    code = PG_POOL.replace("SELECT id, name FROM pots ORDER BY name", "ping").replace(
        "SELECT * FROM pots WHERE id = $1", "noop"
    )
    assert stores({"src/main/java/PotRepository.java": code}) == []


CONFIGURED_COLLECTION = """package org.kiln.archive;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import org.bson.Document;
import org.eclipse.microprofile.config.inject.ConfigProperty;

public class Archive {
  @ConfigProperty(name = "archive.collection", defaultValue = "firings")
  String collection;
  MongoClient mongo;

  MongoCollection<Document> col() { return mongo.getDatabase("kiln").getCollection(collection); }
}
"""

CONFIGURED_SQL = """package org.kiln.reports;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;

public class Reports {
  @Value("${reports.query}")
  private String query;
  private final JdbcTemplate jdbc;
  Reports(JdbcTemplate jdbc) { this.jdbc = jdbc; }
  public Object run() { return jdbc.queryForList(query); }
}
"""


def test_a_collection_named_by_configuration_stays_a_placeholder_the_builder_resolves():
    found = link({"src/main/java/Archive.java": CONFIGURED_COLLECTION}).entities
    assert [(e.name, e.engine_hint) for e in found] == [("${archive.collection:firings}", "mongodb")]


def test_sql_text_held_in_configuration_stays_a_placeholder_the_builder_reads():
    facts = link({"src/main/java/Reports.java": CONFIGURED_SQL})
    assert [(e.name, e.kind) for e in facts.entities] == [("${reports.query}", "sql_table")]
    assert facts.gaps == ()


def test_sql_text_mixing_configuration_and_run_time_values_is_a_gap_with_its_expression():
    code = CONFIGURED_SQL.replace("run()", "run(String where)").replace(
        "queryForList(query)", "queryForList(query + where)"
    )
    facts = link({"src/main/java/Reports.java": code})
    assert facts.entities == ()
    assert [(g.file, g.kind) for g in facts.gaps] == [("src/main/java/Reports.java", "unsupported")]
    assert "${reports.query}" in facts.gaps[0].reason


def test_a_name_computed_at_run_time_is_neither_an_entity_nor_a_gap():
    code = CONFIGURED_COLLECTION.replace(
        "getCollection(collection)", "getCollection(collection + System.nanoTime())"
    )
    facts = link({"src/main/java/Archive.java": code})
    assert facts.entities == () and facts.gaps == ()


TEMPLATE_CALLBACK = """package org.kiln.pipeline;

import org.springframework.data.redis.core.StringRedisTemplate;

public class BatchWriter {
  private final StringRedisTemplate template;
  BatchWriter(StringRedisTemplate template) { this.template = template; }
  public void flush(java.util.List<String> ids) {
    template.executePipelined(connection -> null);
    template.opsForGeo().add("kiln-sites", null, "north");
  }
  public void announce(String msg) { template.convertAndSend("kiln-events", msg); }
}
"""


def test_a_template_run_through_a_callback_stores_under_runtime_keys_and_publishing_stores_nothing():
    assert stores({"src/main/java/BatchWriter.java": TEMPLATE_CALLBACK}) == [
        ("*", "key_value", "redis"),
        ("kiln-sites", "key_value", "redis"),
    ]
    publish_only = TEMPLATE_CALLBACK.replace("template.executePipelined(connection -> null);", "").replace(
        'template.opsForGeo().add("kiln-sites", null, "north");', ""
    )
    assert stores({"src/main/java/BatchWriter.java": publish_only}) == []
