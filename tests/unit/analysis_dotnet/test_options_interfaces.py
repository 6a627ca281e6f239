"""Bound options injected through an interface the options class implements: a typed client's base
address and a broker's exchange read as the configured keys of the one bound class behind the
interface (the section it is bound to with ``GetSection("x").Get<T>()`` or ``Configure<T>``); an
interface behind two bound classes, or behind a class bound to nothing, stays an unresolved value."""

from __future__ import annotations

from .helpers import link, show

PROGRAM = """
var builder = WebApplication.CreateBuilder(args);
var weather = builder.Configuration.GetSection("WeatherApi").Get<WeatherEndpoint>();
builder.Services.AddTransient<IWeatherEndpoint>(_ => weather!);
builder.Services.Configure<HubSettings>(builder.Configuration.GetSection("Hub"));
builder.Services.AddHttpClient<IForecasts, Forecasts>();
"""
OPTIONS = """
public interface IWeatherEndpoint { string Address { get; set; } }
public class WeatherEndpoint : IWeatherEndpoint { public string Address { get; set; } = "http://weather"; }
public interface IHubSettings { string Exchange { get; } }
public class HubSettings : IHubSettings { public string Exchange { get; set; } }
"""
CLIENT = """
public class Forecasts : IForecasts
{
    private readonly HttpClient _http;
    public Forecasts(HttpClient http, IWeatherEndpoint endpoint)
    {
        _http = http;
        _http.BaseAddress = new Uri(endpoint.Address);
    }
    public Task<int> Today() => _http.GetFromJsonAsync<int>("/today");
}
"""
PUBLISHER = """
using RabbitMQ.Client;
public class Bulletin
{
    private readonly IModel _channel;
    private readonly IHubSettings _hub;
    public Bulletin(IModel channel, IHubSettings hub) { _channel = channel; _hub = hub; }
    public void Post(byte[] body) => _channel.BasicPublish(exchange: _hub.Exchange, routingKey: "", basicProperties: null, body: body);
}
"""


def _facts(files: dict[str, str]) -> tuple[list[tuple[str, str | None]], list[str | None]]:
    facts = link(files)
    calls = sorted((c.method, show(c.url)) for c in facts.calls)
    return calls, sorted(show(m.channel) for m in facts.messages)


def test_options_behind_an_interface_name_the_base_address_and_the_exchange() -> None:
    files = {"svc/Program.cs": PROGRAM, "svc/Options.cs": OPTIONS, "svc/Forecasts.cs": CLIENT,
             "svc/Bulletin.cs": PUBLISHER}  # fmt: skip
    calls, channels = _facts(files)
    assert calls == [("GET", "{prop:WeatherApi:Address}/today")]
    assert channels == ["{prop:Hub:Exchange}"]


def test_an_interface_behind_two_bound_classes_or_none_stays_unresolved() -> None:
    twice = OPTIONS + "public class SpareHub : IHubSettings { public string Exchange { get; set; } }\n"
    program = PROGRAM + 'builder.Services.Configure<SpareHub>(builder.Configuration.GetSection("Spare"));\n'
    _, channels = _facts({"svc/Program.cs": program, "svc/Options.cs": twice, "svc/Bulletin.cs": PUBLISHER})
    assert channels == ["{?_hub.Exchange}"]
    unbound = PROGRAM.replace(
        'builder.Services.Configure<HubSettings>(builder.Configuration.GetSection("Hub"));\n', ""
    )
    _, channels = _facts({"svc/Program.cs": unbound, "svc/Options.cs": OPTIONS, "svc/Bulletin.cs": PUBLISHER})
    assert channels == ["{?_hub.Exchange}"]
