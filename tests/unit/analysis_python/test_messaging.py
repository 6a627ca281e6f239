"""Messaging clients and Celery tasks (fixtures/workers_svc)."""

from pyana_support import apis, link_tree, messages

BUS = "workers_svc/worker/bus.py"
TASKS = "workers_svc/worker/tasks.py"


def test_every_broker_client_publish_and_subscribe_site():
    assert messages(link_tree("workers_svc")) == [
        (BUS, 20, "publishes", "sqs", "${ORDERS_QUEUE_URL:orders-queue}", None),
        (BUS, 21, "publishes", "sns", "order-events", None),
        (BUS, 22, "publishes", "redis", "orders:created", None),
        (BUS, 23, "publishes", "redis", "order-stream", None),
        (BUS, 24, "publishes", "kafka", "payments.requested", None),
        (BUS, 30, "publishes", "rabbitmq", "orders", None),
        (BUS, 31, "publishes", "rabbitmq", "emails", None),
        (BUS, 32, "consumes", "rabbitmq", "invoices", None),
        (BUS, 36, "consumes", "kafka", "stock.failed", None),
        (BUS, 36, "consumes", "kafka", "stock.reserved", None),
        (BUS, 38, "consumes", "kafka", "payments.done", None),
        (BUS, 40, "consumes", "redis", "inventory:changed", None),
        (BUS, 41, "consumes", "redis", "shipments", None),
        (BUS, 47, "publishes", "nats", "orders.shipped", None),
        (BUS, 48, "consumes", "nats", "orders.cancelled", None),
        (BUS, 52, "publishes", "rabbitmq", "audit", None),
        (TASKS, 7, "consumes", "celery", "billing.charge", "charge"),
        (TASKS, 13, "consumes", "celery", "worker.tasks.send_email", "send_email"),
        (TASKS, 19, "publishes", "celery", "billing.charge", None),
        (TASKS, 20, "publishes", "celery", "worker.tasks.send_email", None),
        (TASKS, 21, "publishes", "celery", "reports.rebuild", None),
    ]


def test_client_labels_name_the_library():
    clients = {(m.line, m.client) for m in link_tree("workers_svc").messages if m.file == BUS}
    assert {(20, "boto3"), (24, "confluent_kafka"), (30, "pika"), (36, "kafka"), (47, "nats")} <= clients


def test_celery_tasks_are_message_apis():
    facts = link_tree("workers_svc")
    assert apis(facts) == [
        ("CONSUME", "billing.charge", "charge", TASKS, 7),
        ("CONSUME", "worker.tasks.send_email", "send_email", TASKS, 13),
    ]
    charge = next(a for a in facts.apis if a.handler == "charge")
    assert (charge.kind, charge.channel, charge.provider, charge.doc) == (
        "message",
        "billing.charge",
        "celery",
        "Charge an order.",
    )
