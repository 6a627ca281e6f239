"""A messaging helper whose broker call sits in a nested function (a thread target, a callback, a
closure it calls itself) reports the channel at the helper's call sites, bound to the argument."""

from pyana_support import link_sources, show

THREAD_TARGET = """
import os
import threading
import pika

INBOX = os.getenv("REFUNDS_INBOX", "refunds.inbox")


def listen(queue_name, on_message):
    def _loop():
        channel = pika.BlockingConnection(pika.URLParameters("amqp://mq")).channel()
        channel.queue_declare(queue=queue_name, durable=True)
        channel.basic_consume(queue=queue_name, on_message_callback=on_message)
        channel.start_consuming()

    threading.Thread(target=_loop, daemon=True).start()


def boot():
    listen(queue_name=INBOX, on_message=print)
    listen("ledger.audit", print)
"""

RETRIED_CALLBACK = """
import pika

EXCHANGE = "billing.events"


def with_retry(action):
    for _ in range(3):
        try:
            return action()
        except ConnectionError:
            continue


def announce(exchange, key, body):
    def send():
        channel = pika.BlockingConnection(pika.ConnectionParameters("mq")).channel()
        channel.basic_publish(exchange=exchange, routing_key=key, body=body)

    return with_retry(send)


def invoice_paid(body):
    announce(EXCHANGE, "invoice.paid", body)
"""

CALLED_BY_NAME = """
import pika


def drain(queue):
    def attach(channel):
        channel.basic_consume(queue=queue, on_message_callback=print)

    channel = pika.BlockingConnection(pika.ConnectionParameters("mq")).channel()
    attach(channel)
    channel.start_consuming()


def main():
    drain("shipments.q")
"""


def _flows(src: str) -> list[tuple[str, str | None, int]]:
    facts = link_sources({"svc/app.py": src})
    return sorted((m.direction, show(m.channel), m.line) for m in facts.messages)


def test_a_thread_target_consumes_the_queue_each_caller_names():
    got = _flows(THREAD_TARGET)
    assert [(d, ch) for d, ch, _ in got] == [
        ("consumes", "${REFUNDS_INBOX:refunds.inbox}"),  # the env var's default
        ("consumes", "ledger.audit"),
    ]
    assert sorted(line for *_, line in got) == [20, 21]  # the call sites, not the nested function


def test_a_callback_handed_to_a_retry_helper_publishes_where_the_helper_is_called():
    got = _flows(RETRIED_CALLBACK)
    assert ("publishes", "billing.events", 24) in got
    assert not any(ch is None or "exchange" in ch for _d, ch, _l in got)


def test_a_nested_function_called_by_name_binds_at_the_outer_call_site():
    assert [(d, ch) for d, ch, _ in _flows(CALLED_BY_NAME)] == [("consumes", "shipments.q")]
