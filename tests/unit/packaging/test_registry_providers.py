"""One registry of message providers: ``orbitkb.domain.providers`` is the list; the analysis
adapter's concrete brokers, the broker words of its data tables and the enum an LLM answers with
all come from it or stay inside it."""

from __future__ import annotations

import pytest

from orbitkb.analysis.dapr import components
from orbitkb.analysis.dotnet import handlerbus
from orbitkb.analysis.dotnet import messaging as dotnet_messaging
from orbitkb.analysis.resolution import channels, engines
from orbitkb.domain.engines import ENGINES
from orbitkb.domain.enrichment.schemas import messaging_schema
from orbitkb.domain.enrichment.validate import validate
from orbitkb.domain.providers import PROVIDER_CHOICES, PROVIDERS, UNKNOWN_PROVIDER

#: Words of the analysis tables that name a protocol or an API, not a broker: the configuration
#: decides the broker behind them.
_NOT_BROKERS = {"jms"}
#: Transports of a .NET service bus that are no broker: in-process ones, and a database used as a
#: queue (named by its engine, from ``orbitkb.domain.engines``).
_NOT_BROKER_TRANSPORTS = {"inmemory", "learning"}


def _table_brokers() -> set[str]:
    tables = engines.tables()
    named = {*tables["broker_schemes"].values(), *tables["message_dependencies"].values(),
             *tables["provider_aliases"].values()}
    named |= {engines.normalize_provider(p) for p, _ in channels.REACTIVE_CONNECTORS.values()}
    named |= {b for b in components._table()["pubsub"].values()}
    named |= {b for b, _, _ in components._bindings().values()}
    return {n for n in named if n} - _NOT_BROKERS


def _transports() -> set[str]:
    return {*handlerbus.TRANSPORTS.values(), *dotnet_messaging.TRANSPORTS.values()} - _NOT_BROKER_TRANSPORTS


def test_the_concrete_brokers_of_the_analysis_are_the_domain_list() -> None:
    assert channels.CONCRETE == frozenset(PROVIDERS)
    assert len(set(PROVIDERS)) == len(PROVIDERS) and UNKNOWN_PROVIDER not in PROVIDERS


def test_every_broker_the_analysis_tables_name_is_in_the_domain_list() -> None:
    assert _table_brokers() - set(PROVIDERS) == set()


def test_every_transport_a_dotnet_bus_names_is_a_broker_or_an_engine() -> None:
    assert _transports() - set(PROVIDERS) - set(ENGINES) == set()
    assert {"azure-storage-queue", "azure-servicebus", "sqs"} <= _transports()


def test_the_llm_answers_with_the_domain_list_or_unknown() -> None:
    schema = messaging_schema(["m1"])
    assert schema["properties"]["messages"]["items"]["properties"]["provider"]["enum"] == list(PROVIDER_CHOICES)
    assert PROVIDER_CHOICES == (*PROVIDERS, "unknown")


@pytest.mark.parametrize("provider", ["azure-servicebus", "kinesis", "pulsar", "unknown"])
def test_a_provider_the_facts_use_is_a_valid_llm_answer(provider: str) -> None:
    answer = {"messages": [{"ref": "m1", "description": "an order was paid", "provider": provider}]}
    assert validate(answer, messaging_schema(["m1"])) == []


@pytest.mark.parametrize("provider", ["azure_servicebus", "Kafka", "kafka-streams", ""])
def test_a_spelling_the_facts_never_use_is_refused(provider: str) -> None:
    answer = {"messages": [{"ref": "m1", "description": "an order was paid", "provider": provider}]}
    assert validate(answer, messaging_schema(["m1"]))


@pytest.mark.parametrize(("component", "broker"), [
    ("pubsub.azure.servicebus.topics", "azure-servicebus"), ("pubsub.azure.servicebus.queues", "azure-servicebus"),
    ("pubsub.solace.amqp", "solace"), ("pubsub.kafka", "kafka"), ("pubsub.in-memory", None),
])
def test_dapr_names_a_broker_as_every_other_stack_does(component: str, broker: str | None) -> None:
    assert components.technology(component) == ("pubsub", broker)
