"""A hand-written broker wrapper built where the service registers it: its exchange and queue are
constructor parameters kept in fields (``_exchange = exchange``), given at the creation site from a
configuration section held in a local (``var s = config.GetSection("Bus"); new Publisher(s["Host"],
s["Exchange"])``) or read through a chain (``GetSection("Urls").GetValue<string>("Orders")``); a
named queue bound to an exchange receives that exchange's messages; a bus whose ``Publish<T>(T e)``
constrains ``T`` to an event base publishes every event type the service creates."""

from __future__ import annotations

from .helpers import link, show

PUBLISHER = """
using RabbitMQ.Client;

public interface IEventSender { Task SendAsync(string kind, object body); }

public sealed class RabbitEventSender : IEventSender
{
    private readonly string _host;
    private readonly string _exchange;

    public RabbitEventSender(string host, string exchange)
    {
        _host = host;
        _exchange = exchange;
    }

    public Task SendAsync(string kind, object body)
    {
        using var connection = new ConnectionFactory { HostName = _host }.CreateConnection();
        using var model = connection.CreateModel();
        model.BasicPublish(_exchange, kind, null, null);
        return Task.CompletedTask;
    }
}
"""
RECEIVER = """
using RabbitMQ.Client;

public interface IEventReceiver { void Open(); }

public class RabbitEventReceiver : IEventReceiver
{
    private readonly string _exchange;
    private readonly string _queue;
    private IModel _model;

    public RabbitEventReceiver(string exchange, string queue) { _exchange = exchange; _queue = queue; }

    public void Open()
    {
        _model.QueueDeclare(_queue, durable: true, exclusive: false, autoDelete: false);
        _model.QueueBind(_queue, _exchange, "");
        _model.BasicConsume(_queue, false, null);
    }
}
"""
WIRING = """
public static class BusWiring
{
    public static void AddEventSender(this IServiceCollection services, IConfiguration config)
    {
        var section = config.GetSection("Sender");
        string host = section["Host"];
        string exchange = section.GetValue<string>("Exchange");
        services.AddTransient<IEventSender>(sp => new RabbitEventSender(host, exchange));
    }

    public static void AddEventReceiver(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddSingleton<IEventReceiver>(sp => new RabbitEventReceiver(
            configuration.GetSection("Receiver").GetValue<string>("Exchange"), queue: "ledger-inbox"));
    }
}
"""
USER = """
public class Checkout
{
    private readonly IEventSender _sender;
    private readonly IEventReceiver _receiver;
    public Checkout(IEventSender sender, IEventReceiver receiver) { _sender = sender; _receiver = receiver; }
    public Task Pay() => _sender.SendAsync("PaymentTaken", new object());
    public void Listen() => _receiver.Open();
}
"""


def _messages(files: dict[str, str]) -> list[tuple[str, str | None]]:
    facts = link(files)
    return sorted((m.direction, show(m.channel)) for m in facts.messages)


def test_constructor_parameters_are_the_arguments_of_the_creation_site() -> None:
    files = {"svc/Publisher.cs": PUBLISHER, "svc/Receiver.cs": RECEIVER, "svc/Wiring.cs": WIRING, "svc/Checkout.cs": USER}
    assert _messages(files) == [
        ("consumes", "ledger-inbox"),  # the named queue...
        ("consumes", "{prop:Receiver:Exchange}"),  # ...and the exchange it is bound to
        ("publishes", "{prop:Sender:Exchange}"),  # section["Exchange"] through the local holding the section
    ]


def test_two_creation_sites_with_different_values_name_no_channel() -> None:
    second = WIRING.replace(
        "services.AddTransient<IEventSender>(sp => new RabbitEventSender(host, exchange));",
        "services.AddTransient<IEventSender>(sp => new RabbitEventSender(host, exchange));\n"
        '        services.AddTransient<IEventSender>(sp => new RabbitEventSender(host, "audit"));',
    )
    files = {"svc/Publisher.cs": PUBLISHER, "svc/Wiring.cs": second, "svc/Checkout.cs": USER}
    assert ("publishes", "{?exchange}") in _messages(files)


