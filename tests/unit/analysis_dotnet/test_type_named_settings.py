"""Settings bound to the configuration section named like their type, and the shared messaging
library that reads them:

- a generic helper binding ``config.Bind(settings.GetType().Name, settings)`` or reading
  ``GetSection(typeof(T).Name).Get<T>()``: each ``Helper<T>()`` call binds ``T`` to section ``T``
  (a helper binding one literal section for every type is not read as such);
- a local given by a service-provider lookup (``var urls = sp.GetService<Urls>()``) reads the
  keys of the section its type is bound to; a local name given two types stays unresolved;
- a publisher whose ``Publish(object message)`` wraps ``BasicPublish`` is no event bus routing by
  event type (nothing derives from ``object``): its exchange is the channel; a bus over a real
  event base still names its events;
- a library listener's private consume loop runs where the hosted service calling it is registered.
"""

from __future__ import annotations

from orbitkb.analysis.dotnet import ANALYZER
from orbitkb.analysis.facts import ServiceContext
from tests.support.analysis import parse_all

from .helpers import link, show

BIND_BY_TYPE_NAME = """
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<IDepotOptions>(sp => sp.GetSettings<DepotOptions>());
builder.Services.AddHttpClient<IStock, Stock>((sp, http) =>
{
    var links = sp.GetService<LinkOptions>();
    http.BaseAddress = new Uri(links.StockUrl);
});
builder.Services.AddSingleton(sp => sp.GetSettings<LinkOptions>());

public static class SettingsLoader
{
    public static T GetSettings<T>(this IServiceProvider sp) where T : new()
    {
        var config = sp.GetService<IConfiguration>();
        T settings = new();
        var section = settings.GetType().Name;
        config.Bind(section, settings);
        return settings;
    }
}
"""
SECTION_BY_TYPEOF = """
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<IDepotOptions>(_ => builder.Configuration.Load<DepotOptions>());

public static class Sections
{
    public static T Load<T>(this IConfiguration config) => config.GetSection(typeof(T).Name).Get<T>();
}
"""
ONE_SECTION_FOR_ALL = """
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<IDepotOptions>(_ => builder.Configuration.Load<DepotOptions>());

public static class Sections
{
    public static T Load<T>(this IConfiguration config) => config.GetSection("Shared").Get<T>();
}
"""
OPTIONS = """
public interface IDepotOptions { string Exchange { get; } }
public class DepotOptions : IDepotOptions { public string Exchange { get; set; } }
public class LinkOptions { public string StockUrl { get; set; } }
"""
STOCK = """
public class Stock : IStock
{
    private readonly HttpClient _http;
    public Stock(HttpClient http) => _http = http;
    public Task<string> Count() => _http.GetStringAsync("/count");
}
"""
PUBLISHER = """
using RabbitMQ.Client;
public interface IDepotPublisher { void Publish(object message); }
public class DepotPublisher : IDepotPublisher
{
    private readonly IModel _channel;
    private readonly IDepotOptions _options;
    public DepotPublisher(IModel channel, IDepotOptions options) { _channel = channel; _options = options; }
    public void Publish(object message) => Send(message.GetType().Name, Pack(message));
    private void Send(string kind, byte[] body) => _channel.BasicPublish(_options.Exchange, kind, null, body);
}
"""
SENDS = """
public class Restock
{
    private readonly IDepotPublisher _publisher;
    public Restock(IDepotPublisher publisher) => _publisher = publisher;
    public void Done(Crate crate) => _publisher.Publish(crate);
}
"""


def _channels(files: dict[str, str]) -> list[str | None]:
    return sorted(show(m.channel) for m in link(files).messages)


def test_a_helper_binding_the_section_named_like_its_type() -> None:
    files = {"svc/Program.cs": BIND_BY_TYPE_NAME, "svc/Options.cs": OPTIONS, "svc/Stock.cs": STOCK,
             "svc/Publisher.cs": PUBLISHER, "svc/Restock.cs": SENDS}  # fmt: skip
    facts = link(files)
    assert sorted(show(m.channel) for m in facts.messages) == ["{prop:DepotOptions:Exchange}"]
    assert sorted((c.method, show(c.url)) for c in facts.calls) == [("GET", "{prop:LinkOptions:StockUrl}/count")]


