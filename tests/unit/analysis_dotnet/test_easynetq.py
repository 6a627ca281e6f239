"""EasyNetQ: the advanced API (an exchange declared by name, kept in a field or a local, then
published on or bound to), publish/subscribe by message type (current and pre-6 API), send/receive
on a named queue, and calls of the same names that are not EasyNetQ."""

from __future__ import annotations

from .helpers import link, show

ADVANCED_FIELD = """
using EasyNetQ;
using EasyNetQ.Topology;

public class Relay
{
    private readonly IBus bus;
    private readonly Exchange hub;

    public Relay(IBus bus)
    {
        this.bus = bus;
        this.hub = bus.Advanced.ExchangeDeclare("harbour", ExchangeType.Topic);
    }

    public async Task Forward(Crate crate)
    {
        await bus.Advanced.PublishAsync(hub, crate.Kind.ToLower(), true, new Message<Crate>(crate));
    }
}
"""

ADVANCED_LISTENER = """
using EasyNetQ;
using EasyNetQ.Topology;

public class DockListener
{
    private readonly IBus client;
    private readonly Exchange exchange;

    public DockListener(IBus client)
    {
        this.client = client;
        exchange = client.Advanced.ExchangeDeclare(Names.Harbour, ExchangeType.Topic);
    }

    private void Listen<T>()
    {
        var queue = client.Advanced.QueueDeclare("dock-" + typeof(T).Name);
        client.Advanced.Bind(exchange, queue, typeof(T).Name.ToLower());
        client.Advanced.Consume(queue, (IMessage<T> m, MessageReceivedInfo info) => Task.CompletedTask);
    }
}

public static class Names { public const string Harbour = "harbour"; }
"""

ADVANCED_LOCALS = """
using EasyNetQ;
using EasyNetQ.Topology;

public class Sorter
{
    public void Wire(IAdvancedBus advanced)
    {
        var audits = advanced.ExchangeDeclare("audits", ExchangeType.Fanout);
        var alerts = advanced.ExchangeDeclare("alerts", ExchangeType.Fanout);
        advanced.Publish(alerts, "", false, new Message<Alert>(new Alert()));
        var inbox = advanced.QueueDeclare("sorter-inbox");
        advanced.Consume(inbox, (body, props, info) => { });
    }
}
"""

PUBSUB = """
using EasyNetQ;

public class Tills
{
    private readonly IBus bus;

    public async Task Close(Till till)
    {
        await bus.PubSub.PublishAsync(new TillClosed(till.Id));
        await bus.PubSub.SubscribeAsync<FloatTopped>("tills", m => Task.CompletedTask);
        await bus.SendReceive.SendAsync("till-reports", new Report());
        await bus.SendReceive.ReceiveAsync<Report>("till-reports", r => Task.CompletedTask);
        bus.Publish(new TillOpened(till.Id));
        bus.Subscribe<TillAudited>("tills", m => { });
    }
}
"""


def _messages(files: dict[str, str]) -> list[tuple[str, str, str, str, int]]:
    facts = link(files)
    return sorted((m.direction, show(m.channel), m.provider, m.client, m.line) for m in facts.messages)


def test_an_exchange_kept_in_a_field_is_the_channel_it_is_published_on() -> None:
    assert _messages({"svc/Relay.cs": ADVANCED_FIELD}) == [
        ("publishes", "harbour", "rabbitmq", "easynetq", 17)
    ]


def test_a_queue_bound_to_a_declared_exchange_consumes_that_exchange() -> None:
    assert _messages({"svc/DockListener.cs": ADVANCED_LISTENER}) == [
        ("consumes", "harbour", "rabbitmq", "easynetq", 18)  # the bound queue's Consume is its mechanism
    ]


def test_locals_name_their_exchange_and_an_unbound_queue_is_consumed_itself() -> None:
    assert _messages({"svc/Sorter.cs": ADVANCED_LOCALS}) == [
        ("consumes", "sorter-inbox", "rabbitmq", "easynetq", 12),
        ("publishes", "alerts", "rabbitmq", "easynetq", 10),
    ]


def test_pubsub_by_message_type_and_send_receive_by_queue() -> None:
    assert _messages({"svc/Tills.cs": PUBSUB}) == [
        ("consumes", "FloatTopped", "rabbitmq", "easynetq", 10),
        ("consumes", "TillAudited", "rabbitmq", "easynetq", 14),
        ("consumes", "till-reports", "rabbitmq", "easynetq", 12),
        ("publishes", "TillClosed", "rabbitmq", "easynetq", 9),
        ("publishes", "TillOpened", "rabbitmq", "easynetq", 13),
        ("publishes", "till-reports", "rabbitmq", "easynetq", 11),
    ]


def test_the_same_method_names_without_easynetq_are_no_messages() -> None:
    for text in (ADVANCED_FIELD, PUBSUB):
        plain = text.replace("using EasyNetQ;", "using Shipping.Local;")
        plain = plain.replace("using EasyNetQ.Topology;", "")
        assert _messages({"svc/Plain.cs": plain}) == []


def test_declaring_an_exchange_alone_publishes_nothing() -> None:
    setup = """
using EasyNetQ;
public static class Setup
{
    public static void Add(IBus bus) { bus.Advanced.ExchangeDeclare("harbour", ExchangeType.Topic); }
}
"""
    assert _messages({"svc/Setup.cs": setup}) == []
