"""Message channels and providers resolved through configuration.

A channel expression is resolved like a URL (constants, env, properties). A Spring Cloud Stream
binding name becomes its ``destination``, a MicroProfile Reactive Messaging channel the topic (queue,
address...) its ``mp.messaging`` connector is configured with. When the code is transport-agnostic
(Spring Cloud Stream, Reactive Messaging, JMS, Celery, NestJS microservices...), the provider comes
from the binder or connector configuration, broker URLs in the service's config, then its dependency
manifests — else the code's word stands.
"""

from __future__ import annotations

from collections.abc import Iterable

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.service_config import ServiceConfig
from orbitkb.analysis.facts import Expr, Prop
from orbitkb.analysis.resolution import engines, functions
from orbitkb.analysis.resolution.values import Sentinels, resolve
from orbitkb.domain.providers import PROVIDERS

#: Brokers the code names outright (no configuration needed to pin them down): the domain's list.
CONCRETE = frozenset(PROVIDERS)
_BINDINGS = "spring.cloud.stream.bindings."
_BROKER_KEYS = ("BROKER", "KAFKA", "AMQP", "RABBIT", "NATS", "CELERY", "QUEUE", "BUS", "MQ")
_REACTIVE = "mp.messaging."
#: Reactive Messaging connector -> (provider, attributes naming the destination, first found wins);
#: unset, the destination is the channel's own name. RabbitMQ: the exchange is where publishers send
#: and consumers bind their own queues (``queue.name`` only names a consumer's queue)
REACTIVE_CONNECTORS: dict[str, tuple[str, tuple[str, ...]]] = {
    "smallrye-kafka": ("kafka", ("topic",)),
    "smallrye-amqp": ("amqp", ("address",)),
    "smallrye-rabbitmq": ("rabbitmq", ("exchange.name", "queue.name")),
    "smallrye-mqtt": ("mqtt", ("topic",)),
    "smallrye-pulsar": ("pulsar", ("topic",)),
    "smallrye-jms": ("jms", ("destination",)),
    "smallrye-gcp-pubsub": ("pubsub", ("topic",)),
    "smallrye-sqs": ("sqs", ("queue",)),
    "smallrye-jetstream": ("nats", ("subject",)),
}


def stream_destination(
    channel: str, direction: str, config: ServiceConfig
) -> tuple[str, ConfigValue, str] | None:
    """(destination, evidence, binding) of a Spring Cloud Stream binding named ``channel`` (or
    the functional binding ``channel-out-0`` / ``channel-in-0``)."""
    suffix = "-out-0" if direction == "publishes" else "-in-0"
    for binding in (channel, channel + suffix):
        composed = functions.composed_binding(binding, config)
        if composed is not None and not composed[0]:
            return None  # inside a composition: see internal_binding
        name = composed[0] if composed is not None else binding
        found = config.prop_candidates(f"{_BINDINGS}{name}.destination")
        if found and found[0].value.strip():
            return found[0].value.strip().split(",")[0], found[0], name
        if composed is not None:  # unset, the destination is the composed binding's own name
            return name, composed[1], name
    return None


def internal_binding(expr: Expr, config: ServiceConfig) -> bool:
    """A functional binding inside a composed function definition (``pack-out-0`` of
    ``pack|label``): the value never leaves the service, so there is no channel."""
    part = expr.parts[0] if len(expr.parts) == 1 else None
    if not isinstance(part, Prop) or not part.key.startswith(_BINDINGS) or part.default is None:
        return False  # function beans name their binding as this property, its default the binding
    composed = functions.composed_binding(part.default, config)
    return composed is not None and not composed[0]


def reactive_destination(
    channel: str, direction: str, config: ServiceConfig
) -> tuple[str, tuple[ConfigValue, ...], str] | None:
    """(destination, evidence, channel prefix) of a Reactive Messaging channel with a connector:
    ``mp.messaging.incoming.<channel>.connector`` set, the destination its attribute names or the
    channel itself."""
    prefix = f"{_REACTIVE}{'incoming' if direction == 'consumes' else 'outgoing'}.{channel}"
    connector = config.prop_candidates(f"{prefix}.connector")
    if not connector or not channel:
        return None
    _, attrs = REACTIVE_CONNECTORS.get(connector[0].value.strip(), ("", ("topic",)))
    for attr in attrs:
        found = config.prop_candidates(f"{prefix}.{attr}")
        if found and found[0].value.strip():
            return found[0].value.strip(), (connector[0], found[0]), prefix
    return channel, (connector[0],), prefix


def resolve_channel(
    expr: Expr, direction: str, config: ServiceConfig
) -> tuple[str, tuple[ConfigValue, ...], str | None]:
    """(channel, evidence, binding) — ``binding`` is the stream binding name (or the Reactive
    Messaging channel's property prefix) when one was used."""
    marks = Sentinels()
    res = resolve(expr, config, marks)
    text = marks.readable(res.text).strip()
    dest = stream_destination(text, direction, config)
    if dest is not None:
        return dest[0], (*res.evidence, dest[1]), dest[2]
    reactive = reactive_destination(text, direction, config)
    if reactive is not None:
        return reactive[0], (*res.evidence, *reactive[1]), reactive[2]
    return text, res.evidence, None


def _binder_provider(binding: str | None, config: ServiceConfig) -> str | None:
    names = []
    if binding:
        found = config.prop_candidates(f"{_BINDINGS}{binding}.binder")
        names += [v.value for v in found[:1]]
    names += [v.value for v in config.prop_candidates("spring.cloud.stream.default-binder")[:1]]
    for name in names:
        kind = config.prop_candidates(f"spring.cloud.stream.binders.{name}.type")
        return engines.normalize_provider(kind[0].value if kind else name)
    keys = config.props.keys()
    brokers: set[str] = set()
    if any(k.startswith(("spring.cloud.stream.kafka.", "spring.kafka.")) for k in keys):
        brokers.add("kafka")
    if any(k.startswith(("spring.cloud.stream.rabbit.", "spring.rabbitmq.")) for k in keys):
        brokers.add("rabbitmq")
    return next(iter(brokers)) if len(brokers) == 1 else None


def _config_provider(config: ServiceConfig) -> str | None:
    found = set()
    for value in config.values():
        if not any(word in value.key.upper() for word in _BROKER_KEYS):
            continue
        provider = engines.provider_from_url(value.value)
        if provider:
            found.add(provider)
        elif (
            "KAFKA" in value.key.upper()
            and "BOOTSTRAP" in value.key.upper()
            or value.key.upper() in ("KAFKA_BROKERS", "KAFKA_URL")
        ):
            found.add("kafka")
    return next(iter(found)) if len(found) == 1 else None


def resolve_provider(
    code_provider: str | None, binding: str | None, config: ServiceConfig, deps: Iterable[str]
) -> str:
    provider = engines.normalize_provider(code_provider)
    if provider in CONCRETE:
        return provider
    if binding and binding.startswith(_REACTIVE):
        connector = config.prop_candidates(f"{binding}.connector")
        known = REACTIVE_CONNECTORS.get(connector[0].value.strip()) if connector else None
        if known is not None:
            return engines.normalize_provider(known[0])
    found = (
        _binder_provider(binding, config)
        if provider in ("stream", "spring-cloud-stream", "unknown")
        else None
    )
    found = found or _config_provider(config)
    if not found:
        from_deps = engines.providers_from_deps(deps)
        found = next(iter(from_deps)) if len(from_deps) == 1 else None
    return found or provider
