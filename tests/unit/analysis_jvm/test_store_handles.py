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
