"""RestSharp and Flurl calls: a RestSharp client's base address (given directly, through
``RestClientOptions`` or its ``BaseUrl`` initializer, from configuration) joined with each request's
resource, the verb from ``Method.X`` (old and new spellings) or from the send method; JSON helpers
with their own path; Flurl chains from a literal URL, a setting or ``new Url(..)`` through path
segments to a send. A plain HttpClient ``GetAsync`` is not read as Flurl."""

from __future__ import annotations

from .helpers import link, show

CATALOG = """
using RestSharp;
namespace Kiosk.Clients;
public class CatalogGateway
{
    private readonly RestClient _rest;
    public CatalogGateway(IConfiguration config) { _rest = new RestClient(config["Services:Catalog"]); }
    public async Task<Item?> One(int id)
    {
        var request = new RestRequest($"api/items/{id}", Method.Get);
        return await _rest.GetAsync<Item>(request);
    }
    public async Task Add(Item item)
    {
        var request = new RestRequest("api/items").AddJsonBody(item);
        await _rest.PostAsync(request);
    }
    public Task<List<Item>?> All() => _rest.GetJsonAsync<List<Item>>("api/items");
}
"""
LEGACY = """
using RestSharp;
public class StockProxy
{
    private readonly RestClient _client = new RestClient(new RestClientOptions { BaseUrl = new Uri("http://stock:8080") });
    public IRestResponse Reserve(string sku)
    {
        var req = new RestRequest("reservations/" + sku, Method.POST);
        return _client.Execute(req);
    }
}
"""
FLURL = """
using Flurl;
using Flurl.Http;
public class PricingClient
{
    private readonly string _pricing;
    private readonly HttpClient _http;
    public PricingClient(IConfiguration configuration, HttpClient http) { _pricing = configuration["Pricing:Url"]; _http = http; }
    public Task<Quote> Quote(string sku) => _pricing.AppendPathSegments("api", "quotes", sku).GetJsonAsync<Quote>();
    public Task Refresh() => "http://pricing-admin/api/cache".PostAsync();
    public Task Audit() => new Url("http://audit:5000").AppendPathSegment("entries").WithTimeout(5).PostJsonAsync(new { });
    public Task Plain(string u) => _http.GetAsync(u);
}
"""


def _calls(files: dict[str, str]) -> list[tuple[str, str | None, str | None, str]]:
    return sorted((c.client, c.method, show(c.url), c.file.rsplit("/", 1)[-1]) for c in link(files).calls)


def test_restsharp_requests_join_the_clients_base() -> None:
    assert _calls({"svc/CatalogGateway.cs": CATALOG, "svc/StockProxy.cs": LEGACY}) == [
        ("RestSharp", "GET", "{prop:Services:Catalog}/api/items", "CatalogGateway.cs"),
        ("RestSharp", "GET", "{prop:Services:Catalog}/api/items/{?id}", "CatalogGateway.cs"),
        ("RestSharp", "POST", "http://stock:8080/reservations/{?sku}", "StockProxy.cs"),
        ("RestSharp", "POST", "{prop:Services:Catalog}/api/items", "CatalogGateway.cs"),
    ]


def test_flurl_chains_from_a_setting_a_literal_or_a_url() -> None:
    got = [c for c in _calls({"svc/PricingClient.cs": FLURL}) if c[0] == "Flurl"]
    assert got == [
        ("Flurl", "GET", "{prop:Pricing:Url}/api/quotes/{?sku}", "PricingClient.cs"),
        ("Flurl", "POST", "http://audit:5000/entries", "PricingClient.cs"),
        ("Flurl", "POST", "http://pricing-admin/api/cache", "PricingClient.cs"),
    ]
