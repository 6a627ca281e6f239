"""Calls made through a shared sender: a request descriptor (``new ApiCall { Url = …, Verb = … }``)
handed to one method that builds the ``HttpRequestMessage`` from it is a call wherever a descriptor
is built; base addresses kept by a static settings holder that startup code fills from configuration."""

from __future__ import annotations

from .helpers import link, show

HOLDER = """
public static class Upstreams
{
    public static void Load(IConfiguration configuration)
    {
        Larder = configuration["Larder"] ?? string.Empty;
        Scales = Environment.GetEnvironmentVariable("SCALES_URL");
        int unrelated = 0;
        unrelated = 1;
    }
    public static string Larder { get; private set; } = string.Empty;
    public static string Scales { get; private set; }
}
"""
SENDER = """
public enum Verb { GET, POST, DELETE }
public class ApiCall { public Verb Verb { get; set; } public string Url { get; set; } public object Body { get; set; } }
public class Sender
{
    private readonly IHttpClientFactory _factory;
    public Sender(IHttpClientFactory factory) { _factory = factory; }
    public async Task<HttpResponseMessage> Send(ApiCall call)
    {
        var client = _factory.CreateClient();
        HttpRequestMessage message = new() { RequestUri = new Uri(call.Url) };
        return await client.SendAsync(message);
    }
    public Task<HttpResponseMessage> Raw(string address)
    {
        var message = new HttpRequestMessage { RequestUri = new Uri(address), Method = HttpMethod.Put };
        return _factory.CreateClient().SendAsync(message);
    }
}
"""
USERS = """
public class Pantry
{
    private readonly Sender _sender;
    public Pantry(Sender sender) { _sender = sender; }
    public Task Jars() => _sender.Send(new ApiCall { Url = Upstreams.Larder + "/api/jars" });
    public Task Weigh(int id) => _sender.Send(new ApiCall { Verb = Verb.POST, Url = $"{Upstreams.Scales}/weigh/{id}" });
    public Task Drop(int id) => _sender.Send(new ApiCall() { Verb = Verb.DELETE, Url = Upstreams.Larder + "/api/jars/" + id });
}
"""


def test_each_built_descriptor_is_a_call_with_its_own_address_and_verb() -> None:
    facts = link({"svc/Upstreams.cs": HOLDER, "svc/Sender.cs": SENDER, "svc/Pantry.cs": USERS})
    got = sorted((c.file, c.line, c.method, show(c.url)) for c in facts.calls)
    assert got == [
        ("svc/Pantry.cs", 5, "GET", "{prop:Larder}/api/jars"),  # no verb given: the message's own
        ("svc/Pantry.cs", 6, "POST", "{env:SCALES_URL}/weigh/{?id}"),
        ("svc/Pantry.cs", 7, "DELETE", "{prop:Larder}/api/jars/{?id}"),
        # a message whose address is a plain parameter stays one call with its expression
        ("svc/Sender.cs", 15, "PUT", "{?address}"),
    ]


def test_a_descriptor_nobody_builds_makes_no_call() -> None:
    facts = link({"svc/Sender.cs": SENDER})
    assert [(c.line, show(c.url)) for c in facts.calls] == [(15, "{?address}")]