def test_a_section_read_by_typeof_name_and_not_one_literal_section_for_all() -> None:
    files = {"svc/Options.cs": OPTIONS, "svc/Publisher.cs": PUBLISHER, "svc/Restock.cs": SENDS}
    assert _channels({**files, "svc/Program.cs": SECTION_BY_TYPEOF}) == ["{prop:DepotOptions:Exchange}"]
    assert _channels({**files, "svc/Program.cs": ONE_SECTION_FOR_ALL}) == ["{?_options.Exchange}"]


def test_a_local_given_two_types_by_lookups_stays_unresolved() -> None:
    twice = BIND_BY_TYPE_NAME.replace(
        "builder.Services.AddSingleton(sp => sp.GetSettings<LinkOptions>());",
        "builder.Services.AddSingleton(sp => sp.GetSettings<LinkOptions>());\n"
        "builder.Services.AddSingleton(sp => { var links = sp.GetService<DepotOptions>(); return links; });",
    )
    facts = link({"svc/Program.cs": twice, "svc/Options.cs": OPTIONS, "svc/Stock.cs": STOCK})
    assert [show(c.url) for c in facts.calls] == ["{?links.StockUrl}/count"]


def test_a_bus_over_real_events_still_names_them() -> None:
    bus = PUBLISHER.replace("object message", "DepotEvent message")
    events = "public abstract class DepotEvent { }\npublic class CrateArrived : DepotEvent { }\n"
    sends = "public class Dock { public void Land(IDepotPublisher p) => p.Publish(new CrateArrived()); }"
    files = {"svc/Program.cs": SECTION_BY_TYPEOF, "svc/Options.cs": OPTIONS, "svc/Publisher.cs": bus,
             "svc/Events.cs": events, "svc/Dock.cs": sends}  # fmt: skip
    assert _channels(files) == ["CrateArrived"]


LISTENER_LIBRARY = """
using RabbitMQ.Client;
public interface IDepotListener { void Start(); }
public class DepotListener : IDepotListener
{
    private readonly IModel _channel;
    public void Start() => Loop();
    private void Loop() => _channel.BasicConsume("depot-inbox", false, new EventingBasicConsumer(_channel));
}
public class ListenerHost : BackgroundService
{
    private readonly IDepotListener _listener;
    protected override Task ExecuteAsync(CancellationToken token) { _listener.Start(); return Task.CompletedTask; }
}
"""


def _library_messages(program: str) -> list[tuple[str, str | None]]:
    files = {"svc/Program.cs": program, "lib/Listener.cs": LISTENER_LIBRARY}
    ctx = ServiceContext(name="svc", root_dir="svc", stack="dotnet", repository="repo",
                         context_files=("lib/Listener.cs",))  # fmt: skip
    facts = ANALYZER.link(ctx, parse_all(ANALYZER, files))
    return sorted((m.direction, show(m.channel)) for m in facts.messages)


def test_a_library_consume_loop_runs_only_where_its_hosted_caller_is_registered() -> None:
    hosted = "var b = WebApplication.CreateBuilder(args);\nb.Services.AddHostedService<ListenerHost>();\n"
    assert _library_messages(hosted) == [("consumes", "depot-inbox")]
    assert _library_messages("var b = WebApplication.CreateBuilder(args);\n") == []


def test_a_generic_publish_keeps_the_bus_reading_of_its_broker_calls() -> None:
    bus = """
using RabbitMQ.Client;
public interface IDepotBus { void Publish<T>(T message) where T : IDepotEvent; }
public class DepotBus : IDepotBus
{
    private readonly IModel _channel;
    public void Publish<T>(T message) where T : IDepotEvent => _channel.BasicPublish("depot", "", null, Pack(message));
}
"""
    files = {"svc/Bus.cs": bus, "svc/Events.cs": "public interface IDepotEvent { }\n"}
    assert "depot" not in _channels(files)
    assert _channels({**files, "svc/Bus.cs": bus.replace("<T>(T message) where T : IDepotEvent", "(object message)")
                      .replace("Publish<T>(T message)", "Publish(object message)")}) == ["depot"]
