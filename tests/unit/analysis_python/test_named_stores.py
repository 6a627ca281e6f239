"""Stores a Python service names through a client or a model class: boto3 DynamoDB tables,
Elasticsearch/OpenSearch indexes, PynamoDB, cqlengine and redis-om models."""

from pyana_support import link_sources


def entities(sources: dict[str, str]) -> list[tuple]:
    facts = link_sources(sources)
    return sorted((e.name, e.class_name, e.kind, e.engine_hint) for e in facts.entities)


def test_boto3_dynamodb_tables_through_a_resource_and_a_client():
    code = """
import os
import boto3

dynamodb = boto3.resource("dynamodb")
berths = dynamodb.Table(os.environ.get("BERTHS_TABLE", "harbor-berths"))
client = boto3.client("dynamodb", region_name="eu-west-1")


def book(item):
    berths.put_item(Item=item)
    client.put_item(TableName="berth-bookings", Item=item)


def cancel(key, table):
    client.delete_item(TableName=table, Key=key)
"""
    assert entities({"svc/berths.py": code}) == [
        ("${BERTHS_TABLE:harbor-berths}", None, "document_collection", "dynamodb"),
        ("berth-bookings", None, "document_collection", "dynamodb"),
    ]


def test_search_indexes_of_elasticsearch_and_opensearch_clients():
    code = """
from elasticsearch import Elasticsearch
from opensearchpy import OpenSearch

es = Elasticsearch("http://search:9200")
logs = OpenSearch(hosts=["opensearch"])


def keep(vessel):
    es.index(index="vessels", document=vessel)
    logs.index(index="harbor-logs", body=vessel)
    return es.search(index="vessels", query={"match_all": {}})
"""
    assert entities({"svc/search.py": code}) == [
        ("harbor-logs", None, "search_index", "opensearch"),
        ("vessels", None, "search_index", "elasticsearch"),
    ]


def test_index_and_search_of_lists_strings_and_other_clients_are_nothing():
    code = """
import re
import boto3

sqs = boto3.client("sqs")


def where(items, text):
    items.index("x")
    re.search("a", text)
    sqs.send_message(QueueUrl="q", MessageBody=text)
"""
    assert entities({"svc/misc.py": code}) == []


def test_pynamodb_cqlengine_and_redis_om_models():
    code = """
from pynamodb.models import Model as DynamoModel
from pynamodb.attributes import UnicodeAttribute
from cassandra.cqlengine import columns
from cassandra.cqlengine.models import Model as CqlModel
from redis_om import HashModel


class Pilot(DynamoModel):
    class Meta:
        table_name = "harbor-pilots"

    id = UnicodeAttribute(hash_key=True)


class TideReading(CqlModel):
    id = columns.UUID(primary_key=True)


class Buoy(CqlModel):
    __table_name__ = "buoys"
    id = columns.UUID(primary_key=True)


class Visitor(HashModel):
    name: str
"""
    assert entities({"svc/models.py": code}) == [
        ("Visitor", "Visitor", "key_value", "redis"),
        ("buoys", "Buoy", "sql_table", "cassandra"),
        ("harbor-pilots", "Pilot", "document_collection", "dynamodb"),
        ("tide_reading", "TideReading", "sql_table", "cassandra"),
    ]
