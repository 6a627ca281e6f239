"""Tables and collections a service opens by name in code (DynamoDB document API and enhanced
client, the MongoDB driver) or names with ``@DynamoDBTable`` are persisted entities."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo", ()), parsed)


def entities(files: dict[str, str]) -> list[tuple[str, str, str | None, int]]:
    return sorted((e.name, e.kind, e.engine_hint, e.start_line) for e in link(files).entities)


DOCUMENT_API = """package org.harbor.berths;

import com.amazonaws.services.dynamodbv2.document.DynamoDB;
import com.amazonaws.services.dynamodbv2.document.Table;

public class BerthLedger {
  public static final String BERTHS = "harbor-berths";
  private final Table table;

  public BerthLedger(DynamoDB dynamo) {
    this.table = dynamo.getTable(BERTHS);
  }
}
"""

ENHANCED_KT = """package org.harbor.tides

import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient
import software.amazon.awssdk.enhanced.dynamodb.TableSchema

class TideStore(private val client: DynamoDbEnhancedClient) {
    private val prefix = "harbor"
    fun readings() = client.table("$prefix-tides", TableSchema.fromBean(Tide::class.java))
}
"""

MAPPER = """package org.harbor.cranes;

import com.amazonaws.services.dynamodbv2.datamodeling.DynamoDBTable;

@DynamoDBTable(tableName = "harbor-cranes")
public class Crane { private String id; }
"""

MONGO_DRIVER = """package org.harbor.cargo;

import com.mongodb.client.MongoDatabase;

public class Manifests {
  void open(MongoDatabase db) {
    db.getCollection("manifests");
  }
}
"""


def test_tables_opened_by_name_and_the_mapper_annotation():
    found = entities(
        {
            "src/main/java/BerthLedger.java": DOCUMENT_API,
            "src/main/kotlin/TideStore.kt": ENHANCED_KT,
            "src/main/java/Crane.java": MAPPER,
            "src/main/java/Manifests.java": MONGO_DRIVER,
        }
    )
    assert found == [
        ("harbor-berths", "document_collection", "dynamodb", 11),
        ("harbor-cranes", "document_collection", "dynamodb", 6),
        ("harbor-tides", "document_collection", "dynamodb", 8),
        ("manifests", "document_collection", "mongodb", 7),
    ]


def test_untyped_receivers_and_unknown_names_are_not_entities():
    untyped = DOCUMENT_API.replace("DynamoDB dynamo", "Object dynamo")
    unknown = DOCUMENT_API.replace("getTable(BERTHS)", "getTable(tableName())")
    sheet = """package org.harbor.sheets;
public class Sheet { void f(Workbook book) { book.getTable("summary"); } }
"""
    assert (
        entities({"a/BerthLedger.java": untyped, "b/BerthLedger.java": unknown, "c/Sheet.java": sheet}) == []
    )


BEAN = """package org.harbor.docks;

import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbBean;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;

@DynamoDbBean
public class DockSlot {
  private String id;
  @DynamoDbPartitionKey
  public String getId() { return id; }
}
"""

BEAN_OPENED_BY_SETTING = """package org.harbor.docks;

import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;

public class DockSlots {
  static final TableSchema<DockSlot> SCHEMA = TableSchema.fromBean(DockSlot.class);
  public DockSlots(DynamoDbEnhancedClient client, String tableName) {
    client.table(tableName, SCHEMA);
  }
}
"""

BEAN_OPENED_BY_NAME = """package org.harbor.docks;

import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;

public class DockSlots {
  public DockSlots(DynamoDbEnhancedClient client) {
    client.table("harbor-dock-slots", TableSchema.fromBean(DockSlot.class));
  }
}
"""

IMMUTABLE_KT = """package org.harbor.locks

import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbImmutable

@DynamoDbImmutable(builder = Lock.Builder::class)
class Lock(val id: String)
"""


def linked(files: dict[str, str]) -> list[tuple[str, str | None, str | None]]:
    return sorted((e.name, e.class_name, e.engine_hint) for e in link(files).entities)


def test_an_enhanced_client_bean_is_a_dynamodb_entity_named_by_its_class_when_the_table_name_is_a_setting():
    assert linked({"src/main/java/DockSlot.java": BEAN, "src/main/java/DockSlots.java": BEAN_OPENED_BY_SETTING}) == [
        ("DockSlot", "DockSlot", "dynamodb")
    ]
    assert linked({"src/main/kotlin/Lock.kt": IMMUTABLE_KT}) == [("Lock", "Lock", "dynamodb")]


def test_a_table_opened_by_name_with_a_bean_schema_is_one_entity_with_both_names():
    found = linked({"src/main/java/DockSlot.java": BEAN, "src/main/java/DockSlots.java": BEAN_OPENED_BY_NAME})
    assert found == [("harbor-dock-slots", "DockSlot", "dynamodb")]


def test_dynamodb_key_annotations_without_a_bean_annotation_are_not_entities():
    plain = BEAN.replace("@DynamoDbBean\n", "")
    spring_bean = """package org.harbor.docks;
