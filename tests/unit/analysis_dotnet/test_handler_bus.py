"""NServiceBus and Rebus: a class handling ``IHandleMessages<T>`` (or a saga started by it) consumes
``T``; ``Send``/``Publish``/``Reply`` of a message on the endpoint, the session or a handler's
context publishes its type (created inline, held in a local, or given as a type argument); the
provider is the configured transport. ``SendLocal``, a mediator's ``Send`` and the same code without
either library are no channels."""

from __future__ import annotations

from .helpers import link, show

HANDLER = """
using NServiceBus;

public class ChargeCardHandler : IHandleMessages<ChargeCard>
{
    public async Task Handle(ChargeCard message, IMessageHandlerContext context)
    {
        await context.Reply(new CardCharged { Id = message.Id });
        await context.Publish(new PaymentTaken { Id = message.Id });
        await context.SendLocal(new AuditPayment());
    }
}
"""

TRANSPORT = """
using NServiceBus;

public static class Wiring
{
    public static EndpointConfiguration Build()
    {
        var config = new EndpointConfiguration("billing");
        var transport = config.UseTransport<RabbitMQTransport>();
        return config;
    }
}
"""

TOP_LEVEL = """
using NServiceBus;

var config = new EndpointConfiguration("till");
config.UseTransport(new AzureServiceBusTransport("Endpoint=sb://x"));
var endpoint = await Endpoint.Start(config);
var charge = new ChargeCard { Id = 1 };
await endpoint.Send(charge);
await endpoint.Send("billing", new VoidCard());
"""

SAGA = """
using NServiceBus;

public class RefundSaga : Saga<RefundData>, IAmStartedByMessages<RefundAsked>, IHandleMessages<RefundApproved>
{
    private readonly IMessageSession _session;
    public Task Notify() => _session.Publish<RefundClosed>(m => { m.Id = 1; });
}
"""

REBUS = """
using Rebus.Bus;
using Rebus.Config;
using Rebus.Handlers;

public class ShelfStocked : IHandleMessages<StockArrived>
{
    private readonly IBus _bus;
    public Task Handle(StockArrived m) => _bus.Publish(new ShelfFilled());
}

public static class Setup
{
    public static void Add(IServiceCollection s) =>
        s.AddRebus(c => c.Transport(t => t.UseRabbitMq("amqp://mq", "shelves")));
}
"""


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, str, int]]:
    facts = link(files)
    return sorted((m.direction, show(m.channel), m.provider, m.client, m.line) for m in facts.messages)


def test_a_handler_consumes_its_message_and_publishes_what_its_context_sends() -> None:
    assert _messages({"svc/ChargeCardHandler.cs": HANDLER, "svc/Wiring.cs": TRANSPORT}) == [
        ("consumes", "ChargeCard", "rabbitmq", "nservicebus", 3),
        ("publishes", "CardCharged", "rabbitmq", "nservicebus", 7),
        ("publishes", "PaymentTaken", "rabbitmq", "nservicebus", 8),  # not the SendLocal to itself
    ]


def test_sends_from_top_level_statements_through_a_local_or_to_a_named_destination() -> None:
    assert _messages({"svc/Program.cs": TOP_LEVEL}) == [
        ("publishes", "ChargeCard", "azure-servicebus", "nservicebus", 7),
        ("publishes", "VoidCard", "azure-servicebus", "nservicebus", 8),
    ]


def test_a_saga_and_a_generic_publish_without_a_transport() -> None:
    assert _messages({"svc/RefundSaga.cs": SAGA}) == [
        ("consumes", "RefundApproved", "unknown", "nservicebus", 3),
        ("consumes", "RefundAsked", "unknown", "nservicebus", 3),
        ("publishes", "RefundClosed", "unknown", "nservicebus", 6),
    ]


def test_rebus_handlers_and_bus() -> None:
    assert _messages({"svc/Shelf.cs": REBUS}) == [
        ("consumes", "StockArrived", "rabbitmq", "rebus", 5),
        ("publishes", "ShelfFilled", "rabbitmq", "rebus", 8),
    ]


def test_the_same_code_without_the_libraries_and_a_mediator_send_are_no_messages() -> None:
    assert (
        _messages({"svc/ChargeCardHandler.cs": HANDLER.replace("using NServiceBus;", "using Tills;")}) == []
    )
    mediator = """
using NServiceBus;

public class Checkout
{
    private readonly IMediator _mediator;
    public Task Go() => _mediator.Send(new PlaceOrder());
}
"""
    assert _messages({"svc/Checkout.cs": mediator}) == []
