"""RawRabbit: an exchange named in the publish/subscribe configuration lambda (RawRabbit 2 and 1),
in a helper that returns the builder lambda, or read from bound options nested one class deep; the
message type when no exchange is named; a queue's name, a generic type parameter and the same calls
without RawRabbit are no channels."""

from __future__ import annotations

from .helpers import link, show

INLINE = """
using RawRabbit;

public class Kitchen
{
    private readonly IBusClient _bus;

    public Task Serve(DishReady dish) =>
        _bus.PublishAsync(dish, ctx => ctx.UsePublishConfiguration(c => c.OnDeclaredExchange(e => e.WithName("pass"))));

    public Task Listen() =>
        _bus.SubscribeAsync<OrderTaken>(o => Task.CompletedTask,
            ctx => ctx.UseSubscribeConfiguration(c => c
                .OnDeclaredExchange(e => e.WithName("pass"))
                .FromDeclaredQueue(q => q.WithName("kitchen-orders"))));
}
"""

OLD_STYLE = """
using RawRabbit;

public class Cellar
{
    public Task Tap(IBusClient client, Barrel b) =>
        client.PublishAsync(b, default, cfg => cfg.WithExchange(x => x.WithName("casks")).WithRoutingKey("tapped"));
}
"""

OPTIONS = """
public class BrokerOptions { public Slot Exchange { get; set; } public Slot Queue { get; set; } }
public class Slot { public string Name { get; set; } }
public static class Wiring
{
    public static void Add(IServiceCollection services, IConfiguration config) =>
        services.Configure<BrokerOptions>(config.GetSection("Broker"));
}
"""

HELPER = """
using RawRabbit;
using RawRabbit.Configuration.Exchange;

public class Courier
{
    private readonly IBusClient _client;
    private readonly BrokerOptions _options;

    public Courier(IBusClient client, IOptions<BrokerOptions> options) { _client = client; _options = options.Value; }

    public Task Send<TNote>(TNote note) =>
        _client.PublishAsync(note, cfg => cfg.UsePublishConfiguration(c => c.OnDeclaredExchange(Declare())));

    public Task Watch(Type kind) =>
        _client.SubscribeAsync((Func<object, Task>)(m => Task.CompletedTask),
            cfg => cfg.UseSubscribeConfiguration(c => c.OnDeclaredExchange(Declare())
                .FromDeclaredQueue(q => q.WithName(_options.Queue.Name + "_" + kind.Name))));

    private Action<IExchangeDeclarationBuilder> Declare() => e => e.WithName(_options.Exchange.Name);
}
"""

DEFAULTS = """
using RawRabbit;

public class Bell
{
    public async Task Ring(IBusClient bus, Chime chime)
    {
        await bus.PublishAsync(chime);
        await bus.SubscribeAsync<Silence>(s => Task.CompletedTask);
    }

    public Task Any<T>(IBusClient bus, T thing) => bus.PublishAsync(thing);
}
"""


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, str, int]]:
    facts = link(files)
    return sorted((m.direction, show(m.channel), m.provider, m.client, m.line) for m in facts.messages)


def test_an_exchange_named_in_the_configuration_lambda() -> None:
    assert _messages({"svc/Kitchen.cs": INLINE}) == [
        ("consumes", "pass", "rabbitmq", "rawrabbit", 11),  # not the queue kitchen-orders
        ("publishes", "pass", "rabbitmq", "rawrabbit", 8),
    ]
    assert _messages({"svc/Cellar.cs": OLD_STYLE}) == [("publishes", "casks", "rabbitmq", "rawrabbit", 6)]


def test_an_exchange_from_a_helper_and_nested_bound_options() -> None:
    assert _messages({"svc/Wiring.cs": OPTIONS, "svc/Courier.cs": HELPER}) == [
        ("consumes", "{prop:Broker:Exchange:Name}", "rabbitmq", "rawrabbit", 15),
        ("publishes", "{prop:Broker:Exchange:Name}", "rabbitmq", "rawrabbit", 12),
    ]


def test_without_a_named_exchange_the_message_type_and_never_a_type_parameter() -> None:
    assert _messages({"svc/Bell.cs": DEFAULTS}) == [
        ("consumes", "Silence", "rabbitmq", "rawrabbit", 8),
        ("publishes", "Chime", "rabbitmq", "rawrabbit", 7),
    ]


def test_the_same_calls_without_rawrabbit_are_no_messages() -> None:
    for text in (INLINE, DEFAULTS):
        assert _messages({"svc/Plain.cs": text.replace("using RawRabbit;", "using Bells.Local;")}) == []


def test_publish_calls_on_receivers_that_are_not_the_bus_are_no_messages() -> None:
    mediator = """
using RawRabbit;

public class Handler
{
    private readonly IMediator _mediator;
    public Task Handle(Chime chime) => _mediator.PublishAsync(chime);
}
"""
    assert _messages({"svc/Handler.cs": mediator}) == []