import org.springframework.context.annotation.Bean;
public class Wiring { @Bean public Object slots() { return new Object(); } }
"""
    assert linked({"src/main/java/DockSlot.java": plain, "src/main/java/Wiring.java": spring_bean}) == []


JDBC = """package org.harbor.tolls;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

public class TollLedger {
  private static final String PAID = "SELECT t.id FROM tolls t JOIN toll_payments p ON p.toll_id = t.id";
  private final JdbcTemplate jdbc;
  private final NamedParameterJdbcTemplate named;

  public TollLedger(JdbcTemplate jdbc, NamedParameterJdbcTemplate named) {
    this.jdbc = jdbc;
    this.named = named;
  }

  public void charge(String id) { jdbc.update("INSERT INTO tolls (id) VALUES (?)", id); }
  public Object paid() { return jdbc.queryForList(PAID); }
  public Object byGate(String gate) { return named.query("select * from toll_gates where id = :gate", java.util.Map.of("gate", gate), (rs, i) -> 1); }
  public Object dynamic(String table) { return jdbc.queryForList("SELECT * FROM " + table); }
}
"""

MONGO_TEMPLATE_KT = """package org.harbor.logs

import org.springframework.data.mongodb.core.MongoTemplate

class PierLog(private val mongo: MongoTemplate) {
    fun all() = mongo.findAll(Entry::class.java, "pier_log")
    fun write(e: Entry) = mongo.insert(e, "pier_log_archive")
    fun typed() = mongo.findAll(Entry::class.java)
}
"""


def test_tables_of_statements_a_jdbc_template_runs_and_collections_a_mongo_template_names():
    found = linked({"src/main/java/TollLedger.java": JDBC, "src/main/kotlin/PierLog.kt": MONGO_TEMPLATE_KT})
    assert found == [
        ("pier_log", None, "mongodb"),
        ("pier_log_archive", None, "mongodb"),
        ("toll_gates", None, None),
        ("toll_payments", None, None),
        ("tolls", None, None),
    ]


def test_a_statement_on_a_table_a_mapped_class_declares_adds_no_second_entity():
    entity = """package org.harbor.tolls;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
@Entity
@Table(name = "tolls")
public class Toll { @jakarta.persistence.Id private String id; }
"""
    found = linked({"src/main/java/TollLedger.java": JDBC, "src/main/java/Toll.java": entity})
    assert [row for row in found if row[0] == "tolls"] == [("tolls", "Toll", None)]


def test_sql_text_and_collection_names_on_untyped_receivers_are_not_entities():
    untyped = JDBC.replace("private final JdbcTemplate jdbc;", "private final Object jdbc;").replace(
        "NamedParameterJdbcTemplate named;", "Object named;"
    )
    assert linked({"src/main/java/TollLedger.java": untyped}) == []


REDIS_TEMPLATE = """package org.harbor.sessions;

import org.springframework.data.redis.core.StringRedisTemplate;

public class PilotSessions {
  private static final String PREFIX = "pilot-session:";
  private final StringRedisTemplate redis;

  public PilotSessions(StringRedisTemplate redis) { this.redis = redis; }

  public void open(String id, String token) { redis.opsForValue().set(PREFIX + id, token); }
  public void visit(String id) { redis.opsForHash().increment("pilot-visits:" + id, "n", 1); }
  public void close(String id) { redis.delete(id); }
}
"""

JEDIS_KT = """package org.harbor.locks

import redis.clients.jedis.Jedis

class LockTable(private val jedis: Jedis) {
    fun take(berth: String) = jedis.setnx("berth-lock:$berth", "1")
}
"""


def test_redis_key_spaces_of_templates_and_clients():
    found = linked({"src/main/java/PilotSessions.java": REDIS_TEMPLATE, "src/main/kotlin/LockTable.kt": JEDIS_KT})
    assert found == [
        ("*", None, "redis"),
        ("berth-lock", None, "redis"),
        ("pilot-session", None, "redis"),
        ("pilot-visits", None, "redis"),
    ]


def test_the_same_verbs_on_maps_and_untyped_receivers_are_not_redis():
    code = """package org.harbor.sessions;
import java.util.Map;
public class Notes {
  private final Map<String, String> notes;
  private final Object redis;
  Notes(Map<String, String> notes, Object redis) { this.notes = notes; this.redis = redis; }
  public void keep(String id) { notes.put("note:" + id, "x"); notes.get("note:" + id); }
}
"""
    assert linked({"src/main/java/Notes.java": code}) == []
