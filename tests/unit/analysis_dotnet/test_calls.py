"""Outbound calls: typed HttpClients with base addresses from configuration, named clients from
IHttpClientFactory, HttpRequestMessage, a codebase's own HttpClient extension methods, Refit,
gRPC clients (AddGrpcClient, new X.XClient(GrpcChannel.ForAddress(...))), and their handlers."""

from __future__ import annotations

from .helpers import link, show

STARTUP = """
public class Startup
{
    public IConfiguration Configuration { get; }

    public void ConfigureServices(IServiceCollection services)
    {
        services.AddHttpClient<IStockClient, StockClient>(c =>
            c.BaseAddress = new Uri(Configuration["Upstreams:Stock"]));
        services.AddHttpClient("pricing", c => c.BaseAddress = new Uri(Configuration.GetValue<string>("PRICING_URL", "http://pricing:8080")));
        services.AddGrpcClient<Ledger.LedgerClient>(o => o.Address = new Uri(Environment.GetEnvironmentVariable("LEDGER_ADDR") ?? "http://ledger:5001"));
        services.AddRefitClient<IShippingApi>().ConfigureHttpClient(c => c.BaseAddress = new Uri("http://shipping/api/"));
    }
}
"""

CLIENTS = """
public class StockClient : IStockClient
{
    private readonly HttpClient _http;
    public StockClient(HttpClient http) { _http = http; }

    public async Task<int> Level(string sku)
    {
        var response = await _http.GetAsync($"/v1/levels/{sku}");
        return 1;
    }

    public Task Reserve(Item item) => _http.PostAsJson("v1/reservations", item);
}

public class PriceLookup
{
    private readonly IHttpClientFactory _factory;
    public PriceLookup(IHttpClientFactory factory) { _factory = factory; }

    public async Task<decimal> Quote(string sku)
    {
        var client = _factory.CreateClient("pricing");
        var request = new HttpRequestMessage(HttpMethod.Post, "/quotes");
        await client.SendAsync(request);
        return await client.GetFromJsonAsync<decimal>("/prices/" + sku);
    }
}

public static class HttpClientExtensions
{
    public static Task<HttpResponseMessage> PostAsJson<T>(this HttpClient httpClient, string url, T data)
        => httpClient.PostAsync(url, JsonContent.Create(data));
}

public interface IShippingApi
{
    [Get("/parcels/{id}")]
    Task<Parcel> GetParcel(string id);

    [Post("/parcels")]
    Task Create([Body] Parcel parcel);
}

public class Audit
{
    private readonly Channel _unused;
    public void Send()
    {
        var channel = GrpcChannel.ForAddress("http://audit:7000");
        var client = new Journal.JournalClient(channel);
    }
}
"""

CONTROLLER = """
[ApiController]
[Route("orders")]
public class OrdersController : ControllerBase
{
    private readonly IStockClient _stock;
    public OrdersController(IStockClient stock) { _stock = stock; }

    [HttpGet("{sku}")]
    public async Task<IActionResult> Get(string sku) => Ok(await _stock.Level(sku));
}
"""


def _calls(facts):
    return sorted((c.kind, c.method, show(c.url), c.grpc_service, c.client, c.api_handler, c.file, c.line)
                  for c in facts.calls)  # fmt: skip


def test_http_grpc_and_refit_calls_with_their_base_addresses() -> None:
    facts = link(
        {"svc/Startup.cs": STARTUP, "svc/Clients.cs": CLIENTS, "svc/OrdersController.cs": CONTROLLER}
    )
    assert _calls(facts) == [
        ("grpc", None, "http://audit:7000", "Journal", "grpc-client", None, "svc/Clients.cs", 50),
        (
            "grpc",
            None,
            "{env:LEDGER_ADDR|http://ledger:5001}",
            "Ledger",
            "grpc-client",
            None,
            "svc/Startup.cs",
            10,
        ),
        ("http", "GET", "http://shipping/api/parcels/{id}", None, "refit", None, "svc/Clients.cs", 37),
        (
            "http",
            "GET",
            "{prop:PRICING_URL|http://pricing:8080}/prices/{?sku}",
            None,
            "HttpClient",
            None,
            "svc/Clients.cs",
            25,
        ),
        (
            "http",
            "GET",
            "{prop:Upstreams:Stock}/v1/levels/{?sku}",
            None,
            "HttpClient",
            "OrdersController.Get",
            "svc/Clients.cs",
            8,
        ),
        ("http", "POST", "http://shipping/api/parcels", None, "refit", None, "svc/Clients.cs", 40),
        (
            "http",
            "POST",
            "{prop:PRICING_URL|http://pricing:8080}/quotes",
            None,
            "HttpClient",
            None,
            "svc/Clients.cs",
            23,
        ),
        (
            "http",
            "POST",
            "{prop:Upstreams:Stock}/v1/reservations",
            None,
            "HttpClient",
            None,
            "svc/Clients.cs",
            12,
        ),
    ]


NOT_CALLS = """
public class Repository
{
    private readonly IDocumentStore _store;
    public Task<Item> Load(string id) => _store.GetAsync(id);
    public Task Remove(Cache cache, string id) => cache.DeleteAsync(id);
}
"""


def test_get_async_on_something_else_is_not_a_call() -> None:
    assert link({"svc/Repository.cs": NOT_CALLS}).calls == ()


OPTIONS = """
public class UrlsConfig
{
    public string Inventory { get; set; }
    public static class Paths
    {
        public static string Item(string baseUri, string id) => $"{baseUri}/items/{id}";
        public static string All() => "/items";
    }
}

public class AppSettings { public string GatewayUrl { get; set; } }

public class Startup
{
    public void ConfigureServices(IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<UrlsConfig>(configuration.GetSection("urls"));
        services.Configure<AppSettings>(configuration);
    }
}

public class InventoryApi
{
    private readonly HttpClient _client;
    private readonly UrlsConfig _urls;
    private readonly string _gateway;

    public InventoryApi(HttpClient client, IOptions<UrlsConfig> urls, IOptionsSnapshot<AppSettings> settings)
    {
        _client = client;
        _urls = urls.Value;
        _gateway = $"{settings.Value.GatewayUrl}/inventory";
    }

    public Task<string> One(string id) => _client.GetStringAsync(UrlsConfig.Paths.Item(_gateway, id));
    public Task<string> All() => _client.GetStringAsync(_urls.Inventory + UrlsConfig.Paths.All());
}
"""


def test_bound_options_fields_set_in_constructors_and_url_helpers_fold() -> None:
    facts = link({"svc/Options.cs": OPTIONS})
    assert sorted((c.method, show(c.url), c.line) for c in facts.calls) == [
        ("GET", "{prop:GatewayUrl}/inventory/items/{?id}", 35),
        ("GET", "{prop:urls:Inventory}/items", 36),
    ]
