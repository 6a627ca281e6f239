"""Framework and library signatures for Node/TypeScript, as data: adding a library is adding a row.

A callee is named by (module, path): the module it was imported from (or the bare global name when
not imported) and the member path after the import, e.g. `import axios from "axios"; axios.get(..)`
-> ("axios", "get"); `import { Router } from "express"; Router()` -> ("express", "Router").
"""

from __future__ import annotations

HTTP_VERBS = {
    "get": "GET",
    "post": "POST",
    "put": "PUT",
    "patch": "PATCH",
    "delete": "DELETE",
    "del": "DELETE",
    "options": "OPTIONS",
    "head": "HEAD",
    "all": "ALL",
}

# Objects a factory or constructor call creates: (module, path) -> object kind.
FACTORIES: dict[tuple[str, str], str] = {
    ("express", ""): "express_app",
    ("express", "Router"): "express_router",
    ("express", "express"): "express_app",
    ("router", ""): "express_router",
    ("fastify", ""): "fastify_app",
    ("fastify", "fastify"): "fastify_app",
    ("fastify", "default"): "fastify_app",
    ("koa", ""): "koa_app",
    ("@koa/router", ""): "koa_router",
    ("koa-router", ""): "koa_router",
    ("axios", "create"): "http_instance",
    ("got", "extend"): "http_instance",
    ("ky", "create"): "http_instance",  # ky's base URL is its ``prefixUrl``
    ("ky", "extend"): "http_instance",
    ("http", "createServer"): "server",
    ("https", "createServer"): "server",
}

ROUTER_KINDS = frozenset({"express_app", "express_router", "fastify_app", "koa_app", "koa_router"})
FRAMEWORK_OF = {
    "express_app": "express",
    "express_router": "express",
    "fastify_app": "fastify",
    "koa_app": "koa",
    "koa_router": "koa",
}
# Options keys holding the base URL of an HTTP client instance.
BASE_URL_KEYS = ("baseURL", "baseUrl", "prefixUrl", "prefixURL")

# Direct HTTP client calls: (module, path) -> (client name, method or None = read from options).
HTTP_CLIENTS: dict[tuple[str, str], tuple[str, str | None]] = {
    ("fetch", ""): ("fetch", None),
    ("node-fetch", ""): ("node-fetch", None),
    ("cross-fetch", ""): ("fetch", None),
    ("isomorphic-fetch", ""): ("fetch", None),
    ("undici", "fetch"): ("fetch", None),
    ("undici", "request"): ("undici", None),
    ("axios", ""): ("axios", None),
    ("axios", "request"): ("axios", None),
    ("got", ""): ("got", None),
    ("request", ""): ("request", None),
    ("request-promise", ""): ("request", None),
    ("request-promise-native", ""): ("request", None),
    ("superagent", ""): ("superagent", None),
    ("needle", ""): ("needle", None),
    # Node's own clients: a URL, or options naming host, port and path
    ("http", "request"): ("http", None),
    ("https", "request"): ("https", None),
    ("http", "get"): ("http", "GET"),
    ("https", "get"): ("https", "GET"),
    ("node:http", "request"): ("http", None),
    ("node:https", "request"): ("https", None),
    ("node:http", "get"): ("http", "GET"),
    ("node:https", "get"): ("https", "GET"),
}
for _verb, _method in HTTP_VERBS.items():
    if _verb == "all":
        continue
    for _module in ("axios", "got", "superagent", "request", "request-promise", "needle", "ky"):
        HTTP_CLIENTS[(_module, _verb)] = (_module.split("-")[0], _method)

# Clients called with the verb first when called as a function: `needle("post", url, body)`.
METHOD_FIRST_CLIENTS = frozenset({"needle"})
# Clients called with the base URL and then the verb: `supertest(base).post("/orders")`.
BASE_THEN_VERB_CLIENTS: dict[tuple[str, str], str] = {("supertest", ""): "supertest"}

# Member calls on an HTTP client instance (axios.create(), got.extend(), NestJS HttpService).
INSTANCE_VERBS = {verb: method for verb, method in HTTP_VERBS.items() if verb != "all"}
INSTANCE_VERBS["request"] = ""
# Declared types of injected HTTP clients (constructor parameters / fields).
HTTP_CLIENT_TYPES = {"HttpService": "HttpService", "AxiosInstance": "axios", "Got": "got"}

