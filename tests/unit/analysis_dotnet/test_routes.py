"""ASP.NET Core routes: attribute-routed controllers (class and action templates, tokens,
constraints, absolute templates), minimal APIs under route groups (also through extension
methods), Razor Pages handlers and gRPC service overrides — and what is not a route."""

from __future__ import annotations

from .helpers import link, routes

CONTROLLER = """
using Microsoft.AspNetCore.Mvc;

namespace Warehouse.Api.Controllers;

[ApiController]
[Route("api/v2/[controller]")]
public class ShelvesController : ControllerBase
{
    private const string ByCode = "code/{code:alpha}";

    [HttpGet]
    public IActionResult List() => Ok();

    [HttpGet("{id:int}", Name = "ShelfById")]
    public IActionResult Get(int id) => Ok();

    [Route("[action]/{zone?}")]
    [HttpGet]
    public IActionResult Search(string zone) => Ok();

    [HttpGet(ByCode)]
    public IActionResult FindByCode(string code) => Ok();

    [HttpPost]
    [HttpPut("bulk")]
    public IActionResult Save() => Ok();

    [HttpDelete("~/admin/shelves/{id}")]
    public IActionResult Purge(int id) => Ok();

    [NonAction]
    [HttpGet("hidden")]
    public IActionResult Helper() => Ok();

    public void NotRouted() { }
}

public abstract class BaseAudit : ControllerBase
{
    [HttpGet("audit")]
    public IActionResult Audit() => Ok();
}
"""

MVC = """
namespace Warehouse.Web
{
    [Route("portal")]
    public class DockController : Controller
    {
        [HttpGet("")]
        public IActionResult Index() => View();

        [AcceptVerbs("GET", "POST", Route = "arrivals")]
        public IActionResult Arrivals() => View();

        [Route("board")]
        public IActionResult Board() => View();
    }
}
"""


def test_controller_routes_compose_class_and_action_templates() -> None:
    facts = link({"svc/Controllers/ShelvesController.cs": CONTROLLER})
    assert routes(facts) == [
        ("DELETE", "/admin/shelves/{id}", "ShelvesController.Purge", 28),
        ("GET", "/api/v2/Shelves", "ShelvesController.List", 11),
        ("GET", "/api/v2/Shelves/Search/{zone}", "ShelvesController.Search", 17),
        ("GET", "/api/v2/Shelves/code/{code}", "ShelvesController.FindByCode", 21),
        ("GET", "/api/v2/Shelves/{id}", "ShelvesController.Get", 14),
        ("POST", "/api/v2/Shelves", "ShelvesController.Save", 24),
        ("PUT", "/api/v2/Shelves/bulk", "ShelvesController.Save", 24),
    ]
    assert facts.framework == "aspnetcore"
    assert {c.name for c in facts.components} == {"ShelvesController"}


def test_mvc_controller_without_api_attribute_and_accept_verbs() -> None:
    facts = link({"svc/DockController.cs": MVC})
    assert [(m, p) for m, p, _, _ in routes(facts)] == [
        ("ANY", "/portal/board"),
        ("GET", "/portal"),
        ("GET", "/portal/arrivals"),
        ("POST", "/portal/arrivals"),
    ]


MINIMAL = """
var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();

app.MapGet("/ping", () => "pong");
var parcels = app.MapGroup("/api/parcels").RequireAuthorization();
parcels.MapGet("/{id:guid}", ParcelHandlers.GetParcel);
parcels.MapPost("", (Parcel p) => Results.Created());
app.MapGroup("/api/v1").MapGroup("couriers").MapDelete("/{id}", (int id) => Results.NoContent());
app.MapMethods("/legacy", new[] { "PATCH", "HEAD" }, () => Results.Ok());
app.MapRoutesApi();
app.MapGroup("tracking").MapTrackingApi();
app.MapHealthChecks("/healthz");
app.Run();
"""

EXTENSIONS = """
public static class RoutesApi
{
    public static IEndpointRouteBuilder MapRoutesApi(this IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("api/routes");
        api.MapGet("/", ListRoutes);
        return app;
    }

    public static RouteGroupBuilder MapTrackingApi(this RouteGroupBuilder group)
    {
        group.MapPut("/{parcel}", Track);
        return group;
    }
}
"""


def test_minimal_apis_under_route_groups_and_extension_methods() -> None:
    facts = link({"svc/Program.cs": MINIMAL, "svc/Apis/RoutesApi.cs": EXTENSIONS})
    assert [(m, p, h) for m, p, h, _ in routes(facts)] == [
        ("DELETE", "/api/v1/couriers/{id}", "Program"),
        ("GET", "/api/parcels/{id}", "ParcelHandlers.GetParcel"),
        ("GET", "/api/routes", "RoutesApi.ListRoutes"),
        ("GET", "/healthz", "Program"),
        ("GET", "/ping", "Program"),
        ("HEAD", "/legacy", "Program"),
        ("PATCH", "/legacy", "Program"),
        ("POST", "/api/parcels", "Program"),
        ("PUT", "/tracking/{parcel}", "RoutesApi.Track"),
    ]


PAGE = """
public class CheckoutModel : PageModel
{
    public async Task<IActionResult> OnGetAsync() => Page();
    public async Task<IActionResult> OnPostConfirmAsync() => Page();
    public async Task<IActionResult> OnPostCancelAsync() => Page();
    public void Helper() { }
}
"""


