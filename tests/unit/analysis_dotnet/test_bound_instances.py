"""A settings instance bound in place (``config.GetSection("Bus").Bind(bus)``, ``config.Bind("Bus", bus)``)
and registered as a singleton: a broker's exchange and a client's base address read the section's
keys; an instance bound to a computed section, or a type the codebase does not declare, is left
unresolved."""

from __future__ import annotations

from .helpers import link, show

PROGRAM = """
var builder = WebApplication.CreateBuilder(args);
var bus = new BusSettings();
builder.Configuration.GetSection("Bus").Bind(bus);
builder.Services.AddSingleton(bus);
var links = new Links();
builder.Configuration.Bind("Links", links);
builder.Services.AddSingleton(links);
builder.Services.AddHttpClient<Tracker>();
"""
SETTINGS = """
public class BusSettings { public string Exchange { get; set; } }
public class Links { public string Tracking { get; set; } }
"""
USERS = """
using RabbitMQ.Client;
public class Announcer
{
    private readonly IModel _channel;
    private readonly BusSettings _bus;
    public Announcer(IModel channel, BusSettings bus) { _channel = channel; _bus = bus; }
    public void Say(byte[] body) => _channel.BasicPublish(_bus.Exchange, "", null, body);
}
public class Tracker
{
    private readonly HttpClient _http;
    public Tracker(HttpClient http, Links links) { _http = http; _http.BaseAddress = new Uri(links.Tracking); }
    public Task<string> Where() => _http.GetStringAsync("/where");
}
"""


def _facts(program: str) -> tuple[list[str | None], list[str | None]]:
    facts = link({"svc/Program.cs": program, "svc/Settings.cs": SETTINGS, "svc/Users.cs": USERS})
    return sorted(show(m.channel) for m in facts.messages), sorted(show(c.url) for c in facts.calls)


def test_instances_bound_in_place_name_their_sections() -> None:
    assert _facts(PROGRAM) == (["{prop:Bus:Exchange}"], ["{prop:Links:Tracking}/where"])


def test_a_computed_section_leaves_the_values_unresolved() -> None:
    computed = PROGRAM.replace('GetSection("Bus")', "GetSection(args[0])").replace('Bind("Links", links)', "Bind(args[1], links)")
    assert _facts(computed) == (["{?_bus.Exchange}"], ["{?links.Tracking}/where"])
