"""The message providers (brokers) orbitkb names, written once: the values of ``Message.provider``.

Every list of providers derives from this table — the analysis adapter's concrete brokers (a
provider named by code needs no configuration to pin it down) and the closed enum an LLM may answer
with when it describes a channel — so a new broker is a row here (and, in the analysis adapter,
the signatures and dependencies that reveal it).
"""

from __future__ import annotations

#: A channel whose broker neither code, configuration nor manifests name.
UNKNOWN_PROVIDER = "unknown"

#: The brokers (lower case, words joined by "-"), in the order they are listed.
PROVIDERS: tuple[str, ...] = (
    "kafka",
    "rabbitmq",
    "sqs",
    "sns",
    "nats",
    "redis",
    "activemq",
    "pubsub",
    "kinesis",
    "eventbridge",
    "mqtt",
    "azure-servicebus",
    "pulsar",
    "eventhubs",
    "ibmmq",
    "rocketmq",
    "solace",
    "azure-storage-queue",
)

#: What a describer may answer for a channel's provider: a known broker, or ``unknown``.
PROVIDER_CHOICES: tuple[str, ...] = (*PROVIDERS, UNKNOWN_PROVIDER)