def test_a_configuration_section_read_through_a_chain_or_a_local_folds_to_its_key() -> None:
    client = """
public class LedgerClient
{
    private readonly HttpClient _http;
    public LedgerClient(IConfiguration config, HttpClient http)
    {
        string hostAndPort = config.GetSection("ServiceLocations").GetValue<string>("Ledger");
        http.BaseAddress = new Uri($"http://{hostAndPort}");
        _http = http;
    }
    public Task<HttpResponseMessage> Entries() => _http.GetAsync("/api/entries");
}
"""
    facts = link({"svc/LedgerClient.cs": client})
    assert [show(c.url) for c in facts.calls] == ["http://{prop:ServiceLocations:Ledger}/api/entries"]


BUS = """
using RabbitMQ.Client;

public abstract class Occurrence { }
public class ParcelShipped : Occurrence { public ParcelShipped(string id) { } }

public interface IOccurrenceBus { Task Announce<T>(T occurrence) where T : Occurrence; }

public class RabbitOccurrenceBus : IOccurrenceBus
{
    public async Task Publish<T>(T occurrence) where T : Occurrence, new()
    {
        var name = occurrence.GetType().Name;
        await _channel.BasicPublishAsync("", name, null);
    }
    public Task Announce<T>(T occurrence) where T : Occurrence => Publish(occurrence);
}

public class Dispatch
{
    private readonly IOccurrenceBus _bus;
    public Task Ship() => _bus.Announce(new ParcelShipped("p-1"));
}
"""


def test_a_bus_whose_publish_constrains_its_type_parameter_publishes_the_events_created() -> None:
    assert ("publishes", "ParcelShipped") in _messages({"svc/Bus.cs": BUS})


OVERLOADED = """
using RabbitMQ.Client;

public interface INotifier { Task NotifyAsync(string kind); }

public sealed class RabbitNotifier : INotifier
{
    private readonly List<string> _hosts;
    private readonly string _exchange;

    public RabbitNotifier(string host, string user, string exchange) : this(new List<string> { host }, user, exchange) { }

    public RabbitNotifier(IEnumerable<string> hosts, string user, string exchange)
    {
        _hosts = new List<string>(hosts);
        _exchange = exchange;
    }

    public Task NotifyAsync(string kind)
    {
        _model.BasicPublish(_exchange, kind, null, null);
        return Task.CompletedTask;
    }
}
"""
TOP_LEVEL = """
var builder = WebApplication.CreateBuilder(args);
var brokerSettings = builder.Configuration.GetSection("Notifier");
string host = brokerSettings["Host"];
string user = brokerSettings.GetValue<string>("User");
string exchange = brokerSettings["Exchange"];
builder.Services.AddTransient<INotifier>(sp => new RabbitNotifier(host, user, exchange));
var app = builder.Build();
app.Run();
"""


def test_top_level_statements_create_an_overloaded_wrapper_from_a_section_named_like_config() -> None:
    use = "public class Desk { private readonly INotifier _n; public Task Ring() => _n.NotifyAsync(\"rang\"); }\n"
    files = {"svc/Notifier.cs": OVERLOADED, "svc/Program.cs": TOP_LEVEL, "svc/Desk.cs": use}
    assert _messages(files) == [("publishes", "{prop:Notifier:Exchange}")]  # not the bare "Exchange" key


def test_a_generic_publish_to_one_configured_topic_is_no_routing_by_event_type() -> None:
    topic_bus = BUS.replace(
        """        var name = occurrence.GetType().Name;
        await _channel.BasicPublishAsync("", name, null);""",
        """        await _channel.BasicPublishAsync("", _settings.Topic, null);""",
    )
    assert ("publishes", "ParcelShipped") not in _messages({"svc/Bus.cs": topic_bus})
