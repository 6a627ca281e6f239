"""Channels named by the request that looked the resource up: ``get_queue_url(QueueName=...)``,
``create_queue`` and ``create_topic`` responses; kombu producers publishing to an ``Exchange``."""

from pyana_support import link_sources, show

AWS = '''
import os
import boto3

sqs = boto3.client("sqs")
sns = boto3.client("sns", region_name="eu-west-1")
REFUNDS = "refunds"
REFUNDS_URL = sqs.get_queue_url(QueueName=REFUNDS)["QueueUrl"]


def send_refund(body):
    sqs.send_message(QueueUrl=REFUNDS_URL, MessageBody=body)


def drain():
    url = sqs.get_queue_url(QueueName=os.getenv("AUDIT_QUEUE", "audit"))["QueueUrl"]
    sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)


def announce(body):
    created = sqs.create_queue(QueueName="shipments")
    sqs.send_message(QueueUrl=created["QueueUrl"], MessageBody=body)
    topic = sns.create_topic(Name="price-changes")["TopicArn"]
    sns.publish(TopicArn=topic, Message=body)


def reply(body, response):
    sqs.send_message(QueueUrl=response["QueueUrl"], MessageBody=body)
'''

KOMBU = '''
from kombu import Connection, Exchange, Producer

invoices = Exchange("invoices", type="topic")


def emit(body):
    with Connection("amqp://mq") as conn:
        producer = Producer(conn.channel())
        producer.publish(body, exchange=invoices, routing_key="invoice.created")
        producer.publish(body, routing_key="receipts")
        producer.publish(body, exchange="", routing_key="ledger")
'''


def _flows(facts):
    return sorted((m.line, m.direction, m.provider, show(m.channel)) for m in facts.messages)


def test_aws_queues_and_topics_named_by_the_lookup_request():
    facts = link_sources({"svc/aws.py": AWS})
    assert _flows(facts) == [
        (12, "publishes", "sqs", "refunds"),
        (17, "consumes", "sqs", "${AUDIT_QUEUE:audit}"),
        (22, "publishes", "sqs", "shipments"),
        (24, "publishes", "sns", "price-changes"),
    ]
    # a response nothing in the code names stays one gap
    assert [g.reason for g in facts.gaps] == [
        "sqs publishes at line 28: channel not resolved ({response[QueueUrl]})"
    ]


def test_kombu_producer_publishes_to_its_exchange_else_the_routing_key():
    assert _flows(link_sources({"svc/emit.py": KOMBU})) == [
        (10, "publishes", "rabbitmq", "invoices"),
        (11, "publishes", "rabbitmq", "receipts"),
        (12, "publishes", "rabbitmq", "ledger"),
    ]