def test_razor_pages_handlers_at_the_page_path() -> None:
    facts = link(
        {
            "web/Pages/Orders/Checkout.cshtml.cs": PAGE,
            "web/Pages/Index.cshtml.cs": PAGE.replace("Checkout", "Index"),
        }
    )
    assert [(m, p) for m, p, _, _ in routes(facts)] == [
        ("GET", "/"),
        ("GET", "/Orders/Checkout"),
        ("POST", "/"),
        ("POST", "/Orders/Checkout"),
    ]


GRPC = """
namespace Ledger.Grpc.Services;

public class LedgerService : Ledger.LedgerBase
{
    public override Task<Balance> GetBalance(AccountRef request, ServerCallContext context) => Task.FromResult(new Balance());
    public override async Task Stream(Empty request, IServerStreamWriter<Entry> stream, ServerCallContext context) { }
    private void Audit() { }
}
"""


def test_grpc_service_overrides_are_rpcs_and_mark_the_proto_implemented() -> None:
    facts = link({"svc/Services/LedgerService.cs": GRPC})
    assert routes(facts) == [
        ("RPC", "Ledger/GetBalance", "LedgerService.GetBalance", 5),
        ("RPC", "Ledger/Stream", "LedgerService.Stream", 6),
    ]
    assert facts.grpc_implements == ("Ledger",)
    assert {a.kind for a in facts.apis} == {"grpc"}


NOT_ROUTES = """
public class Mapper
{
    public void Run(IMapper mapper, Thing t)
    {
        var dto = mapper.Map<ThingDto>(t);
        var dict = new Dictionary<string, int>();
        dict.Map("key");
    }
}

public class ReportBuilder
{
    [HttpGet("nope")]
    public void Build() { }
}
"""


def test_automapper_and_non_controllers_are_not_routes() -> None:
    facts = link({"svc/Mapper.cs": NOT_ROUTES})
    assert facts.apis == ()


def test_broken_file_is_a_gap_not_a_crash() -> None:
    facts = link({"svc/Broken.cs": "}}}} class {{{ ((", "svc/Ok.cs": 'app.MapGet("/ok", () => 1);'})
    assert [(m, p) for m, p, _, _ in routes(facts)] == [("GET", "/ok")]


CONVENTIONAL = """
public class CatalogController : Controller
{
    public IActionResult Index(int? page) => View();

    [HttpPost]
    public IActionResult AddToCart(int id) => RedirectToAction("Index");

    [HttpGet("catalog/special")]
    public IActionResult Special() => View();
}
"""
MVC_PROGRAM = """
var app = WebApplication.CreateBuilder(args).Build();
app.MapControllerRoute(name: "default", pattern: "{controller=Home}/{action=Index}/{id?}");
app.Run();
"""


def test_controllers_without_attribute_routes_follow_the_conventional_pattern() -> None:
    facts = link({"web/Controllers/CatalogController.cs": CONVENTIONAL, "web/Program.cs": MVC_PROGRAM})
    assert [(m, p) for m, p, _, _ in routes(facts)] == [
        ("ANY", "/Catalog/Index"),
        ("GET", "/catalog/special"),
        ("POST", "/Catalog/AddToCart"),
    ]


def test_without_a_conventional_route_only_attribute_routes_are_served() -> None:
    facts = link({"web/Controllers/CatalogController.cs": CONVENTIONAL})
    assert [(m, p) for m, p, _, _ in routes(facts)] == [("GET", "/catalog/special")]


def test_page_directives_set_the_route_and_views_alone_are_pages() -> None:
    facts = link(
        {
            "web/Pages/ProductDetail.cshtml.cs": PAGE.replace("Checkout", "ProductDetail"),
            "web/Pages/ProductDetail.cshtml": '@page "/product/{productId}"\n@model ProductDetailModel\n<h1>x</h1>\n',
            "web/Pages/Orders/Edit.cshtml.cs": PAGE.replace("Checkout", "Edit"),
            "web/Pages/Orders/Edit.cshtml": '\ufeff@page "{id:int}"\n',
            "web/Pages/About.cshtml": "@page\n<p>about</p>\n",
            "web/Views/Home/Index.cshtml": "@model HomeViewModel\n<p>an MVC view, not a page</p>\n",
        }
    )
    assert [(m, p) for m, p, _, _ in routes(facts)] == [
        ("GET", "/About"),
        ("GET", "/Orders/Edit/{id}"),
        ("GET", "/product/{productId}"),
        ("POST", "/Orders/Edit/{id}"),
        ("POST", "/product/{productId}"),
    ]


STATIC_IMPORT = """
using Ledger.Protos;
using static Ledger.Protos.Accounts;

public class AccountsService : AccountsBase
{
    public override Task<Reply> Open(Request r, ServerCallContext c) => Task.FromResult(new Reply());
}

public class Unrelated : DatabaseBase { public override void Open() { } }
"""


def test_grpc_base_imported_with_using_static() -> None:
    facts = link({"svc/AccountsService.cs": STATIC_IMPORT})
    assert [(m, p) for m, p, _, _ in routes(facts)] == [("RPC", "Accounts/Open")]
    assert facts.grpc_implements == ("Accounts",)