# Messaging: module -> provider, used to tell what a `.publish()` or `.subscribe()` talks to.
MESSAGE_MODULES = {
    "kafkajs": "kafka",
    "node-rdkafka": "kafka",
    "@confluentinc/kafka-javascript": "kafka",
    "kafka-node": "kafka",
    "amqplib": "rabbitmq",
    "amqplib/callback_api": "rabbitmq",
    "amqp-connection-manager": "rabbitmq",
    "@golevelup/nestjs-rabbitmq": "rabbitmq",
    "rascal": "rabbitmq",
    "nats": "nats",
    "node-nats-streaming": "nats",
    "ioredis": "redis",
    "redis": "redis",
    "@aws-sdk/client-sqs": "sqs",
    "@aws-sdk/client-sns": "sns",
    "sqs-consumer": "sqs",
    "aws-sdk": "aws",
    "mqtt": "mqtt",
    "async-mqtt": "mqtt",
    "@dapr/dapr": "dapr",
    "dapr-client": "dapr",
    "@azure/service-bus": "azure-servicebus",
    # AMQP 1.0 clients: the broker (Artemis, Qpid, Service Bus, RabbitMQ's plugin) is the configuration's word
    "rhea": "amqp-1.0",
    "rhea-promise": "amqp-1.0",
}
#: the provider a message of a MESSAGE_MODULES family is recorded under, when not the family itself
PROVIDER_LABELS = {"amqp-1.0": "unknown"}
#: AMQP 1.0 links opened with an options object: the key holding the address, per direction
#: (`open_sender({ target: { address: "orders" } })`, `open_receiver({ source: "orders" })`)
AMQP_LINK_KEYS = {"publishes": "target", "consumes": "source"}
# `.method(...)` -> (direction, channel argument index) per provider.
MESSAGE_METHODS: dict[str, dict[str, tuple[str, int]]] = {
    "rabbitmq": {
        "publish": ("publishes", 0),
        "sendToQueue": ("publishes", 0),
        "consume": ("consumes", 0),
    },
    "nats": {"publish": ("publishes", 0), "request": ("publishes", 0), "subscribe": ("consumes", 0)},
    "redis": {
        "publish": ("publishes", 0),
        "xadd": ("publishes", 0),
        "subscribe": ("consumes", 0),
        "psubscribe": ("consumes", 0),
        "xreadgroup": ("consumes", -1),
    },
    "mqtt": {"publish": ("publishes", 0), "subscribe": ("consumes", 0), "subscribeAsync": ("consumes", 0)},
    # Dapr SDK: `client.pubsub.publish(pubsubName, topic, data)`, `server.pubsub.subscribe(pubsubName, topic, cb)`
    "dapr": {"publish": ("publishes", 1), "subscribe": ("consumes", 1), "subscribeWithOptions": ("consumes", 1)},
    # `sbClient.createSender(queueOrTopic)`, `sbClient.createReceiver(queue)` / `(topic, subscription)`
    "azure-servicebus": {"createSender": ("publishes", 0), "createReceiver": ("consumes", 0)},
    # rhea `connection.open_sender(address)`, rhea-promise `connection.createSender(options)`
    "amqp-1.0": {
        "open_sender": ("publishes", 0),
        "open_receiver": ("consumes", 0),
        "attach_sender": ("publishes", 0),
        "attach_receiver": ("consumes", 0),
        "createSender": ("publishes", 0),
        "createAwaitableSender": ("publishes", 0),
        "createReceiver": ("consumes", 0),
    },
}
# AWS SDK v3 commands and v2 methods whose options name the queue or topic.
AWS_COMMANDS = {
    "SendMessageCommand": ("publishes", "sqs", "QueueUrl"),
    "SendMessageBatchCommand": ("publishes", "sqs", "QueueUrl"),
    "ReceiveMessageCommand": ("consumes", "sqs", "QueueUrl"),
    "PublishCommand": ("publishes", "sns", "TopicArn"),
    "PublishBatchCommand": ("publishes", "sns", "TopicArn"),
}
AWS_V2_METHODS = {
    "sendMessage": ("publishes", "sqs", "QueueUrl"),
    "sendMessageBatch": ("publishes", "sqs", "QueueUrl"),
    "receiveMessage": ("consumes", "sqs", "QueueUrl"),
}
# NestJS microservices: Transport.X -> provider.
NEST_TRANSPORTS = {
    "KAFKA": "kafka",
    "RMQ": "rabbitmq",
    "REDIS": "redis",
    "NATS": "nats",
    "MQTT": "mqtt",
    "TCP": "tcp",
    "GRPC": "grpc",
}
NEST_CLIENT_TYPES = frozenset(
    {"ClientProxy", "ClientKafka", "ClientRMQ", "ClientRedis", "ClientNats", "ClientMqtt"}
)

# NestJS route decorators.
NEST_METHODS = {
    "Get": "GET",
    "Post": "POST",
    "Put": "PUT",
    "Patch": "PATCH",
    "Delete": "DELETE",
    "Options": "OPTIONS",
    "Head": "HEAD",
    "All": "ALL",
    "Sse": "GET",  # a server-sent event stream is a GET the response keeps open
}
NEST_MESSAGE_DECORATORS = {"MessagePattern": "MessagePattern", "EventPattern": "EventPattern"}
