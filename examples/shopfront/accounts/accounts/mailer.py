"""Queues transactional e-mails on RabbitMQ; the notifications service sends them."""

import json

import pika
from flask import current_app

from accounts.constants import EMAIL_QUEUE


def queue_welcome_email(email: str, first_name: str) -> None:
    params = pika.URLParameters(current_app.config["RABBITMQ_URL"])
    connection = pika.BlockingConnection(params)
    try:
        channel = connection.channel()
        channel.queue_declare(queue=EMAIL_QUEUE, durable=True)
        body = json.dumps({"template": "welcome", "to": email, "vars": {"first_name": first_name}})
        channel.basic_publish(exchange="", routing_key=EMAIL_QUEUE, body=body, properties=pika.BasicProperties(delivery_mode=2))
    finally:
        connection.close()
