"""RestEase interfaces built with ``RestClient.For<I>(httpClient)``: the base address is the one
the building method gives that client (an object initializer or an assignment, from configuration
or a literal); a verb attribute with no path calls the base address itself, kept as the expression
it is when that address is unknown; a bare verb of an interface no client is built for is no call."""

from __future__ import annotations

from .helpers import link, show

TARIFFS = """
using RestEase;

public interface ITariffs
{
    [Post]
    Task<Quote> Quote([Body] QuoteRequest request);

    [Get("{code}")]
    Task<Tariff> One([Path] string code);
}

public class TariffsClient
{
    private readonly ITariffs api;

    public TariffsClient(IConfiguration configuration, HttpMessageHandler handler)
    {
        var http = new HttpClient(handler) { BaseAddress = new Uri(configuration["TariffsUrl"]) };
        api = RestClient.For<ITariffs>(http);
    }
}
"""

ASSIGNED = """
using RestEase;

public interface IStamps
{
    [Put("stamps/{id}")]
    Task Mark([Path] int id);
}

public static class StampsFactory
{
    public static IStamps Make()
    {
        var client = new HttpClient();
        client.BaseAddress = new Uri("http://stamps:8081/");
        return RestClient.For<IStamps>(client);
    }
}
"""

NO_BASE = """
using RestEase;

public interface ILoose
{
    [Delete]
    Task Drop();
}

public class Loose
{
    public ILoose Make(HttpClient shared) => RestClient.For<ILoose>(shared);
}
"""


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None, str]]:
    return sorted((c.method, show(c.url), c.client) for c in link(files).calls)


def test_the_base_address_of_the_client_handed_to_restclient_for() -> None:
    assert _calls({"svc/Tariffs.cs": TARIFFS}) == [
        ("GET", "{prop:TariffsUrl}/{code}", "refit"),
        ("POST", "{prop:TariffsUrl}", "refit"),  # [Post] alone: the base address
    ]


def test_a_base_address_assigned_after_the_client_is_made() -> None:
    assert _calls({"svc/Stamps.cs": ASSIGNED}) == [("PUT", "http://stamps:8081/stamps/{id}", "refit")]


def test_an_unknown_base_address_stays_an_expression_and_no_client_means_no_call() -> None:
    assert _calls({"svc/Loose.cs": NO_BASE}) == [("DELETE", "{?shared}", "refit")]
    unbuilt = NO_BASE.split("public class Loose")[0]
    assert _calls({"svc/Loose.cs": unbuilt}) == []
